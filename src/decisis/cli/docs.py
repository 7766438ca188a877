"""The CLI reference (``docs/cli.md``), rendered from the Typer app itself so it cannot drift.

Regenerate with ``python scripts/gen_cli_docs.py``; ``tests/cli`` fails when the
file is out of date.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from typing import Any

__all__ = ["INTRO", "command_tree", "render_markdown"]

INTRO = """\
# decisis command line

<!-- Generated from the Typer app by `python scripts/gen_cli_docs.py`; do not edit by hand. -->

`decisis` records goals, decisions, options, actions and outcomes in a decision graph
kept over a hash-chained ledger, and answers what stands now and why.

- **Store.** `--store URL` (or `DECISIS_STORE`): `sqlite:///path/to/file.db` or `memory://`.
  Without it, decisis looks for `.decisis/decisis.db` in the current directory and its
  parents, as git looks for `.git`; `decisis init` creates one here.
- **Graphs.** Many named graphs share one store; `--graph NAME` (or `DECISIS_GRAPH`) picks
  one, `default` unless told.
- **Ids** print short (the shortest unique prefix, as git does); every command accepts any
  unique prefix of an id. An ambiguous or unknown prefix is an error that says so.
- **JSON.** `--json` (`decisis --json goals` or `decisis goals --json`) prints one JSON
  document on stdout: nodes as `Node.to_dict()`, lists as arrays, traversal results as
  `{"node", "depth", "via", "edge_type"}`.
- **Errors and exit codes.** `0` success; `1` `verify` found the ledger broken; `2` the
  input or the store was refused: one line `error: ...` on stderr, or with `--json` the
  object `{"error": {"type", "message", "field", "allowed"}}` on **stdout**. Errors in the
  command line itself (an unknown option, a missing argument, a value of the wrong kind)
  are reported by Typer on stderr, also with exit code `2`.
"""


def _unescaped(text: str) -> str:
    """Help text without Rich's escapes: ``decisis\\[web]`` keeps its brackets on the
    terminal, where ``[web]`` would be read as markup and vanish; Markdown needs none."""
    return text.replace("\\[", "[")


def command_tree() -> tuple[Any, Any, list[tuple[str, Any, Any]]]:
    """The root command, its context and ``(name, command, context)`` for each visible command."""
    import typer.main

    from decisis.cli.app import app

    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="decisis")
    commands: list[tuple[str, Any, Any]] = []

    def walk(group: Any, group_ctx: Any, prefix: str) -> None:
        for name in group.list_commands(group_ctx):
            command = group.get_command(group_ctx, name)
            if command is None or command.hidden:
                continue
            sub_ctx = command.context_class(command, info_name=name, parent=group_ctx)
            commands.append((f"{prefix}{name}", command, sub_ctx))
            if hasattr(command, "list_commands"):  # a group of its own (``decisis adr``)
                walk(command, sub_ctx, f"{prefix}{name} ")

    walk(root, ctx, "")
    return root, ctx, commands


def _type_name(param: Any) -> str:
    descriptor = getattr(param, "type_descriptor", None)
    annotation = getattr(descriptor, "annotation", None)
    if annotation is None:
        return str(getattr(getattr(param, "type", None), "name", "text")).upper()
    text = getattr(annotation, "__name__", str(annotation)).replace("typing.", "")
    return {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "Path": "FILE"}.get(text, "TEXT")


def _argument_name(param: Any) -> str:
    return str(param.metavar or param.name.upper())


def _usage(name: str, command: Any) -> str:
    pieces = [f"decisis {name}", "[OPTIONS]"]
    for param in command.params:
        if param.param_type_name == "argument":
            shown = _argument_name(param)
            pieces.append(shown if param.required else f"[{shown}]")
    return " ".join(pieces)


def _param_line(param: Any) -> str:
    if param.param_type_name == "argument":
        head = f"`{_argument_name(param)}`"
    else:
        names = ", ".join([*param.opts, *param.secondary_opts])
        head = (
            f"`{names}`" if getattr(param, "is_flag", False) else f"`{names} {_type_name(param)}`"
        )
    notes = []
    if param.required:
        notes.append("required")
    if param.multiple:
        notes.append("repeatable")
    if param.default not in (None, False, ()) and not param.required:
        notes.append(f"default: `{param.default}`")
    if param.envvar:
        notes.append(f"env: `{param.envvar}`")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return f"- {head}{extra}: {_unescaped(param.help or '')}".rstrip()


def _params(command: Any) -> Iterator[str]:
    visible = [p for p in command.params if not getattr(p, "hidden", False)]
    arguments = [p for p in visible if p.param_type_name == "argument"]
    options = [p for p in visible if p.param_type_name != "argument"]
    for title, group in (("Arguments", arguments), ("Options", options)):
        if group:
            yield f"{title}:\n"
            yield from (_param_line(p) for p in group)
            yield ""


def render_markdown() -> str:
    """The whole reference: the introduction, the global options, then every command."""
    root, _, commands = command_tree()
    lines = [INTRO, "## Global options\n", "`decisis [OPTIONS] COMMAND [ARGS]...`\n"]
    lines += [_param_line(p) for p in root.params if not getattr(p, "hidden", False)]
    lines += ["", "## Commands\n"]
    lines += [
        f"- [`{name}`](#decisis-{name}): {cmd.short_help or _first_line(cmd.help)}"
        for name, cmd, _ in commands
    ]
    for name, command, _ in commands:
        lines += ["", f"### decisis {name}\n", _unescaped(inspect.cleandoc(command.help or "")), ""]
        lines += ["```", _usage(name, command), "```", ""]
        lines += list(_params(command))
    text = "\n".join(lines).rstrip() + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


def _first_line(text: str | None) -> str:
    return inspect.cleandoc(text or "").split("\n", 1)[0]
