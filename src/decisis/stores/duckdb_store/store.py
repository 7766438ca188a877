"""``DuckDBStore``: the embedded analytical backend, one DuckDB file (or memory).

One connection per store, serialised by a lock (a DuckDB connection is not safe
to share between threads at once). Every write is one explicit transaction:
committed whole, or rolled back on any error. DuckDB lets one process at a time
open a file for writing; a second process gets a clear ``StoreError``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Self, TypeVar

import duckdb

from decisis.errors import DecisisError, InvalidInput, StoreError, UnsupportedStore
from decisis.model import Edge, EdgeType, Event, EventDraft, Node, NodeStatus, NodeType
from decisis.model.validation import check_confidence, check_enum
from decisis.stores.base import (
    DEFAULT_MAX_DEPTH,
    Direction,
    Reached,
    SearchHit,
    VectorHit,
    VectorItems,
    VectorLike,
)
from decisis.stores.checks import check_aware, check_direction, check_edge_types, check_non_negative
from decisis.stores.duckdb_store import queries, vectors, walks, writes
from decisis.stores.duckdb_store.schema import migrate
from decisis.stores.vectors import check_batch, check_nearest, check_space

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["THREADS", "DuckDBStore", "path_from_url"]

Conn = duckdb.DuckDBPyConnection
T = TypeVar("T")

# The store's statements are point lookups and small walks, where DuckDB's per-pipeline
# scheduling across threads costs more than it saves (a traversal runs 3x faster on one).
THREADS = 1
_EVENTS_PAGE = 500
_MEMORY = ":memory:"


def path_from_url(url: str) -> str:
    """``duckdb:///rel.duckdb`` → ``rel.duckdb``, ``duckdb:////abs.duckdb`` → ``/abs.duckdb``,
    ``duckdb://:memory:``, ``duckdb:///:memory:`` or ``duckdb://`` → ``:memory:``."""
    scheme, sep, rest = url.partition("://")
    if scheme != "duckdb" or not sep:
        raise UnsupportedStore(f"DuckDBStore cannot open {url!r}: use duckdb:///path/to/file")
    if rest in ("", _MEMORY, "/" + _MEMORY):
        return _MEMORY
    if not rest.startswith("/") or rest == "/":
        raise UnsupportedStore(
            f"cannot open {url!r}: write duckdb:///relative/path.duckdb, "
            "duckdb:////absolute/path.duckdb or duckdb://:memory:"
        )
    return rest[1:]


def _connect(path: str) -> Conn:
    try:
        return duckdb.connect(path)
    except duckdb.Error as exc:
        raise StoreError(f"cannot open DuckDB database {path}: {exc}") from exc


