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
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Self, TypeVar

from decisis.errors import StoreError, UnsupportedStore
from decisis.model import Event, EventDraft
from decisis.stores.base import VectorHit, VectorLike
from decisis.stores.sql_front import SqlFront
from decisis.stores.sql_vector_front import Ids
from decisis.stores.sqlite import queries, vectors, walks, writes
from decisis.stores.sqlite.schema import migrate
from decisis.stores.vectors import MatrixCache, VectorBatch

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["BUSY_TIMEOUT_MS", "SQLiteStore"]

BUSY_TIMEOUT_MS = 10_000
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


class SQLiteStore(SqlFront[sqlite3.Connection]):
    """A ``Store`` in one SQLite file (or ``:memory:``); opening migrates, never wipes."""

    _queries = queries
    _walks = walks
    _writes = writes

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

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        with self._connection() as conn:
            return work(conn)

    def _snapshot(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return self._transaction("BEGIN", work)

    def _append(self, graph: str, drafts: list[EventDraft], after_seq: int | None) -> list[Event]:
        return self._transaction(
            "BEGIN IMMEDIATE", lambda c: writes.append(c, graph, drafts, after_seq)
        )

    # -- vectors (derived data beside the tables; see ``vectors``) --------------
    def _put_vectors(self, graph: str, space: str, batch: VectorBatch) -> int:
        return self._transaction("BEGIN IMMEDIATE", lambda c: vectors.put(c, graph, space, batch))

    def _get_vectors(
        self, graph: str, space: str, ids: Ids, digests: Mapping[str, str] | None
    ) -> dict[str, NDArray[np.float32]]:
        return self._transaction("BEGIN", lambda c: vectors.get(c, graph, space, ids, digests))

    def _nearest(
        self, graph: str, space: str, query: VectorLike, k: int, ids: Ids, as_of: datetime | None
    ) -> list[VectorHit]:
        """Brute force with numpy over the space's blobs, kept stacked between queries."""
        return self._transaction(
            "BEGIN",
            lambda c: vectors.nearest(c, self._matrices, graph, space, query, k, ids, as_of),
        )

    def _delete_vectors(self, graph: str, space: str, ids: Ids) -> int:
        return self._transaction("BEGIN IMMEDIATE", lambda c: vectors.delete(c, graph, space, ids))

    def vector_spaces(self, graph: str) -> dict[str, int]:
        with self._connection() as conn:
            return vectors.spaces(conn, graph)
