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
* Vectors (``put_vectors`` … ``vector_spaces``) are derived data, like the full-text
  index: kept beside the tables, not ledger events, so ``verify``, replay, ``at(t)``
  and export neither cover nor carry them; anything can recompute them from the
  nodes. Each lives in a *space* (the embedder's name plus what was embedded), so
  vectors of different models never meet; a space has one dimension.
* Other derived data (``put_derived`` … ``derived_spaces``) is text kept the same way,
  per space and item with the digest of what it was made from (``decisis.stores.derived``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypeAlias, runtime_checkable

from decisis.model import Edge, EdgeType, Event, EventDraft, Node, NodeStatus, NodeType

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "MAX_SEQ",
    "Direction",
    "Reached",
    "SearchHit",
    "StorageCheck",
    "Store",
    "VectorHit",
    "VectorItems",
    "VectorLike",
]

DEFAULT_MAX_DEPTH = 100
MAX_SEQ = 2**63 - 1  # ledger sequence numbers are 64-bit signed integers in every store

Direction = Literal["out", "in"]


@dataclass(frozen=True, slots=True)
class Reached:
    """A node found by a traversal: how far from the start, and the hop that reached it first."""

    node: Node
    depth: int
    via: str  # id of the node it was reached from (the start for depth 1)
    edge_type: EdgeType


@dataclass(frozen=True, slots=True)
class StorageCheck:
    """What a backend checked of its own storage, and the problems it found."""

    checked: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchHit:
    node: Node
    score: float  # higher is better; comparable only within one result list


VectorLike: TypeAlias = "Sequence[float] | NDArray[Any]"
"""One vector: a 1-D numpy array or a sequence of ints and floats (stored as float32)."""

VectorItems: TypeAlias = "Sequence[tuple[str, VectorLike]] | Mapping[str, VectorLike]"
"""Vectors to store: ``(node id, vector)`` pairs, or a mapping of node id to vector."""


class VectorHit(NamedTuple):
    """A node found by ``nearest``: its id and the cosine of its vector with the query."""

    id: str
    score: float  # cosine in [-1, 1]; higher is closer


@runtime_checkable
class Store(Protocol):
    url: str

    def close(self) -> None: ...

    # -- writes ---------------------------------------------------------------
    def append(
        self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
    ) -> list[Event]:
        """Check, apply and append ``drafts`` atomically; return the stored events.

        With ``after_seq``, only while the graph's last event is still that one (0 for an
        empty graph); else ``HeadMoved`` and nothing is written. A reader that prepared the
        drafts from what it read (an ingest) then reads again instead of writing over a
        change made meanwhile by another process."""
        ...

    def write_lock(self, graph: str) -> AbstractContextManager[None]:
        """Hold ``graph``'s write lock for a ``with`` block: every other append to it (other
        connections, other processes) waits until the block ends, so the head read inside
        is still the head at the block's append. Reads and appends this thread makes through
        this store inside the block run under the lock; an append's events are committed
        when the block ends (appending is the block's last step: ``written_once``). SQLite:
        ``BEGIN IMMEDIATE``; PostgreSQL: the head row ``FOR UPDATE``; memory and DuckDB: the
        store's process lock. Re-entrant on the thread that holds it."""
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

    def supersession_region(
        self, graph: str, start: str, *, floor: float = 0.0, as_of: datetime | None = None
    ) -> list[Edge]:
        """The trusted supersession region forward from ``start``, fetched in one query:
        the ``supersedes`` edges (``source`` replaced ``target``) followed from ``start``
        to the records that replaced it, transitively, ordered by id. ``NotFound`` when
        ``start`` is absent, ``[]`` when it is tombstoned.

        Edges are judged by the pair of records they join, since several rules may
        propose the same replacement: among the pair's edges that show (live, both
        records live, valid at ``as_of`` except ``start`` itself), one ``rejected``
        vetoes the pair (a person said no); otherwise it is followed when one is
        ``stated`` or ``confirmed``, or their confidences add up to ``floor`` (0 to 1;
        a missing confidence counts 0). The sum bounds every way of combining
        independent evidence (noisy-OR included), so a caller combining them loses
        no pair it could believe at ``floor``. Every showing edge of a followed pair
        is returned; cycles (two records naming each other) end at the first repeat.
        """
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

    def history(self, graph: str, record_id: str, *, until: datetime | None = None) -> list[Event]:
        """The ledger entries about one node or edge, in ``seq`` order: those whose entity
        it is, and those whose payload names it ``new`` (``decisis.stores.about``); ``until``
        as in ``events``. Read through an index, not the whole ledger. A tombstoned record
        keeps its history; an unknown id has none."""
        ...

    def head(self, graph: str) -> tuple[int, str]:
        """(seq, checksum) of the graph's last event as recorded beside the ledger;
        ``(0, GENESIS)`` for an empty graph."""
        ...

    def graphs(self) -> list[str]:
        """Names of the graphs that have at least one event, sorted."""
        ...

    # -- the Merkle tree and checkpoints (derived data: ``decisis.stores.merkle``) ----
    def tree_size(self, graph: str) -> int:
        """How many ledger entries the graph's Merkle tree holds (the head's seq when kept up)."""
        ...

    def tree_hashes(
        self, graph: str, keys: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], bytes]:
        """The stored hashes of complete subtrees ``(level, index)`` among ``keys``, in one
        read; a key the tree lacks is absent."""
        ...

    def catch_up_tree(self, graph: str) -> int:
        """Extend the tree to the ledger's head (a store from before the tree, or a ledger
        appended behind decisis's back); its size."""
        ...

    def put_checkpoint(self, graph: str, checkpoint: Mapping[str, Any]) -> None:
        """Keep a signed checkpoint (``decisis.proof``) beside the graph."""
        ...

    def checkpoints(self, graph: str) -> list[dict[str, Any]]:
        """The graph's kept checkpoints, by size then time."""
        ...

    def check_storage(self, graph: str, *, quick: bool = False) -> StorageCheck:
        """What ``verify`` cannot see through the tables: the database file's own integrity
        (``quick``: the cheaper check where the backend has one) and the derived full-text
        index against the nodes; what was checked and each problem found."""
        ...

    # -- vectors (derived data: not in the ledger, not verified, not replayed) ------
    def put_vectors(
        self,
        graph: str,
        space: str,
        items: VectorItems,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> int:
        """Store one vector per node in ``space``, replacing any it had; all land or none.

        The first vector fixes the space's dimension; later ones must match it
        (``InvalidInput`` naming both). NaN, infinities, non-numbers and duplicate ids
        are refused (``InvalidInput``), an absent node with ``NotFound``, a tombstoned
        one with ``Conflict``, each before anything is written. ``digests`` tags a
        vector with what it was computed from (e.g. a hash of the text), so a reader
        can tell a stale one. Returns the number stored.
        """
        ...

    def get_vectors(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        """The stored vectors (float32, exactly as put) of ``ids`` (default: all), by id.

        Ids without a vector, and tombstoned nodes, are absent from the result. With
        ``digests``, only the ids in it whose vector was put with that digest count:
        a stale vector reads as missing.
        """
        ...

    def vector_digests(
        self, graph: str, space: str, ids: Sequence[str] | None = None
    ) -> dict[str, str | None]:
        """The digest each stored vector of ``ids`` (default: all) was put with, by id
        (``None`` when it was put without one), reading no vector: how a caller finds the
        stale ones to embed again. Ids without a vector, and tombstoned nodes, are absent."""
        ...

    def nearest(
        self,
        graph: str,
        space: str,
        query: VectorLike,
        k: int = 10,
        *,
        ids: Sequence[str] | None = None,
        as_of: datetime | None = None,
    ) -> list[VectorHit]:
        """The ``k`` nodes whose vectors have the highest cosine with ``query``, best first
        (ties by id), among ``ids`` when given.

        Tombstoned nodes, nodes not valid at ``as_of``, and zero vectors (similar to
        nothing) are left out; an unknown space gives ``[]``. A backend with a vector
        index (pgvector) may answer approximately when neither ``ids`` nor a large
        ``k`` asks it for an exact scan.
        """
        ...

    def delete_vectors(self, graph: str, space: str, ids: Sequence[str] | None = None) -> int:
        """Forget the vectors of ``ids``, or with ``ids=None`` the whole space (and its
        dimension); returns how many were removed."""
        ...

    def vector_spaces(self, graph: str) -> dict[str, int]:
        """The graph's vector spaces and their dimensions, by name."""
        ...

    # -- other derived data (``decisis.stores.derived``: kept by digest, not in the ledger) --
    def put_derived(self, graph: str, space: str, items: Mapping[str, tuple[str, str]]) -> int:
        """Keep ``items`` (item -> (digest, body), all text) in ``space``, replacing what the
        items had; all land or none. A non-string, an empty space or item name, or a NUL
        character is refused (``InvalidInput``) before anything is written. Returns the
        number kept."""
        ...

    def get_derived(
        self,
        graph: str,
        space: str,
        items: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        """The bodies of ``items`` (default: all) in ``space``, by item; items without one
        are absent. With ``digests``, only the items in it (of ``items``, when given) whose
        body was put with that digest count: a stale body reads as missing."""
        ...

    def delete_derived(self, graph: str, space: str, items: Sequence[str] | None = None) -> int:
        """Forget the bodies of ``items``, or with ``None`` the whole space; how many went."""
        ...

    def derived_spaces(self, graph: str) -> dict[str, int]:
        """The graph's spaces of derived data and how many bodies each holds, by name."""
        ...
