"""Decisions where the work happens: explain (which decisions govern a file), link-commit
(the post-commit hook's), and hooks install (Claude Code's PreToolUse hook, git's post-commit)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from decisis.cli.common import short_ids
from decisis.cli.state import State, find_store, get_state, sqlite_url

if TYPE_CHECKING:
    from decisis.files import PathDecisions

__all__ = ["register"]

hooks_app = typer.Typer(
    name="hooks", help="Install the agent hooks: Claude Code's PreToolUse, git's post-commit."
)


def _print_found(state: State, found: list[PathDecisions]) -> None:
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import PathDecisionsOut

        emit([PathDecisionsOut.of(entry).dump() for entry in found])
        return
    from decisis.cli.render import print_message, visible

    ids = [n.id for e in found for d in e.decisions for n in (d.node, *d.replaced)]
    short = short_ids(state.graph, ids)
    for entry in found:
        if not entry.decisions:
            print_message(visible(f"{entry.path}: no standing decision governs it"))
            continue
        print_message(visible(f"{entry.path}:"))
        for item in entry.decisions:
            node = item.node
            line = f"  {short[node.id]}  {node.label}  [{node.type.value}, {node.status.value}]"
            line += f"  via {item.pattern}"
            if item.replaced:
                line += "  replaced: " + ", ".join(
                    f"{short[n.id]} {n.label}" for n in item.replaced
                )
            print_message(visible(line))


def _hook(state: State) -> None:
    """The PreToolUse hook: read the client's JSON, print the context, always exit 0."""
    from decisis.files.hooks import hook_context, hook_output, hook_paths

    try:
        payload = json.loads(sys.stdin.read() or "null")
        paths, folder = hook_paths(payload)
        if not paths:
            return
        if state.store is None:
            found_store = find_store(folder or Path.cwd()) or find_store(Path(paths[0]).parent)
            if found_store is None:
                return  # no store here: nothing to say, and the edit goes on
            state.store = sqlite_url(found_store)
        from decisis.files import repo_path

        # from the root of the file's work tree; outside one, from the session's folder
        found = state.graph.decisions_for([repo_path(p, cwd=folder) for p in paths])
        ids = [n.id for e in found for d in e.decisions for n in (d.node, *d.replaced)]
        context = hook_context(found, short_ids(state.graph, ids))
        if context is not None:
            event = payload.get("hook_event_name") if isinstance(payload, dict) else None
            typer.echo(json.dumps(hook_output(context, str(event or "PreToolUse"))))
    except Exception as exc:  # a hook must never stop the edit: say why on stderr, exit 0
        typer.echo(f"decisis hook: {type(exc).__name__}: {exc}", err=True)


def explain(
    ctx: typer.Context,
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="PATH", help="Files or folders, from here or absolute."),
    ] = None,
    hook: Annotated[
        bool,
        typer.Option(
            "--hook",
            help="Run as a Claude Code PreToolUse hook: read the tool call's JSON on stdin and"
            " print the governing decisions as the hook output; exits 0 whatever happens.",
        ),
    ] = False,
) -> None:
    """The standing decisions that govern each PATH, nearest first, with what each replaced.

    Nodes name what they govern with add --affects; ADRs with affects: front matter, or by
    naming tracked paths in their text. Most specific pattern first (docs/files.md)."""
    state = get_state(ctx)
    if hook:
        _hook(state)
        return
    if not paths:
        from decisis.errors import InvalidInput

        raise InvalidInput("path", "is missing", "one or more file or folder paths, or --hook")
    from decisis.files import repo_path

    here = Path.cwd()
    asked = [_as_asked(repo_path(p, cwd=here), (here / p).is_dir()) for p in paths]
    _print_found(state, state.graph.decisions_for(asked))


def _as_asked(path: str, folder: bool) -> str:
    """A folder keeps a trailing ``/`` (the root is ``.``): it asks for the decisions on what
    is inside it too."""
    if not folder:
        return path
    return f"{path}/" if path else "."


def link_commit(
    ctx: typer.Context,
    ref: Annotated[
        str, typer.Argument(metavar="COMMIT", help="The commit (HEAD unless told).")
    ] = "HEAD",
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", envvar="DECISIS_AGENT", help="Only this agent's (or person's) decisions."
        ),
    ] = None,
    hook: Annotated[
        bool,
        typer.Option("--hook", help="Run as the post-commit hook: say nothing, never fail."),
    ] = False,
) -> None:
    """Join the latest decision to a commit (what the post-commit hook runs).

    The newest active decision joined to no commit yet and recorded since the commit before
    it (by --agent, when given); nothing is joined when none qualifies."""
    from decisis.files.commits import link_commit as run

    state = get_state(ctx)
    try:
        sha, node = run(state.graph, Path.cwd(), ref, agent=agent)
    except Exception:
        if hook:
            return
        raise
    if hook:
        return
    if state.json:
        from decisis.cli.jsonout import emit

        emit({"commit": sha, "node": node.to_dict() if node else None})
        return
    from decisis.cli.render import print_message, visible

    if node is None:
        print_message(f"no decision to join to {sha[:12]}: none recorded since the commit before")
        return
    short = short_ids(state.graph, [node.id])[node.id]
    print_message(visible(f"joined {short} {node.label} to commit {sha[:12]}"))


def install(
    ctx: typer.Context,
    claude_code: Annotated[
        bool,
        typer.Option(
            "--claude-code",
            help="Add the PreToolUse hook to .claude/settings.json (merged into what is there).",
        ),
    ] = False,
    git: Annotated[
        bool,
        typer.Option("--git", help="Add decisis link-commit to the git post-commit hook."),
    ] = False,
    executable: Annotated[
        str,
        typer.Option("--executable", help="How the hooks call decisis (a name on PATH or a path)."),
    ] = "decisis",
) -> None:
    """Install the agent hooks in this repository (the root of the git work tree, or here)."""
    from decisis.errors import InvalidInput
    from decisis.files.git import hooks_file, work_tree_root
    from decisis.files.hooks import install_claude_code, install_git_hook

    state = get_state(ctx)
    if not (claude_code or git):
        raise InvalidInput("hooks", "name a hook to install", ["--claude-code", "--git"])
    here = Path.cwd()
    root = work_tree_root(here)
    done: dict[str, dict[str, object]] = {}
    if claude_code:
        settings = (root or here) / ".claude" / "settings.json"
        changed = install_claude_code(settings, f"{executable} explain --hook")
        done["claude-code"] = {"path": str(settings), "changed": changed}
    if git:
        hook = hooks_file(root, "post-commit") if root is not None else None
        if hook is None:
            raise InvalidInput(
                "git", f"{here} is not inside a git work tree", "run it inside a repository"
            )
        changed = install_git_hook(hook, f"{executable} link-commit --hook")
        done["git"] = {"path": str(hook), "changed": changed}
    if state.json:
        from decisis.cli.jsonout import emit

        emit(done)
        return
    from decisis.cli.render import print_message

    for name, what in done.items():
        verb = "installed in" if what["changed"] else "already in"
        print_message(f"{name} hook {verb} {what['path']}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(explain)
    app.command(name="link-commit")(link_commit)
    hooks_app.command()(install)
    app.add_typer(hooks_app)
