"""``DuckDBStore``: the embedded analytical backend, one DuckDB file (or memory).

One connection per store, serialised by a lock (a DuckDB connection is not safe
to share between threads at once). Every write is one explicit transaction:
committed whole, or rolled back on any error. DuckDB lets one process at a time
open a file for writing; a second process gets a clear ``StoreError``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Self, TypeVar

import duckdb

from decisis.errors import DecisisError, StoreError, UnsupportedStore
from decisis.model import Event, EventDraft
from decisis.stores.base import VectorHit, VectorLike
from decisis.stores.duckdb_store import queries, vectors, walks, writes
from decisis.stores.duckdb_store.schema import SCHEMA_VERSION, migrate, schema_version
from decisis.stores.files import unwritable
from decisis.stores.merkle import SqlTree, paged
from decisis.stores.sql_front import SqlFront, in_transaction
from decisis.stores.sql_vector_front import Ids
from decisis.stores.vectors import VectorBatch

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["SETTINGS", "THREADS", "DuckDBStore", "path_from_url"]

Conn = duckdb.DuckDBPyConnection
T = TypeVar("T")

# The store's statements are point lookups and small walks, where DuckDB's per-pipeline
# scheduling across threads costs more than it saves (a traversal runs 3x faster on one).
THREADS = 1
# A statement over ~2 s (a large ``put_vectors``) would otherwise draw a progress bar on
# the terminal of whatever program holds the store; the option is per connection.
SETTINGS = (f"SET threads = {THREADS}", "SET enable_progress_bar = false")
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


def _connect(path: str) -> tuple[Conn, str | None]:
    """A connection, and why it is read-only when the file cannot be written (a read-only
    folder or medium, a full disk): then reads and ``verify`` still work."""
    try:
        return duckdb.connect(path), None
    except duckdb.Error as exc:
        reason = unwritable(path)
        if reason is not None:
            try:
                return duckdb.connect(path, read_only=True), reason
            except duckdb.Error:
                pass
        raise StoreError(f"cannot open DuckDB database {path}: {exc}") from exc


class DuckDBStore(SqlFront[Conn]):
    """A ``Store`` in one DuckDB file (or in memory); opening migrates, never wipes."""

    _queries = queries.QUERIES
    _walks = walks.WALKS
    _writes = writes
    _tree = SqlTree("?", paged(queries.QUERIES.events_page))

    def __init__(self, path: str | os.PathLike[str], *, url: str | None = None) -> None:
        self.path = os.fspath(path)
        self.url = url or f"duckdb:///{self.path}"
        self._lock = threading.RLock()
        self._conn, self.read_only = _connect(self.path)
        try:
            for setting in SETTINGS:
                self._conn.execute(setting)
            if self.read_only is None:
                migrate(self._conn, where=f"DuckDB database {self.path}")
            elif schema_version(self._conn) != SCHEMA_VERSION:
                raise StoreError(
                    f"DuckDB database {self.path} is read-only ({self.read_only}) and has "
                    f"schema version {schema_version(self._conn)}, not {SCHEMA_VERSION}: open it "
                    "once where it can be written, to migrate it"
                )
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
            return in_transaction(conn, "BEGIN TRANSACTION", work)

    @contextmanager
    def write_lock(self, graph: str) -> Iterator[None]:
        """The store's lock, held for the block: DuckDB lets one process write a file, and
        in it every read and write of the store waits for this lock (an append inside
        commits as it is made)."""
        with self._lock:
            yield

    def _read(self, work: Callable[[Conn], T]) -> T:
        """Run a one-statement read (each statement sees one snapshot)."""
        with self._connection() as conn:
            return work(conn)

    def _snapshot(self, work: Callable[[Conn], T]) -> T:
        return self._transaction(work)

    def _writable(self) -> None:
        if self.read_only is not None:
            raise StoreError(
                f"{self.url} was opened read-only ({self.read_only}): reads and verify work, "
                "writes do not"
            )

    def _append(self, graph: str, drafts: list[EventDraft], after_seq: int | None) -> list[Event]:
        self._writable()

        return self._transaction(lambda c: writes.append(c, graph, drafts, after_seq, self._tree))

    def _tree_write(self, graph: str, work: Callable[[Conn], T]) -> T:
        self._writable()
        return self._transaction(work)

    # -- vectors (derived data beside the tables; see ``vectors``) --------------
    def _put_vectors(self, graph: str, space: str, batch: VectorBatch) -> int:
        self._writable()
        return self._transaction(lambda c: vectors.put(c, graph, space, batch))

    def _get_vectors(
        self, graph: str, space: str, ids: Ids, digests: Mapping[str, str] | None
    ) -> dict[str, NDArray[np.float32]]:
        return self._read(lambda c: vectors.get(c, graph, space, ids, digests))

    def _vector_digests(
        self, graph: str, space: str, ids: list[str] | None
    ) -> dict[str, str | None]:
        return self._read(lambda c: vectors.digests(c, graph, space, ids))

    def _nearest(
        self, graph: str, space: str, query: VectorLike, k: int, ids: Ids, as_of: datetime | None
    ) -> list[VectorHit]:
        """One statement ranking by DuckDB's ``list_cosine_similarity``."""
        return self._transaction(lambda c: vectors.nearest(c, graph, space, query, k, ids, as_of))

    def _delete_vectors(self, graph: str, space: str, ids: Ids) -> int:
        self._writable()
        return self._transaction(lambda c: vectors.delete(c, graph, space, ids))

    def vector_spaces(self, graph: str) -> dict[str, int]:
        return self._read(lambda c: vectors.spaces(c, graph))
