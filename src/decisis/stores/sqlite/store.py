"""``SQLiteStore``: the embedded default backend, one file shared safely by many processes.

The connection runs in WAL mode (readers never block the writer), with a busy
timeout so a second process waits for the write lock instead of failing, and
``isolation_level=None`` so transactions are exactly the ``BEGIN IMMEDIATE`` /
``COMMIT`` this class issues. A lock serialises threads on the one connection.

Durability: ``synchronous=FULL`` by default, so a commit that returned survives a power
loss (with ``NORMAL``, SQLite documents that WAL may roll back the latest commits);
``sqlite:///path.db?synchronous=normal`` trades that for speed (``bench/sqlite_sync.py``).

A file that cannot be written (a read-only folder or medium, a full disk) is still opened
for reading and ``verify``: read-only (``mode=ro``), or, when even that needs a file SQLite
cannot create (the ``-shm`` of a WAL file in a read-only folder), as immutable. Such a
store refuses writes with a ``StoreError`` that says why, and refuses a file whose schema
is older than this code (it cannot be migrated there).
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
from decisis.stores.files import unwritable
from decisis.stores.merkle import SqlTree, paged
from decisis.stores.sql_front import SqlFront
from decisis.stores.sql_vector_front import Ids
from decisis.stores.sqlite import queries, vectors, walks, writes
from decisis.stores.sqlite.schema import migrate
from decisis.stores.vectors import MatrixCache, VectorBatch

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["BUSY_TIMEOUT_MS", "SYNCHRONOUS", "SQLiteStore", "path_from_url", "url_options"]

BUSY_TIMEOUT_MS = 10_000
_MEMORY = ":memory:"
T = TypeVar("T")


SYNCHRONOUS = ("full", "normal")  # what ``?synchronous=`` accepts; the first is the default


def url_options(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its query, and the query's options (``synchronous`` only)."""
    base, _, query = url.partition("?")
    options: dict[str, str] = {}
    for part in filter(None, query.split("&")):
        name, _, value = part.partition("=")
        if name != "synchronous":
            raise UnsupportedStore(
                f"cannot open {url!r}: unknown option {name!r} (allowed: synchronous)"
            )
        if value.lower() not in SYNCHRONOUS:
            raise UnsupportedStore(
                f"cannot open {url!r}: synchronous={value!r} (allowed: {', '.join(SYNCHRONOUS)})"
            )
        options[name] = value.lower()
    return base, options


def path_from_url(url: str) -> str:
    """``sqlite:///rel.db`` → ``rel.db``, ``sqlite:////abs.db`` → ``/abs.db``,
    ``sqlite://:memory:`` (or ``sqlite:///:memory:``) → ``:memory:``; a query
    (``?synchronous=normal``) is not part of the path."""
    url, _ = url_options(url)
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


def _unwritable(path: str) -> str | None:
    return None if path == _MEMORY else unwritable(path)


