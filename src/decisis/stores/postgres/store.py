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

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

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
from decisis.stores.postgres import queries, vectors, walks, writes
from decisis.stores.postgres.schema import migrate
from decisis.stores.vectors import MatrixCache, check_batch, check_nearest, check_space

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["CONNECT_TIMEOUT_S", "PostgresStore"]

Conn = psycopg.Connection[tuple[Any, ...]]
T = TypeVar("T")

CONNECT_TIMEOUT_S = 10
_EVENTS_PAGE = 500
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


class PostgresStore:
    """A ``Store`` on a PostgreSQL server; opening migrates, never wipes."""

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        if not url.startswith(_SCHEMES):
            raise UnsupportedStore(
                f"PostgresStore cannot open {url!r}: use postgresql://user@host:port/database"
            )
        self.url = url
        self._where = f"PostgreSQL database {_redacted(url)}"
        self._matrices = MatrixCache()  # spaces stacked for brute-force nearest()
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
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                result = work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

    def _read(self, work: Callable[[Conn], T]) -> T:
        """Run one-statement reads in autocommit (each statement is its own snapshot)."""
        with self._connection() as conn:
            return work(conn)

    # -- writes ---------------------------------------------------------------
    def append(self, graph: str, drafts: Sequence[EventDraft]) -> list[Event]:
        """Check, apply and append ``drafts`` in one transaction behind the graph's lock,
        its statements pipelined (two round trips, see ``writes``)."""
        drafts = list(drafts)
        if not drafts:
            return []
        with self._connection() as conn:
            return writes.append_committed(conn, graph, drafts)

    # -- records --------------------------------------------------------------
    def get_node(self, graph: str, node_id: str) -> Node:
        return self._read(lambda c: queries.get_node(c, graph, node_id))

    def get_edge(self, graph: str, edge_id: str) -> Edge:
        return self._read(lambda c: queries.get_edge(c, graph, edge_id))

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        return self._read(lambda c: queries.resolve_prefix(c, graph, prefix))

    def short_ids(self, graph: str, ids: Sequence[str], min_length: int = 8) -> dict[str, str]:
        return self._snapshot(lambda c: queries.short_ids(c, graph, ids, min_length))

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
        """Breadth first inside PostgreSQL (see ``walks``), in one snapshot."""
        check_direction(direction)
        check_aware(as_of, "as_of")
        check_non_negative(max_depth, "max_depth")
        types = check_edge_types(edge_types)
        return self._snapshot(
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
        return self._snapshot(
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
        """PostgreSQL full-text search ranked by ``ts_rank``; words are bound, never syntax."""
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
            rows = conn.execute("SELECT graph FROM heads WHERE seq > 0 ORDER BY graph").fetchall()
            return [str(row[0]) for row in rows]

        return self._read(read)

    # -- vectors (derived data beside the tables; see ``vectors``) --------------
    @property
    def vector_index(self) -> vectors.VectorIndex:
        """``"pgvector-hnsw"`` when the database has pgvector, else ``"brute-force"``."""
        return self._vectors.index

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
        return self._write(lambda c: vectors.put(c, self._vectors, graph, space, batch))

    def get_vectors(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        space = check_space(space)
        return self._read(lambda c: vectors.get(c, self._vectors, graph, space, ids, digests))

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
        """pgvector's HNSW index when present (approximate), else numpy brute force."""
        space = check_space(space)
        check_nearest(k, as_of)
        mode, cache = self._vectors, self._matrices
        return self._snapshot(
            lambda c: vectors.nearest(c, mode, cache, graph, space, query, k, ids, as_of)
        )

    def delete_vectors(self, graph: str, space: str, ids: Sequence[str] | None = None) -> int:
        space = check_space(space)
        return self._write(lambda c: vectors.delete(c, self._vectors, graph, space, ids))

    def vector_spaces(self, graph: str) -> dict[str, int]:
        return self._read(lambda c: vectors.spaces(c, graph))
