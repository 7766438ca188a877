"""``PostgresStore``: the team backend, many writers on one server.

Connections come from a ``psycopg_pool.ConnectionPool`` in autocommit mode, so
every transaction is one this class opens: appends in READ COMMITTED behind the
graph's head row lock (see ``writes``), multi-statement reads (traversals) in
REPEATABLE READ READ ONLY so all of their statements see one snapshot. Each
pooled session runs in UTC.

The URL is handed to libpq as it is, so its query options work
(``postgresql://user@host/db?options=-csearch_path%3Ddecisis`` keeps decisis in
its own schema).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from decisis.errors import DecisisError, StoreError, UnsupportedStore
from decisis.model import Event, EventDraft
from decisis.stores.base import VectorHit, VectorLike
from decisis.stores.derived import SqlDerived
from decisis.stores.postgres import queries, vectors, walks, writes
from decisis.stores.postgres.schema import migrate
from decisis.stores.sql_front import SqlFront, in_transaction
from decisis.stores.sql_vector_front import Ids
from decisis.stores.vectors import MatrixCache, VectorBatch

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["CONNECT_TIMEOUT_S", "PostgresStore"]

Conn = psycopg.Connection[tuple[Any, ...]]
T = TypeVar("T")

CONNECT_TIMEOUT_S = 10
_SCHEMES = ("postgresql://", "postgres://")


def _configure(conn: Conn) -> None:
    """Prepare each new pooled session: UTC times."""
    conn.execute("SET TIME ZONE 'UTC'")


def _redacted(url: str) -> str:
    """The URL without a password, for messages."""
    scheme, _, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"


class PostgresStore(SqlFront[Conn]):
    """A ``Store`` on a PostgreSQL server; opening migrates, never wipes."""

    _queries = queries.QUERIES
    _walks = walks.WALKS
    _writes = writes
    _tree = writes.TREE
    _derived = SqlDerived("%s")

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        if not url.startswith(_SCHEMES):
            raise UnsupportedStore(
                f"PostgresStore cannot open {url!r}: use postgresql://user@host:port/database"
            )
        self.url = url
        self._where = f"PostgreSQL database {_redacted(url)}"
        self._matrices = MatrixCache()  # spaces stacked for brute-force nearest()
        self._held = threading.local()  # this thread's write_lock: its connection and graph
        self._prepare()
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, max_connections),
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S},
            configure=_configure,
            open=False,
            name="decisis",
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error as exc:
            self._pool.close()
            raise StoreError(f"cannot open {self._where}: {exc}") from exc

    def _prepare(self) -> None:
        """Connect once to report an unreachable server plainly, and migrate the schema."""
        try:
            with psycopg.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
            ) as conn:
                migrate(conn, where=self._where)
                self._vectors = vectors.prepare(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open {self._where}: {exc}") from exc

    @classmethod
    def from_url(cls, url: str) -> Self:
        return cls(url)

    def __repr__(self) -> str:
        return f"PostgresStore({_redacted(self.url)!r})"

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def _connection(self) -> Iterator[Conn]:
        """A pooled connection, with the driver's errors reported as ``StoreError``."""
        try:
            with self._pool.connection() as conn:
                yield conn
        except DecisisError:
            raise
        except psycopg.Error as exc:
            raise StoreError(f"{self._where}: {exc}") from exc

    def _write(self, work: Callable[[Conn], T]) -> T:
        """Run ``work`` in one READ COMMITTED transaction: committed whole, or rolled back."""
        with self._connection() as conn, conn.transaction():
            return work(conn)

    def _snapshot(self, work: Callable[[Conn], T]) -> T:
        """Run ``work`` in one REPEATABLE READ READ ONLY transaction (one snapshot)."""
        with self._connection() as conn:
            return in_transaction(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", work)

    def _read(self, work: Callable[[Conn], T]) -> T:
        """Run one-statement reads in autocommit (each statement is its own snapshot)."""
        with self._connection() as conn:
            return work(conn)

    def _append(self, graph: str, drafts: list[EventDraft], after_seq: int | None) -> list[Event]:
        """Behind the graph's lock, the statements pipelined (two round trips, see ``writes``);
        inside this thread's ``write_lock`` of the graph, in a savepoint on its connection."""

        held = getattr(self._held, "conn", None)
        if held is not None and self._held.graph == graph:
            try:
                with held.transaction():
                    return writes.append(held, graph, drafts, after_seq)
            except psycopg.Error as exc:
                raise StoreError(f"{self._where}: {exc}") from exc
        with self._connection() as conn:
            return writes.append_committed(conn, graph, drafts, after_seq)

    def _tree_write(self, graph: str, work: Callable[[Conn], T]) -> T:
        """In the graph's write lock: this thread's held transaction, or a new one that
        locks the head row first (appends and other catch-ups wait)."""
        held = getattr(self._held, "conn", None)
        if held is not None and self._held.graph == graph:
            try:
                with held.transaction():
                    return work(held)
            except psycopg.Error as exc:
                raise StoreError(f"{self._where}: {exc}") from exc

        def locked(conn: Conn) -> T:
            writes.lock_head(conn, graph)
            return work(conn)

        return self._write(locked)

    @contextmanager
    def write_lock(self, graph: str) -> Iterator[None]:
        """The graph's head row locked on one pooled connection, in a transaction held for
        the block: every append to the graph queues on that row (``writes``). This thread's
        appends to the graph inside run on that connection and commit when the block ends;
        its reads run on other pooled connections and see what is committed, which no
        append can change meanwhile."""
        if getattr(self._held, "graph", None) == graph:
            yield
            return
        with self._connection() as conn, conn.transaction():
            writes.lock_head(conn, graph)
            before = getattr(self._held, "conn", None), getattr(self._held, "graph", None)
            self._held.conn, self._held.graph = conn, graph
            try:
                yield
            finally:
                self._held.conn, self._held.graph = before

    # -- vectors (derived data beside the tables; see ``vectors``) --------------
    @property
    def vector_index(self) -> vectors.VectorIndex:
        """``"pgvector-hnsw"`` when the database has pgvector, else ``"brute-force"``."""
        return self._vectors.index

    def _put_vectors(self, graph: str, space: str, batch: VectorBatch) -> int:
        return self._write(lambda c: vectors.put(c, self._vectors, graph, space, batch))

    def _get_vectors(
        self, graph: str, space: str, ids: Ids, digests: Mapping[str, str] | None
    ) -> dict[str, NDArray[np.float32]]:
        return self._read(lambda c: vectors.get(c, self._vectors, graph, space, ids, digests))

    def _vector_digests(
        self, graph: str, space: str, ids: list[str] | None
    ) -> dict[str, str | None]:
        return self._read(lambda c: vectors.digests(c, graph, space, ids))

    def _nearest(
        self, graph: str, space: str, query: VectorLike, k: int, ids: Ids, as_of: datetime | None
    ) -> list[VectorHit]:
        """pgvector's HNSW index when present (approximate), else numpy brute force."""
        mode, cache = self._vectors, self._matrices
        return self._snapshot(
            lambda c: vectors.nearest(c, mode, cache, graph, space, query, k, ids, as_of)
        )

    def _delete_vectors(self, graph: str, space: str, ids: Ids) -> int:
        return self._write(lambda c: vectors.delete(c, self._vectors, graph, space, ids))

    def vector_spaces(self, graph: str) -> dict[str, int]:
        return self._read(lambda c: vectors.spaces(c, graph))
