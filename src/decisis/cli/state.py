"""What a command works on: the store URL, the graph name and the output mode.

Without ``--store`` (or ``DECISIS_STORE``) the store is ``.decisis/decisis.db``,
found upward from the working directory the way git finds ``.git``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from decisis.errors import StoreError

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = ["STORE_DIR", "STORE_FILE", "State", "find_store", "get_state", "sqlite_url"]

STORE_DIR = ".decisis"
STORE_FILE = "decisis.db"


def sqlite_url(path: Path) -> str:
    """The store URL of a SQLite file (absolute, so it holds from any directory)."""
    return f"sqlite:///{path.resolve()}"


def find_store(start: Path) -> Path | None:
    """The nearest ``.decisis/decisis.db`` in ``start`` or one of its parents."""
    for folder in (start, *start.parents):
        candidate = folder / STORE_DIR / STORE_FILE
        if candidate.is_file():
            return candidate
    return None


@dataclass
class State:
    """Global options of one invocation; opens the graph on first use and closes it at exit."""

    store: str | None = None
    graph_name: str = "default"
    json: bool = False
    _graph: Graph | None = field(default=None, repr=False)

    def store_url(self) -> str:
        if self.store:
            return self.store
        found = find_store(Path.cwd())
        if found is None:
            raise StoreError(
                f"no decisis store in {Path.cwd()} or any parent directory: "
                "run 'decisis init' here, or pass --store URL (or set DECISIS_STORE)"
            )
        return sqlite_url(found)

    @property
    def graph(self) -> Graph:
        if self._graph is None:
            from decisis.graph import open as open_graph

            self._graph = open_graph(self.store_url(), self.graph_name)
        return self._graph

    def close(self) -> None:
        if self._graph is not None:
            self._graph.close()
            self._graph = None


def get_state(ctx: typer.Context) -> State:
    """The ``State`` the app callback put on the context."""
    state = ctx.find_object(State)
    if state is None:  # pragma: no cover - the callback always runs first
        raise RuntimeError("decisis command invoked without the app callback")
    return state