class DuckDBStore:
    """A ``Store`` in one DuckDB file (or in memory); opening migrates, never wipes."""

    def __init__(self, path: str | os.PathLike[str], *, url: str | None = None) -> None:
        self.path = os.fspath(path)
        self.url = url or f"duckdb:///{self.path}"
        self._lock = threading.RLock()
        self._conn = _connect(self.path)
        try:
            self._conn.execute(f"SET threads = {THREADS}")
            migrate(self._conn, where=f"DuckDB database {self.path}")
        except duckdb.Error as exc:
            self._conn.close()
            raise StoreError(f"cannot prepare DuckDB database {self.path}: {exc}") from exc
        except BaseException:
            self._conn.close()
            raise

    @classmethod
    def from_url(cls, url: str) -> Self:
        return cls(path_from_url(url), url=url)

    def __repr__(self) -> str:
        return f"DuckDBStore({self.url!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _connection(self) -> Iterator[Conn]:
        """The connection under the lock, with DuckDB's own errors reported as ``StoreError``."""
        with self._lock:
            try:
                yield self._conn
            except DecisisError:
                raise
            except duckdb.Error as exc:
                raise StoreError(f"{self.url}: {exc}") from exc

    def _transaction(self, work: Callable[[Conn], T]) -> T:
        """Run ``work`` in one transaction: committed whole, or rolled back on any error."""
        with self._connection() as conn:
            conn.execute("BEGIN TRANSACTION")
            try:
                result = work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

    def _read(self, work: Callable[[Conn], T]) -> T:
        """Run a one-statement read (each statement sees one snapshot)."""
        with self._connection() as conn:
            return work(conn)

    # -- writes ---------------------------------------------------------------
    def append(self, graph: str, drafts: Sequence[EventDraft]) -> list[Event]:
        """Check, apply and append ``drafts`` in one transaction."""
        drafts = list(drafts)
        if not drafts:
            return []
        return self._transaction(lambda c: writes.append(c, graph, drafts))

    # -- records --------------------------------------------------------------
    def get_node(self, graph: str, node_id: str) -> Node:
        return self._read(lambda c: queries.get_node(c, graph, node_id))

    def get_edge(self, graph: str, edge_id: str) -> Edge:
        return self._read(lambda c: queries.get_edge(c, graph, edge_id))

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        return self._read(lambda c: queries.resolve_prefix(c, graph, prefix))

    def short_ids(self, graph: str, ids: Sequence[str], min_length: int = 8) -> dict[str, str]:
        return self._transaction(lambda c: queries.short_ids(c, graph, ids, min_length))

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
        check_non_negative(limit, "limit")
        checked_types = None if types is None else [check_enum(NodeType, t, "type") for t in types]
        checked_statuses = (
            None if statuses is None else [check_enum(NodeStatus, s, "status") for s in statuses]
        )
        return self._read(
            lambda c: queries.nodes(
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
            lambda c: queries.edges(
                c,
                graph,
                node=node,
                direction=direction,
                types=checked,
                as_of=as_of,
                include_tombstoned=include_tombstoned,
            )
        )

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
        """Breadth first inside DuckDB (see ``walks``), in one transaction."""
        check_direction(direction)
        check_aware(as_of, "as_of")
        check_non_negative(max_depth, "max_depth")
        types = check_edge_types(edge_types)
        return self._transaction(
            lambda c: walks.traverse(
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
        return self._transaction(
            lambda c: walks.path_between(
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
            lambda c: walks.supersession_region(c, graph, start, floor=level, as_of=as_of)
        )

    def search(
        self, graph: str, query: str, *, limit: int = 10, as_of: datetime | None = None
    ) -> list[SearchHit]:
        """BM25 over the store's own word index; words are bound, never pasted as SQL."""
        check_aware(as_of, "as_of")
        check_non_negative(limit, "limit")
        return self._read(lambda c: queries.search(c, graph, query, limit=limit, as_of=as_of))

    # -- ledger -----------------------------------------------------------------
    def events(
        self, graph: str, *, after_seq: int = 0, until: datetime | None = None
    ) -> Iterator[Event]:
        """Ledger rows in ``seq`` order, read from the table page by page as they are used."""
        check_aware(until, "until")
        return self._event_pages(graph, after_seq, until)

    def _event_pages(self, graph: str, after_seq: int, until: datetime | None) -> Iterator[Event]:
        while True:
            read = partial(
                queries.events_page,
                graph=graph,
                after_seq=after_seq,
                until=until,
                size=_EVENTS_PAGE,
            )
            page = self._read(read)
            yield from page
            if len(page) < _EVENTS_PAGE:
                return
            after_seq = page[-1].seq

    def head(self, graph: str) -> tuple[int, str]:
        return self._read(lambda c: writes.read_head(c, graph))

    def graphs(self) -> list[str]:
        def read(conn: Conn) -> list[str]:
            rows = conn.execute("SELECT graph FROM heads ORDER BY graph").fetchall()
            return [str(row[0]) for row in rows]

        return self._read(read)

    # -- vectors (derived data beside the tables; see ``vectors``) --------------
    def put_vectors(
        self,
        graph: str,
        space: str,
        items: VectorItems,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> int:
        batch = check_batch(items, digests)
        space = check_space(space)
        return self._transaction(lambda c: vectors.put(c, graph, space, batch))

    def get_vectors(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        space = check_space(space)
        return self._read(lambda c: vectors.get(c, graph, space, ids, digests))

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
        """One statement ranking by DuckDB's ``list_cosine_similarity``."""
        space = check_space(space)
        check_nearest(k, as_of)
        return self._transaction(lambda c: vectors.nearest(c, graph, space, query, k, ids, as_of))

    def delete_vectors(self, graph: str, space: str, ids: Sequence[str] | None = None) -> int:
        space = check_space(space)
        return self._transaction(lambda c: vectors.delete(c, graph, space, ids))

    def vector_spaces(self, graph: str) -> dict[str, int]:
        return self._read(lambda c: vectors.spaces(c, graph))
