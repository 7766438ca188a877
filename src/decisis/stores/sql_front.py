"""``SqlFront``: the ``Store`` methods the three SQL backends share.

The SQLite, DuckDB and PostgreSQL stores differ in how they hold a connection and
open a transaction, not in what a read checks or which of their modules answers
it, so those methods are written once here. A backend subclasses ``SqlFront``,
names its ``queries``, ``walks`` and ``writes`` modules (each checked against the
protocols below) and says how it runs work: ``_read`` for one statement, which
sees one state by itself, ``_snapshot`` for several that must see one state
together, ``_append`` for a batch of drafts in one write transaction.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from decisis.errors import InvalidInput
from decisis.model import Edge, EdgeType, Event, EventDraft, Node, NodeStatus, NodeType
from decisis.model.validation import check_confidence
from decisis.stores.about import is_about
from decisis.stores.base import (
    DEFAULT_MAX_DEPTH,
    MAX_SEQ,
    Direction,
    Reached,
    SearchHit,
    StorageCheck,
)
from decisis.stores.checks import (
    check_aware,
    check_direction,
    check_edge_types,
    check_limit,
    check_members,
    check_non_negative,
)
from decisis.stores.derived import DerivedItems, SqlDerived, check_items, check_names, pick
from decisis.stores.merkle import SqlTree
from decisis.stores.sql_vector_front import SqlVectorFront

__all__ = ["Queries", "SqlFront", "Walks", "Writes", "in_transaction"]

C = TypeVar("C")
C_contra = TypeVar("C_contra", contravariant=True)
E = TypeVar("E", bound="Executes")
T = TypeVar("T")

_EVENTS_PAGE = 500


class Executes(Protocol):
    """A connection that runs a statement with no parameters."""

    def execute(self, sql: str, /) -> object: ...


def in_transaction(conn: E, begin: str, work: Callable[[E], T]) -> T:
    """``begin``, then ``work``: committed when it returns, rolled back when it raises."""
    conn.execute(begin)
    try:
        result = work(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


class Queries(Protocol[C_contra]):
    """A backend's ``queries`` module: records, search and the ledger, read by one statement."""

    def get_node(self, conn: C_contra, graph: str, node_id: str, /) -> Node: ...

    def get_edge(self, conn: C_contra, graph: str, edge_id: str, /) -> Edge: ...

    def resolve_prefix(self, conn: C_contra, graph: str, prefix: str, /) -> str: ...

    def short_ids(
        self, conn: C_contra, graph: str, ids: Sequence[str], min_length: int, /
    ) -> dict[str, str]: ...

    def nodes(
        self,
        conn: C_contra,
        graph: str,
        /,
        *,
        types: Sequence[NodeType] | None,
        statuses: Sequence[NodeStatus] | None,
        newest_first: bool,
        limit: int | None,
        as_of: datetime | None,
        include_tombstoned: bool,
    ) -> list[Node]: ...

    def edges(
        self,
        conn: C_contra,
        graph: str,
        /,
        *,
        node: str | None,
        direction: Direction | None,
        types: Sequence[EdgeType] | None,
        as_of: datetime | None,
        include_tombstoned: bool,
    ) -> list[Edge]: ...

    def search(
        self, conn: C_contra, graph: str, text: str, /, *, limit: int, as_of: datetime | None
    ) -> list[SearchHit]: ...

    def events_page(
        self, conn: C_contra, graph: str, after_seq: int, until: datetime | None, size: int, /
    ) -> list[Event]: ...

    def history(
        self, conn: C_contra, graph: str, record_id: str, until: datetime | None, /
    ) -> list[Event]: ...

    def graphs(self, conn: C_contra, /) -> list[str]: ...

    def check_storage(self, conn: C_contra, graph: str, quick: bool, /) -> StorageCheck: ...


class Walks(Protocol[C_contra]):
    """A backend's ``walks`` module: traversals run inside the database."""

    def traverse(
        self,
        conn: C_contra,
        graph: str,
        start: str,
        /,
        *,
        direction: Direction,
        edge_types: Sequence[EdgeType] | None,
        max_depth: int,
        as_of: datetime | None,
    ) -> list[Reached]: ...

    def path_between(
        self,
        conn: C_contra,
        graph: str,
        source: str,
        target: str,
        /,
        *,
        edge_types: Sequence[EdgeType] | None,
        max_depth: int,
        as_of: datetime | None,
    ) -> list[str]: ...

    def supersession_region(
        self, conn: C_contra, graph: str, start: str, /, *, floor: float, as_of: datetime | None
    ) -> list[Edge]: ...


