"""The agent hooks: what a Claude Code ``PreToolUse`` hook prints, and the installs.

Claude Code runs a command hook with a JSON object on stdin (``hook_event_name``,
``tool_name``, ``tool_input`` holding an absolute ``file_path`` for Edit, Write and MultiEdit,
``notebook_path`` for NotebookEdit, and ``cwd``). A hook that exits 0 and prints
``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "…"}}`` hands the
text to the model before the tool runs; exit code 2 would block the edit, so the decisis hook
never uses it: nothing to say, a missing store or a broken payload all end in exit 0 and
silence. The installs merge into what is there and never drop a setting or a hook.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from decisis.errors import InvalidInput
from decisis.files.governs import PathDecisions

__all__ = [
    "EDIT_MATCHER",
    "GIT_HOOK_MARK",
    "MAX_SHOWN",
    "hook_context",
    "hook_output",
    "hook_paths",
    "install_claude_code",
    "install_git_hook",
]

EDIT_MATCHER = "Edit|Write|MultiEdit|NotebookEdit"
MAX_SHOWN = 10  # decisions one hook message lists
MAX_RATIONALE = 300
GIT_HOOK_MARK = "# >>> decisis post-commit >>>"
_GIT_HOOK_END = "# <<< decisis post-commit <<<"
_SHELLS = ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env sh", "#!/usr/bin/env bash")


def hook_paths(payload: object) -> tuple[list[str], Path | None]:
    """The files a tool call is about to change, and the session's folder (``cwd``), from
    the hook's input; nothing for a tool that changes no file."""
    if not isinstance(payload, dict):
        return [], None
    cwd = payload.get("cwd")
    folder = Path(cwd) if isinstance(cwd, str) and cwd else None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return [], folder
    paths = []
    for key in ("file_path", "notebook_path", "path"):
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            given = Path(value)
            if not given.is_absolute() and folder is not None:
                given = folder / given
            paths.append(str(given))
    return paths, folder


def hook_context(found: Sequence[PathDecisions], short: dict[str, str]) -> str | None:
    """The words the agent reads before it edits, or ``None`` when no decision governs."""
    lines = []
    for entry in found:
        if not entry.decisions:
            continue
        count = len(entry.decisions)
        lines.append(
            f"decisis: {count} standing decision{'s' if count != 1 else ''} govern"
            f"{'s' if count == 1 else ''} {entry.path} (nearest first). Keep to them, or record"
            " a decision that supersedes one before you change course:"
        )
        for item in entry.decisions[:MAX_SHOWN]:
            node = item.node
            sid = short.get(node.id, node.id)
            key = node.metadata.get("key") if node.metadata.get("kind") == "adr" else None
            what = f"ADR {key}" if isinstance(key, str) else f"{node.type.value} {sid}"
            line = f"- {node.label} ({what}, via {item.pattern})"
            if item.replaced:
                old = ", ".join(f"{n.label} ({short.get(n.id, n.id)})" for n in item.replaced)
                line += f"; replaced: {old}"
            lines.append(line)
            if node.rationale:
                why = " ".join(node.rationale.split())
                cut = why[:MAX_RATIONALE] + ("…" if len(why) > MAX_RATIONALE else "")
                lines.append(f"  why: {cut}")
        if count > MAX_SHOWN:
            lines.append(f"  … and {count - MAX_SHOWN} more: decisis explain {entry.path}")
    return "\n".join(lines) if lines else None


def hook_output(context: str, event: str = "PreToolUse") -> dict[str, Any]:
    """The JSON Claude Code reads from a hook's stdout: context for the model, no verdict (the
    usual permission rules decide whether the edit runs)."""
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}


def _hook_entry(command: str) -> dict[str, Any]:
    return {
        "matcher": EDIT_MATCHER,
        "hooks": [{"type": "command", "command": command, "timeout": 30}],
    }


def _has_command(groups: list[Any], command: str) -> bool:
    for group in groups:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        for hook in hooks if isinstance(hooks, list) else []:
            if isinstance(hook, dict) and hook.get("command") == command:
                return True
    return False


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.decisis-{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def install_claude_code(settings: Path, command: str) -> bool:
    """Add the PreToolUse hook running ``command`` to the Claude Code settings file
    ``settings`` (``.claude/settings.json``), keeping everything else in it. Returns whether
    the file changed (``False``: the hook was there already). A file that is not a JSON
    object, or whose ``hooks`` are not as Claude Code writes them, is refused untouched."""
    allowed = "a JSON object, as Claude Code writes it"
    data: Any = {}
    if settings.exists():
        try:
            data = json.loads(settings.read_text(encoding="utf-8") or "{}")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidInput(
                "settings", f"{settings} cannot be read as JSON ({exc})", allowed
            ) from None
    if not isinstance(data, dict):
        raise InvalidInput(
            "settings", f"{settings} holds {type(data).__name__}, not an object", allowed
        )
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InvalidInput("settings", f"'hooks' in {settings} is not an object", allowed)
    groups = hooks.setdefault("PreToolUse", [])
    if not isinstance(groups, list):
        raise InvalidInput("settings", f"'hooks.PreToolUse' in {settings} is not a list", allowed)
    if _has_command(groups, command):
        return False
    groups.append(_hook_entry(command))
    _write_atomically(settings, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return True


def _git_hook_block(command: str) -> str:
    return (
        f"{GIT_HOOK_MARK}\n"
        "# Joins the decision taken for this commit to it (decisis hooks install --git).\n"
        f"{command} || true\n"
        f"{_GIT_HOOK_END}\n"
    )


def install_git_hook(hook: Path, command: str) -> bool:
    """Add the lines running ``command`` to the post-commit hook file ``hook``: a new shell
    script, or appended to a shell script that is there (its own lines kept). Returns whether
    the file changed. A hook in another language is refused untouched."""
    block = _git_hook_block(command)
    if hook.exists():
        text = hook.read_text(encoding="utf-8", errors="replace")
        if GIT_HOOK_MARK in text:
            return False
        first = text.splitlines()[0].strip() if text.strip() else ""
        if first.startswith("#!") and not first.startswith(_SHELLS):
            raise InvalidInput(
                "git",
                f"{hook} is a {first[2:].strip()} script: decisis adds lines to shell scripts only",
                f"add the line '{command}' to it yourself",
            )
        text = text if text.endswith("\n") or not text else text + "\n"
        new = (text or "#!/bin/sh\n") + block
    else:
        new = "#!/bin/sh\n" + block
    _write_atomically(hook, new)
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return True