def _connect_read_only(path: str) -> sqlite3.Connection:
    """A read-only connection: ``mode=ro``, or ``immutable=1`` when ``mode=ro`` still needs
    a file it cannot create (a WAL file's ``-shm`` in a folder nobody may write)."""
    from urllib.parse import quote

    last: sqlite3.Error | None = None
    for flags in ("mode=ro", "mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(
                f"file:{quote(os.path.abspath(path))}?{flags}",
                uri=True,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            last = exc
            continue
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("PRAGMA temp_store = MEMORY")
            return conn
        except sqlite3.Error as exc:
            conn.close()
            last = exc
    assert last is not None
    raise last


def _check_current(conn: sqlite3.Connection, path: str, why: str) -> None:
    """A read-only file cannot be migrated: refuse one older (or newer) than this code."""
    from decisis.stores.sqlite.schema import SCHEMA_VERSION, schema_version

    found = schema_version(conn)
    if found != SCHEMA_VERSION:
        raise StoreError(
            f"SQLite database {path} is read-only ({why}) and has schema version {found}, "
            f"not {SCHEMA_VERSION}: open it once where it can be written, to migrate it"
        )


def _in_savepoint(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``work`` inside the open transaction (``write_lock``'s): kept when it returns,
    undone alone when it raises."""
    conn.execute("SAVEPOINT decisis_work")
    try:
        result = work(conn)
    except BaseException:
        conn.execute("ROLLBACK TO decisis_work")
        conn.execute("RELEASE decisis_work")
        raise
    conn.execute("RELEASE decisis_work")
    return result


class SQLiteStore(SqlFront[sqlite3.Connection]):
    """A ``Store`` in one SQLite file (or ``:memory:``); opening migrates, never wipes."""

    _queries = queries.QUERIES
    _walks = walks.WALKS
    _writes = writes
    _tree = SqlTree("?", paged(queries.QUERIES.events_page), by_reach=True)

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        url: str | None = None,
        synchronous: str = SYNCHRONOUS[0],
    ) -> None:
        self.path = os.fspath(path)
        self.url = url or f"sqlite:///{self.path}"
        if synchronous not in SYNCHRONOUS:
            raise UnsupportedStore(f"synchronous={synchronous!r} (allowed: {SYNCHRONOUS})")
        self.synchronous = synchronous
        self.read_only: str | None = None  # why the file was opened read-only, if it was
        self._lock = threading.RLock()
        self._holding = False  # inside write_lock: its BEGIN IMMEDIATE is open
        self._matrices = MatrixCache()  # spaces stacked for nearest(); see ``vectors``
        self._conn = self._connect()
        try:
            if self.read_only is None:
                migrate(self._conn, where=f"SQLite database {self.path}")
            else:
                _check_current(self._conn, self.path, self.read_only)
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
        _, options = url_options(url)
        return cls(path_from_url(url), url=url, **options)

    def _connect(self) -> sqlite3.Connection:
        try:
            return self._connect_writable()
        except StoreError as failed:
            reason = _unwritable(self.path)
            if reason is None:
                raise
            try:
                conn = _connect_read_only(self.path)
            except sqlite3.Error:
                raise failed from None
            self.read_only = reason
            return conn

    def _connect_writable(self) -> sqlite3.Connection:
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
            conn.execute(f"PRAGMA synchronous = {self.synchronous.upper()}")
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
        if self.read_only is not None and begin == "BEGIN IMMEDIATE":
            raise StoreError(
                f"{self.url} was opened read-only ({self.read_only}): reads and verify work, "
                "writes do not"
            )
        with self._connection() as conn:
            if self._holding:
                return _in_savepoint(conn, work)
            conn.execute(begin)
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

    @contextmanager
    def write_lock(self, graph: str) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` held for the block (the file's write lock: every graph's, as
        SQLite has one writer a file); the store's transactions inside become savepoints of
        it, committed when the block ends, rolled back if it raises."""
        with self._connection() as conn:
            if self._holding:
                yield
                return
            if self.read_only is not None:
                raise StoreError(f"{self.url} was opened read-only ({self.read_only})")
            conn.execute("BEGIN IMMEDIATE")
            self._holding = True
            try:
                yield
            except BaseException:
                self._holding = False
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            self._holding = False
            conn.execute("COMMIT")

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        with self._connection() as conn:
            return work(conn)

    def _snapshot(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return self._transaction("BEGIN", work)

    def _append(self, graph: str, drafts: list[EventDraft], after_seq: int | None) -> list[Event]:
        return self._transaction(
            "BEGIN IMMEDIATE", lambda c: writes.append(c, graph, drafts, after_seq, self._tree)
        )

    def _tree_write(self, graph: str, work: Callable[[sqlite3.Connection], T]) -> T:
        return self._transaction("BEGIN IMMEDIATE", work)

    # -- vectors (derived data beside the tables; see ``vectors``) --------------
    def _put_vectors(self, graph: str, space: str, batch: VectorBatch) -> int:
        return self._transaction("BEGIN IMMEDIATE", lambda c: vectors.put(c, graph, space, batch))

    def _get_vectors(
        self, graph: str, space: str, ids: Ids, digests: Mapping[str, str] | None
    ) -> dict[str, NDArray[np.float32]]:
        return self._transaction("BEGIN", lambda c: vectors.get(c, graph, space, ids, digests))

    def _vector_digests(
        self, graph: str, space: str, ids: list[str] | None
    ) -> dict[str, str | None]:
        return self._transaction("BEGIN", lambda c: vectors.digests(c, graph, space, ids))

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
