"""The one narrow ``Store`` protocol every backend implements.

A store owns its transactions, tables, ledger append and traversals. Nothing
outside ``decisis.stores`` asks which backend it talks to.

Contract in short:

* ``append`` is the only write. It takes drafts for one graph and, in one
  transaction, checks each against the current state (the rules of
  ``decisis.stores.fold``), applies it to the tables, and appends it to the ledger
  with the next ``seq`` and chained checksum (``decisis.ledger``). All land or none.
* Reads never raise for "nothing found": they return empty lists. Fetching one
  record by id raises ``NotFound``.
* Tombstoned nodes and edges, and edges touching a tombstoned node, are left out
  of every query unless ``include_tombstoned=True``.
* ``as_of`` limits a query to records valid at that instant (``Node.valid_at``):
  a node or edge not valid then is not returned and not walked through.
* Traversals run inside the backend, bounded by ``max_depth`` and optionally by
  edge types, never by loading the graph into Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from decisis.model import Edge, EdgeType, Event, EventDraft, Node, NodeStatus, NodeType

__all__ = ["DEFAULT_MAX_DEPTH", "Direction", "Reached", "SearchHit", "Store"]

DEFAULT_MAX_DEPTH = 100

Direction = Literal["out", "in"]


@dataclass(frozen=True, slots=True)
class Reached:
    """A node found by a traversal: how far from the start, and the hop that reached it first."""

    node: Node
    depth: int
    via: str  # id of the node it was reached from (the start for depth 1)
    edge_type: EdgeType


@dataclass(frozen=True, slots=True)
class SearchHit:
    node: Node
    score: float  # higher is better; comparable only within one result list


@runtime_checkable
class Store(Protocol):
    url: str

    def close(self) -> None: ...

    # -- writes ---------------------------------------------------------------
    def append(self, graph: str, drafts: Sequence[EventDraft]) -> list[Event]:
        """Check, apply and append ``drafts`` atomically; return the stored events."""
        ...

    # -- records --------------------------------------------------------------
    def get_node(self, graph: str, node_id: str) -> Node:
        """The node, tombstoned or not; ``NotFound`` when absent."""
        ...

    def get_edge(self, graph: str, edge_id: str) -> Edge: ...

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        """The full id of the one node or edge whose id starts with ``prefix`` (any case).

        ``NotFound`` when none matches, ``AmbiguousId`` when several do.
        """
        ...

    def short_ids(self, graph: str, ids: Sequence[str], min_length: int = 8) -> dict[str, str]:
        """For each id, its shortest prefix (at least ``min_length``) unique among node and
        edge ids of the graph."""
        ...

    def nodes(
        self,
        graph: str,
        *,
        types: Sequence[NodeType] | None = None,
        statuses: Sequence[NodeStatus] | None = None,
        newest_first: bool = False,
        limit: int | None = None,
        as_of: datetime | None = None,
        include_tombstoned: bool = False,
    ) -> list[Node]:
        """Nodes ordered by id (creation order), or newest first."""
        ...

    def edges(
        self,
        graph: str,
        *,
        node: str | None = None,
        direction: Direction | None = None,
        types: Sequence[EdgeType] | None = None,
        as_of: datetime | None = None,
        include_tombstoned: bool = False,
    ) -> list[Edge]:
        """Edges ordered by id; with ``node``, those leaving it (``out``), entering it
        (``in``) or both (``None``)."""
        ...

    # -- traversals ------------------------------------------------------------
    def traverse(
        self,
        graph: str,
        start: str,
        *,
        direction: Direction,
        edge_types: Sequence[EdgeType] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        as_of: datetime | None = None,
    ) -> list[Reached]:
        """Every node reachable from ``start`` (not including it), each once at its
        smallest depth, ordered by (depth, id). ``NotFound`` when ``start`` is absent.

        ``as_of`` filters the nodes and edges walked, not ``start`` itself: asking where a
        decision superseded before ``as_of`` led must still begin at it."""
        ...

    def path_between(
        self,
        graph: str,
        source: str,
        target: str,
        *,
        edge_types: Sequence[EdgeType] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        as_of: datetime | None = None,
    ) -> list[str]:
        """Node ids of a shortest directed path ``source -> target`` (both included;
        among equal lengths the lexicographically smallest id sequence), or ``[]``."""
        ...

    def search(
        self, graph: str, query: str, *, limit: int = 10, as_of: datetime | None = None
    ) -> list[SearchHit]:
        """Full-text search over labels and rationale, best first."""
        ...

    # -- ledger -----------------------------------------------------------------
    def events(
        self, graph: str, *, after_seq: int = 0, until: datetime | None = None
    ) -> Iterator[Event]:
        """Ledger entries in ``seq`` order, read from storage (never from a cache)."""
        ...

    def head(self, graph: str) -> tuple[int, str]:
        """(seq, checksum) of the graph's last event as recorded beside the ledger;
        ``(0, GENESIS)`` for an empty graph."""
        ...

    def graphs(self) -> list[str]:
        """Names of the graphs that have at least one event, sorted."""
        ...
