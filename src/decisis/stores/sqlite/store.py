"""``SQLiteStore``: the embedded default backend, one file shared safely by many processes.

The connection runs in WAL mode (readers never block the writer), with a busy
timeout so a second process waits for the write lock instead of failing, and
``isolation_level=None`` so transactions are exactly the ``BEGIN IMMEDIATE`` /
``COMMIT`` this class issues. A lock serialises threads on the one connection.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Self, TypeVar

from decisis.errors import InvalidInput, StoreError, UnsupportedStore
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
from decisis.stores.sqlite import queries, vectors, walks, writes
from decisis.stores.sqlite.schema import migrate
from decisis.stores.vectors import MatrixCache, check_batch, check_nearest, check_space

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["BUSY_TIMEOUT_MS", "SQLiteStore"]

BUSY_TIMEOUT_MS = 10_000
_EVENTS_PAGE = 500
_MEMORY = ":memory:"
T = TypeVar("T")


def path_from_url(url: str) -> str:
    """``sqlite:///rel.db`` → ``rel.db``, ``sqlite:////abs.db`` → ``/abs.db``,
    ``sqlite://:memory:`` (or ``sqlite:///:memory:``) → ``:memory:``."""
    scheme, sep, rest = url.partition("://")
    if scheme != "sqlite" or not sep:
        raise UnsupportedStore(f"SQLiteStore cannot open {url!r}: use sqlite:///path/to/file.db")
    if rest == _MEMORY:
        return _MEMORY
    if not rest.startswith("/") or rest == "/":
        raise UnsupportedStore(
            f"cannot open {url!r}: write sqlite:///relative/path.db, "
            "sqlite:////absolute/path.db or sqlite://:memory:"
        )
    return rest[1:]


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch the file to WAL (a lasting property of the file, so usually already done).

    Switching needs a moment of exclusive access, and SQLite reports a race between
    processes opening a new file as "locked" without waiting, so retry until the
    busy timeout has passed.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
            return
        except sqlite3.OperationalError as exc:
            busy = (exc.sqlite_errorcode & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class SQLiteStore:
    """A ``Store`` in one SQLite file (or ``:memory:``); opening migrates, never wipes."""

    def __init__(self, path: str | os.PathLike[str], *, url: str | None = None) -> None:
        self.path = os.fspath(path)
        self.url = url or f"sqlite:///{self.path}"
        self._lock = threading.RLock()
        self._matrices = MatrixCache()  # spaces stacked for nearest(); see ``vectors``
        self._conn = self._connect()
        try:
            migrate(self._conn, where=f"SQLite database {self.path}")
            for statement in walks.TEMP_TABLES:
                self._conn.execute(statement)
        except sqlite3.Error as exc:
            self._conn.close()
            raise StoreError(f"cannot prepare SQLite database {self.path}: {exc}") from exc
        except BaseException:
            self._conn.close()
            raise

    @classmethod
    def from_url(cls, url: str) -> Self:
        return cls(path_from_url(url), url=url)

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,  # SQLite's busy timeout: wait for locks
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite database {self.path}: {exc}") from exc
        try:
            _use_wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA temp_store = MEMORY")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot open SQLite database {self.path}: {exc}") from exc
        return conn

    def __repr__(self) -> str:
        return f"SQLiteStore({self.url!r})"

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
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock, with SQLite's own errors reported as ``StoreError``."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise StoreError(f"{self.url}: {exc}") from exc

    def _transaction(self, begin: str, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one transaction: committed whole, or rolled back on any error."""
        with self._connection() as conn:
            conn.execute(begin)
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

    # -- writes ---------------------------------------------------------------
    def append(self, graph: str, drafts: Sequence[EventDraft]) -> list[Event]:
        """Check, apply and append ``drafts`` in one ``BEGIN IMMEDIATE`` transaction."""
        drafts = list(drafts)
        if not drafts:
            return []
        return self._transaction("BEGIN IMMEDIATE", lambda c: writes.append(c, graph, drafts))

    # -- records --------------------------------------------------------------
    def get_node(self, graph: str, node_id: str) -> Node:
        with self._connection() as conn:
            return queries.get_node(conn, graph, node_id)

    def get_edge(self, graph: str, edge_id: str) -> Edge:
        with self._connection() as conn:
            return queries.get_edge(conn, graph, edge_id)

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        with self._connection() as conn:
            return queries.resolve_prefix(conn, graph, prefix)

    def short_ids(self, graph: str, ids: Sequence[str], min_length: int = 8) -> dict[str, str]:
        with self._connection() as conn:
            return queries.short_ids(conn, graph, ids, min_length)

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
        with self._connection() as conn:
            return queries.nodes(
                conn,
                graph,
                types=None if types is None else [check_enum(NodeType, t, "type") for t in types],
                statuses=(
                    None
                    if statuses is None
                    else [check_enum(NodeStatus, s, "status") for s in statuses]
                ),
                newest_first=newest_first,
                limit=limit,
                as_of=as_of,
                include_tombstoned=include_tombstoned,
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
        with self._connection() as conn:
            return queries.edges(
                conn,
                graph,
                node=node,
                direction=direction,
                types=check_edge_types(types),
                as_of=as_of,
                include_tombstoned=include_tombstoned,
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
        """Breadth first inside SQLite (see ``walks``), in one read transaction."""
        check_direction(direction)
        check_aware(as_of, "as_of")
        check_non_negative(max_depth, "max_depth")
        types = check_edge_types(edge_types)
        return self._transaction(
            "BEGIN",
            lambda c: walks.traverse(
                c,
                graph,
                start,
                direction=direction,
                edge_types=types,
                max_depth=max_depth,
                as_of=as_of,
            ),
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
            "BEGIN",
            lambda c: walks.path_between(
                c, graph, source, target, edge_types=types, max_depth=max_depth, as_of=as_of
            ),
        )

    def supersession_region(
        self, graph: str, start: str, *, floor: float = 0.0, as_of: datetime | None = None
    ) -> list[Edge]:
        """Trusted supersession forward from ``start`` in one recursive query (see ``walks``)."""
        check_aware(as_of, "as_of")
        level = check_confidence(floor, "floor") or 0.0
        with self._connection() as conn:
            return walks.supersession_region(conn, graph, start, floor=level, as_of=as_of)

    def search(
        self, graph: str, query: str, *, limit: int = 10, as_of: datetime | None = None
    ) -> list[SearchHit]:
        """FTS5 with bm25 ranking; free text is quoted word by word, never pasted as syntax."""
        check_aware(as_of, "as_of")
        check_non_negative(limit, "limit")
        with self._connection() as conn:
            return queries.search(conn, graph, query, limit=limit, as_of=as_of)

    # -- ledger -----------------------------------------------------------------
    def events(
        self, graph: str, *, after_seq: int = 0, until: datetime | None = None
    ) -> Iterator[Event]:
        """Ledger rows in ``seq`` order, read from the table page by page as they are used."""
        check_aware(until, "until")
        return self._event_pages(graph, after_seq, until)

    def _event_pages(self, graph: str, after_seq: int, until: datetime | None) -> Iterator[Event]:
        while True:
            with self._connection() as conn:
                page = queries.events_page(conn, graph, after_seq, until, _EVENTS_PAGE)
            yield from page
            if len(page) < _EVENTS_PAGE:
                return
            after_seq = page[-1].seq

    def head(self, graph: str) -> tuple[int, str]:
        with self._connection() as conn:
            return writes.read_head(conn, graph)

    def graphs(self) -> list[str]:
        with self._connection() as conn:
            rows = conn.execute("SELECT graph FROM heads ORDER BY graph").fetchall()
            return [str(row[0]) for row in rows]

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
        return self._transaction("BEGIN IMMEDIATE", lambda c: vectors.put(c, graph, space, batch))

    def get_vectors(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        space = check_space(space)
        return self._transaction("BEGIN", lambda c: vectors.get(c, graph, space, ids, digests))

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
        """Brute force with numpy over the space's blobs, kept stacked between queries."""
        space = check_space(space)
        check_nearest(k, as_of)
        return self._transaction(
            "BEGIN",
            lambda c: vectors.nearest(c, self._matrices, graph, space, query, k, ids, as_of),
        )

    def delete_vectors(self, graph: str, space: str, ids: Sequence[str] | None = None) -> int:
        space = check_space(space)
        return self._transaction("BEGIN IMMEDIATE", lambda c: vectors.delete(c, graph, space, ids))

    def vector_spaces(self, graph: str) -> dict[str, int]:
        with self._connection() as conn:
            return vectors.spaces(conn, graph)
