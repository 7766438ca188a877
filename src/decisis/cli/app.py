"""The Typer app: global options, command registration, and the one place errors are translated.

Every ``DecisisError`` a command raises ends here (``DecisisGroup.invoke``): a
one-line ``error: ...`` in red on stderr, or with ``--json`` a JSON object
``{"error": {"type", "message", "field", "allowed"}}`` on stdout; the exit code of
``decisis.errors.ERROR_TABLE`` (2).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from decisis.cli import (
    adr,
    copy,
    demo,
    evaluate,
    files,
    ledger,
    mcp,
    proofs,
    reads,
    serve,
    stale,
    think,
    writes,
)
from decisis.cli.state import State
from decisis.errors import DecisisError

__all__ = ["DecisisGroup", "app"]


def _fail(exc: DecisisError, as_json: bool) -> NoReturn:
    """Report an expected error and exit with its code in the one table."""
    from decisis.errors import answer_for, error_body

    if as_json:
        from decisis.cli.jsonout import emit

        emit(error_body(exc))
    else:
        from decisis.cli.render import print_error

        print_error(str(exc))
    raise typer.Exit(answer_for(exc).exit)


def _hoist_json(args: list[str]) -> list[str]:
    """Let ``--json`` follow the command too (``decisis goals --json``): move it to the front."""
    end = args.index("--") if "--" in args else len(args)
    head, tail = args[:end], args[end:]
    if "--json" not in head:
        return args
    return ["--json", *(arg for arg in head if arg != "--json"), *tail]


def _flags_without_metavar(params: list[Any]) -> list[Any]:
    """An on/off flag takes no value, so its help shows none (Typer would print ``<bool>``)."""
    for param in params:  # Typer's options are its own (vendored) click's: no isinstance
        if getattr(param, "is_flag", False):
            param.metavar = ""
    return params


def _on_terminal() -> bool:
    """Whether help is shown to a person: stdout is a terminal, or Rich is told to treat it as
    one (``TTY_COMPATIBLE=1``, ``FORCE_COLOR``; ``TTY_COMPATIBLE=0`` says it is not), as Rich
    decides whether to style its output."""
    tty_compatible = os.environ.get("TTY_COMPATIBLE", "")
    if tty_compatible in ("0", "1"):
        return tty_compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    try:
        return sys.stdout.isatty()
    except ValueError:  # stdout closed
        return False


def _help(command: Any, ctx: Any, formatter: Any, rich: Callable[[Any, Any], None]) -> None:
    """Help in Rich panels on a terminal; as plain text to a pipe or a file (an agent's tool
    call, a hook, ``| less``): the same words without the boxes, and without loading Rich
    and markdown-it, which cost more than the rest of the help (``bench_core_startup.py``).
    Rich's escape of a bracket (``decisis\\[web]``) is undone in plain text."""
    if _on_terminal():
        rich(ctx, formatter)
        return
    mode, command.rich_markup_mode = command.rich_markup_mode, None
    try:
        rich(ctx, formatter)
    finally:
        command.rich_markup_mode = mode
    formatter.buffer[:] = [text.replace("\\[", "[") for text in formatter.buffer]


# Commands whose output is not a result to print as JSON (servers, a demo tour).
_NO_JSON = frozenset({"serve", "mcp", "demo"})
_WHOLE_SENTENCE = 1_000  # a short help this long is never cut
JSON_EPILOG = "Add --json (before or after the command) to print JSON instead."


class DecisisCommand(TyperCommand):
    """A ``decisis`` command: flags shown as flags, and its help says ``--json`` works."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.name not in _NO_JSON and not self.epilog:
            self.epilog = JSON_EPILOG

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_metavar(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _help(self, ctx, formatter, super().format_help)


class DecisisGroup(TyperGroup):
    """The ``decisis`` command group; translates decisis errors for every subcommand."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_metavar(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _help(self, ctx, formatter, super().format_help)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The plain listing: each command with the first sentence of its help, wrapped (not
        cut at 45 characters with "...")."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(_WHOLE_SENTENCE)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return list(super().parse_args(ctx, _hoist_json(list(args))))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except DecisisError as exc:
            state = ctx.find_object(State)
            _fail(exc, bool(state and state.json))


app = typer.Typer(
    name="decisis",
    cls=DecisisGroup,
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from decisis import __version__

        typer.echo(f"decisis {__version__}")
        raise typer.Exit()


@app.callback()
def _global_options(
    ctx: typer.Context,
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            envvar="DECISIS_STORE",
            help="Store URL: sqlite:///path/to/file.db or memory://. "
            "Default: .decisis/decisis.db found upward from the current directory.",
        ),
    ] = None,
    graph: Annotated[
        str,
        typer.Option(
            "--graph", envvar="DECISIS_GRAPH", help="Name of the graph in the store to work on."
        ),
    ] = "default",
    json: Annotated[
        bool,
        typer.Option("--json", help="Print JSON for scripts and agents instead of tables."),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Decision memory for AI agents: a typed decision graph over a hash-chained ledger.

    Errors print as one line on stderr and exit with code 2 (with --json, as a
    JSON object on stdout); `verify` exits 1 when the ledger is not intact.
    """
    state = State(store=store, graph_name=graph, json=json)
    ctx.obj = state
    ctx.call_on_close(state.close)


for _module in (
    writes,
    reads,
    stale,
    ledger,
    proofs,
    demo,
    adr,
    evaluate,
    copy,
    think,
    mcp,
    serve,
    files,
):
    _module.register(app)
for _info in [
    *app.registered_commands,
    *(
        c
        for g in app.registered_groups
        if g.typer_instance
        for c in g.typer_instance.registered_commands
    ),
]:
    if _info.cls in (None, TyperCommand):
        _info.cls = DecisisCommand