class Writes(Protocol[C_contra]):
    """A backend's ``writes`` module, as far as the reads use it."""

    def read_head(self, conn: C_contra, graph: str, /) -> tuple[int, str]: ...


class SqlFront(SqlVectorFront, Generic[C]):
    """The shared half of a SQL ``Store``: argument checks, then one call to a module
    (the vector methods' checks come from ``SqlVectorFront``)."""

    _queries: Queries[C]
    _walks: Walks[C]
    _writes: Writes[C]

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _read(self, work: Callable[[C], T]) -> T:
        """Run ``work`` on a connection; its one statement sees one state by itself."""

    @abstractmethod
    def _snapshot(self, work: Callable[[C], T]) -> T:
        """Run ``work`` in one transaction, so that all its statements see one state."""

    _tree: SqlTree

    @abstractmethod
    def _tree_write(self, graph: str, work: Callable[[C], T]) -> T:
        """Run ``work`` in a write transaction that holds ``graph``'s write lock."""

    @abstractmethod
    def _append(self, graph: str, drafts: list[EventDraft], after_seq: int | None) -> list[Event]:
        """Check, apply and append a non-empty batch in one write transaction (with
        ``after_seq``, ``checks.check_head`` on the head read inside it)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- writes ---------------------------------------------------------------
    def append(
        self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
    ) -> list[Event]:
        """Check, apply and append ``drafts`` in one transaction (none for no drafts); with
        ``after_seq``, only while it is the graph's last event (``Store.append``)."""
        check_non_negative(after_seq, "after_seq")
        drafts = list(drafts)
        if not drafts:
            return []
        return self._append(graph, drafts, after_seq)

    # -- records --------------------------------------------------------------
    def get_node(self, graph: str, node_id: str) -> Node:
        return self._read(lambda c: self._queries.get_node(c, graph, node_id))

    def get_edge(self, graph: str, edge_id: str) -> Edge:
        return self._read(lambda c: self._queries.get_edge(c, graph, edge_id))

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        return self._read(lambda c: self._queries.resolve_prefix(c, graph, prefix))

    def short_ids(self, graph: str, ids: Sequence[str], min_length: int = 8) -> dict[str, str]:
        return self._snapshot(lambda c: self._queries.short_ids(c, graph, ids, min_length))

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
        check_aware(as_of, "as_of")
        limit = check_limit(limit, "limit")
        checked_types = check_members(NodeType, types, "type")
        checked_statuses = check_members(NodeStatus, statuses, "status")
        return self._read(
            lambda c: self._queries.nodes(
                c,
                graph,
                types=checked_types,
                statuses=checked_statuses,
                newest_first=newest_first,
                limit=limit,
                as_of=as_of,
                include_tombstoned=include_tombstoned,
            )
        )

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
        check_aware(as_of, "as_of")
        check_direction(direction, optional=True)
        if direction is not None and node is None:
            raise InvalidInput("direction", "needs a node to be relative to", "a node id")
        checked = check_edge_types(types)
        return self._read(
            lambda c: self._queries.edges(
                c,
                graph,
                node=node,
                direction=direction,
                types=checked,
                as_of=as_of,
                include_tombstoned=include_tombstoned,
            )
        )

    def search(
        self, graph: str, query: str, *, limit: int = 10, as_of: datetime | None = None
    ) -> list[SearchHit]:
        """The backend's own full-text ranking; words are bound, never pasted as syntax."""
        check_aware(as_of, "as_of")
        limit = check_limit(limit, "limit", required=True)
        return self._read(lambda c: self._queries.search(c, graph, query, limit=limit, as_of=as_of))

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
        """Breadth first inside the database (see the backend's ``walks``), in one snapshot."""
        check_direction(direction)
        check_aware(as_of, "as_of")
        check_non_negative(max_depth, "max_depth")
        types = check_edge_types(edge_types)
        return self._snapshot(
            lambda c: self._walks.traverse(
                c,
                graph,
                start,
                direction=direction,
                edge_types=types,
                max_depth=max_depth,
                as_of=as_of,
            )
        )

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
        check_aware(as_of, "as_of")
        check_non_negative(max_depth, "max_depth")
        types = check_edge_types(edge_types)
        return self._snapshot(
            lambda c: self._walks.path_between(
                c, graph, source, target, edge_types=types, max_depth=max_depth, as_of=as_of
            )
        )

    def supersession_region(
        self, graph: str, start: str, *, floor: float = 0.0, as_of: datetime | None = None
    ) -> list[Edge]:
        """Trusted supersession forward from ``start`` in one recursive query (see ``walks``)."""
        check_aware(as_of, "as_of")
        level = check_confidence(floor, "floor") or 0.0
        return self._read(
            lambda c: self._walks.supersession_region(c, graph, start, floor=level, as_of=as_of)
        )

    # -- ledger -----------------------------------------------------------------
    def events(
        self, graph: str, *, after_seq: int = 0, until: datetime | None = None
    ) -> Iterator[Event]:
        """Ledger rows in ``seq`` order, read from the table page by page as they are used."""
        check_aware(until, "until")
        check_non_negative(after_seq, "after_seq", required=True)
        if after_seq >= MAX_SEQ:  # nothing comes after it, and the database cannot compare it
            return iter(())
        return self._event_pages(graph, after_seq, until)

    def _event_pages(self, graph: str, after_seq: int, until: datetime | None) -> Iterator[Event]:
        while True:
            page = self._events_page(graph, after_seq, until)
            yield from page
            if len(page) < _EVENTS_PAGE:
                return
            after_seq = page[-1].seq

    def _events_page(self, graph: str, after_seq: int, until: datetime | None) -> list[Event]:
        return self._read(
            lambda c: self._queries.events_page(c, graph, after_seq, until, _EVENTS_PAGE)
        )

    def history(self, graph: str, record_id: str, *, until: datetime | None = None) -> list[Event]:
        """One statement on the ledger's indexes narrows to the entries that may be about the
        record; ``is_about`` keeps those that are, the same rule as every store's."""
        check_aware(until, "until")
        found = self._read(lambda c: self._queries.history(c, graph, record_id, until))
        return [event for event in found if is_about(event, record_id)]

    def head(self, graph: str) -> tuple[int, str]:
        return self._read(lambda c: self._writes.read_head(c, graph))

    def graphs(self) -> list[str]:
        return self._read(self._queries.graphs)

    def check_storage(self, graph: str, *, quick: bool = False) -> StorageCheck:
        return self._read(lambda c: self._queries.check_storage(c, graph, quick))

    # -- the Merkle tree and checkpoints ------------------------------------------------
    def tree_size(self, graph: str) -> int:
        return self._read(lambda c: self._tree.size(c, graph))

    def tree_hashes(
        self, graph: str, keys: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], bytes]:
        return self._read(lambda c: self._tree.fetch(c, graph, list(keys)))

    def catch_up_tree(self, graph: str) -> int:
        return self._tree_write(
            graph, lambda c: self._tree.catch_up(c, graph, self._writes.read_head(c, graph)[0])
        )

    def put_checkpoint(self, graph: str, checkpoint: Mapping[str, Any]) -> None:
        self._tree_write(graph, lambda c: self._tree.put_checkpoint(c, graph, checkpoint))

    def checkpoints(self, graph: str) -> list[dict[str, Any]]:
        return self._read(lambda c: self._tree.checkpoints(c, graph))

    # -- derived data (``decisis.stores.derived``) --------------------------------------
    _derived = SqlDerived("?")

    def put_derived(self, graph: str, space: str, items: DerivedItems) -> int:
        rows = check_items(space, items)
        if not rows:
            return 0
        return self._tree_write(graph, lambda c: self._derived.put(c, graph, space, rows))

    def get_derived(
        self,
        graph: str,
        space: str,
        items: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        names = check_names(space, items)
        asked = names if names is not None else (list(digests) if digests is not None else None)
        if asked is not None and not asked:
            return {}
        found = self._read(lambda c: self._derived.get(c, graph, space, asked))
        return pick(found, names, digests)

    def delete_derived(self, graph: str, space: str, items: Sequence[str] | None = None) -> int:
        names = check_names(space, items)
        if names is not None and not names:
            return 0
        return self._tree_write(graph, lambda c: self._derived.delete(c, graph, space, names))

    def derived_spaces(self, graph: str) -> dict[str, int]:
        return self._read(lambda c: self._derived.spaces(c, graph))
