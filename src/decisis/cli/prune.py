"""Build only the command a process runs: Typer turns every registered function into a
click command (reading its signature and type hints) before it parses anything, which cost
about 50 ms of each start for 48 commands (``bench/bench_core_startup.py``).

``decisis ask …`` keeps only ``ask``; with no command (``--help``, ``--version``) every
command is kept for the listing, each behind a callback without parameters that carries
the same help. Shell completion
(``_DECISIS_COMPLETE`` set) and an unknown name (so click can say what exists) keep all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer
from typer.main import get_command_name
from typer.models import CommandInfo, DefaultPlaceholder, TyperInfo

__all__ = ["only_needed"]

# Global options that take a value (``decisis --store URL ask …``).
_VALUED = frozenset({"--store", "--graph"})


def command_asked(args: Sequence[str]) -> str | None:
    """The command name in ``args`` (the first word after the global options), if any."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _name_of_command(info: CommandInfo) -> str:
    if info.name is not None:
        return info.name
    assert info.callback is not None  # every decisis command is a decorated function
    return get_command_name(info.callback.__name__)


def _name_of_group(info: TyperInfo) -> str | None:
    name = info.name
    if isinstance(name, DefaultPlaceholder) or name is None:
        inner = info.typer_instance.info.name if info.typer_instance else None
        name = None if isinstance(inner, DefaultPlaceholder) else inner
    return name


def _help_only(info: CommandInfo) -> CommandInfo:
    """``info`` behind a callback without parameters that keeps its help text and name."""
    callback: Callable[..., Any] | None = info.callback

    def listed() -> None:  # pragma: no cover - only listed, never run
        raise AssertionError("a command kept for the help listing was run")

    listed.__doc__ = callback.__doc__ if callback else None
    copy = CommandInfo(**{**vars(info), "callback": listed, "name": _name_of_command(info)})
    return copy


@contextmanager
def only_needed(app: typer.Typer, args: Sequence[str]) -> Iterator[None]:
    """While inside, ``app`` holds only what running ``args`` needs (restored after)."""
    commands, groups = list(app.registered_commands), list(app.registered_groups)
    try:
        if not os.environ.get("_DECISIS_COMPLETE"):
            _prune(app, args)
        yield
    finally:
        app.registered_commands, app.registered_groups = commands, groups


def _prune(app: typer.Typer, args: Sequence[str]) -> None:
    if "--" in args:
        return
    asked = command_asked(args)
    if asked is None:  # help, --version, or click's "missing command": nothing runs
        app.registered_commands = [_help_only(c) for c in app.registered_commands]
        return
    kept = [c for c in app.registered_commands if _name_of_command(c) == asked]
    groups = [g for g in app.registered_groups if _name_of_group(g) == asked]
    if kept or groups:
        app.registered_commands, app.registered_groups = kept, groups
