"""``SqlReads``: the reads every SQL backend runs the same way, written once over a dialect.

Records by id, prefixes, the filtered node and edge lists and the ledger are one statement
each, with bound parameters; filters are appended as fixed SQL fragments and lists of
values travel as one parameter (``SqlDialect.member``), so the statement text never
depends on user data. A backend's ``queries`` module subclasses ``SqlReads`` for what is
its own (full-text search, ``history`` on its ledger indexes, the storage check) and hands
``SqlFront`` one instance.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType, Event, Node, NodeStatus, NodeType
from decisis.stores import prefixes
from decisis.stores.base import Direction, SearchHit, StorageCheck
from decisis.stores.dbapi_writes import Connection
from decisis.stores.sql_dialect import SqlDialect, live, search_terms
from decisis.stores.sqlite.rows import EDGE_FIELDS, NODE_FIELDS, columns

__all__ = ["EDGE_COLUMNS", "NODE_COLUMNS", "SqlReads"]

C = TypeVar("C", bound=Connection)

NODE_COLUMNS = columns("n", NODE_FIELDS)
EDGE_COLUMNS = columns("e", EDGE_FIELDS)
_DIRECTIONS: tuple[Direction, ...] = ("out", "in")
_ENDPOINT: dict[Direction | None, str] = {
    "out": "AND e.source = :node",
    "in": "AND e.target = :node",
    None: "AND (e.source = :node OR e.target = :node)",
}

# The ids from ``lo`` up to ``hi`` in nodes and in edges: a range scan on the id indexes.
_RANGE = """
        SELECT id FROM (SELECT id FROM nodes WHERE graph = :graph AND id >= :lo AND id < :hi
                        ORDER BY id LIMIT :limit) AS n
        UNION ALL
        SELECT id FROM (SELECT id FROM edges WHERE graph = :graph AND id >= :lo AND id < :hi
                        ORDER BY id LIMIT :limit) AS e
        """
# An id's four neighbours in sort order, for ``prefixes.probed_short_ids``.
_NEIGHBOURS = """
    SELECT (SELECT MAX(id) FROM nodes WHERE graph = :graph AND id < :id),
           (SELECT MIN(id) FROM nodes WHERE graph = :graph AND id > :id),
           (SELECT MAX(id) FROM edges WHERE graph = :graph AND id < :id),
           (SELECT MIN(id) FROM edges WHERE graph = :graph AND id > :id)
"""


class SqlReads(Generic[C]):
    """The ``sql_front.Queries`` a backend shares with the others, in its ``dialect``."""

    def __init__(self, dialect: SqlDialect) -> None:
        self.dialect = d = dialect
        p = d.positional
        self._get_node = f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = {p} AND n.id = {p}"
        self._get_edge = f"SELECT {EDGE_COLUMNS} FROM edges e WHERE e.graph = {p} AND e.id = {p}"
        self._range = d.sql(_RANGE)
        self._neighbours = d.sql(_NEIGHBOURS)
        self._endpoint = {way: d.sql(sql) for way, sql in _ENDPOINT.items()}

    def get_node(self, conn: C, graph: str, node_id: str) -> Node:
        row = conn.execute(self._get_node, (graph, node_id)).fetchone()
        if row is None:
            raise NotFound("node", node_id, graph)
        return self.dialect.node_from_row(row)

    def get_edge(self, conn: C, graph: str, edge_id: str) -> Edge:
        row = conn.execute(self._get_edge, (graph, edge_id)).fetchone()
        if row is None:
            raise NotFound("edge", edge_id, graph)
        return self.dialect.edge_from_row(row)

    def resolve_prefix(self, conn: C, graph: str, prefix: str) -> str:
        """The one node or edge id starting with ``prefix`` (``prefixes.resolve_prefix``)."""
        return prefixes.resolve_prefix(conn, self._range, graph, prefix)

    def short_ids(self, conn: C, graph: str, ids: Sequence[str], min_length: int) -> dict[str, str]:
        """Shortest unique prefixes, each decided by one probe of the id's four neighbours."""
        return prefixes.probed_short_ids(conn, self._neighbours, graph, ids, min_length)

    def nodes(
        self,
        conn: C,
        graph: str,
        *,
        types: Sequence[NodeType] | None,
        statuses: Sequence[NodeStatus] | None,
        newest_first: bool,
        limit: int | None,
        as_of: datetime | None,
        include_tombstoned: bool,
    ) -> list[Node]:
        d = self.dialect
        sql = [f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = {d.param('graph')}"]
        params: dict[str, Any] = {"graph": graph}
        if types is not None:
            sql.append("AND " + d.member("n.type", "types"))
            params["types"] = d.list_value(types)
        if statuses is not None:
            sql.append("AND " + d.member("n.status", "statuses"))
            params["statuses"] = d.list_value(statuses)
        if not include_tombstoned:
            sql.append("AND " + live("n"))
        if as_of is not None:
            sql.append("AND " + d.valid_at("n"))
            params["as_of"] = d.time_value(as_of)
        sql.append("ORDER BY n.id DESC" if newest_first else "ORDER BY n.id")
        if limit is not None:
            sql.append(f"LIMIT {d.param('limit')}")
            params["limit"] = limit
        rows = conn.execute(" ".join(sql), params).fetchall()
        return [d.node_from_row(row) for row in rows]

    def edges(
        self,
        conn: C,
        graph: str,
        *,
        node: str | None,
        direction: Direction | None,
        types: Sequence[EdgeType] | None,
        as_of: datetime | None,
        include_tombstoned: bool,
    ) -> list[Edge]:
        """An edge shows when it and both its endpoints show (not tombstoned, valid at as_of)."""
        d = self.dialect
        if node is not None and direction is None and d.one_direction_per_query:
            both = [
                edge
                for way in _DIRECTIONS
                for edge in self.edges(
                    conn,
                    graph,
                    node=node,
                    direction=way,
                    types=types,
                    as_of=as_of,
                    include_tombstoned=include_tombstoned,
                )
            ]
            return sorted(both, key=lambda edge: edge.id)
        sql = [f"SELECT {EDGE_COLUMNS} FROM edges e"]
        if not d.joins_only_to_filter or not include_tombstoned or as_of is not None:
            sql.append("JOIN nodes s ON s.graph = e.graph AND s.id = e.source")
            sql.append("JOIN nodes t ON t.graph = e.graph AND t.id = e.target")
        sql.append(f"WHERE e.graph = {d.param('graph')}")
        params: dict[str, Any] = {"graph": graph}
        if node is not None:
            sql.append(self._endpoint[direction])
            params["node"] = node
        if types is not None:
            sql.append("AND " + d.member("e.type", "types"))
            params["types"] = d.list_value(types)
        if not include_tombstoned:
            sql.append(f"AND {live('e')} AND {live('s')} AND {live('t')}")
        if as_of is not None:
            sql.append(f"AND {d.valid_at('e')} AND {d.valid_at('s')} AND {d.valid_at('t')}")
            params["as_of"] = d.time_value(as_of)
        sql.append(f"ORDER BY {d.endpoint_order}" if node is not None else "ORDER BY e.id")
        rows = conn.execute(" ".join(sql), params).fetchall()
        return [d.edge_from_row(row) for row in rows]

    def events_page(
        self, conn: C, graph: str, after_seq: int, until: datetime | None, size: int
    ) -> list[Event]:
        """Up to ``size`` ledger entries after ``after_seq`` in seq order, read from the table."""
        d = self.dialect
        sql = d.sql(f"SELECT {d.event_columns} FROM ledger WHERE graph = :graph AND seq > :after")
        params: dict[str, Any] = {"graph": graph, "after": after_seq, "size": size}
        if until is not None:
            sql += f" AND {d.at} <= {d.param('until')}"
            params["until"] = d.time_value(until)
        rows = conn.execute(sql + f" ORDER BY seq LIMIT {d.param('size')}", params).fetchall()
        return [d.event_from_row(row) for row in rows]

    def until(self, until: datetime | None, params: dict[str, Any]) -> str:
        """The ``AND at <= :until`` filter of a ledger read (empty without ``until``), its
        value put in ``params``."""
        if until is None:
            return ""
        params["until"] = self.dialect.time_value(until)
        return f"AND {self.dialect.at} <= {self.dialect.param('until')}"

    def graphs(self, conn: C) -> list[str]:
        """The graphs with a ledger, by name."""
        rows = conn.execute("SELECT graph FROM heads ORDER BY graph").fetchall()
        return [str(row[0]) for row in rows]

    def search(
        self, conn: C, graph: str, text: str, *, limit: int, as_of: datetime | None
    ) -> list[SearchHit]:
        """The best ``limit`` live nodes (valid at ``as_of``) matching any word of ``text``,
        by the backend's own ranking (``ranked``); none for text without words."""
        terms = search_terms(text)
        if not terms or limit <= 0:
            return []
        params: dict[str, Any] = {"graph": graph, "limit": limit}
        timed = ""
        if as_of is not None:
            timed = "AND " + self.dialect.valid_at("n")
            params["as_of"] = self.dialect.time_value(as_of)
        return self.ranked(conn, terms, timed, params)

    @abstractmethod
    def ranked(
        self, conn: C, terms: list[str], timed: str, params: dict[str, Any]
    ) -> list[SearchHit]:
        """``search`` in the backend's own full-text ranking: ``timed`` is the ``as_of``
        filter on ``n`` (or empty), ``params`` holds ``graph``, ``limit`` and ``as_of``."""

    @abstractmethod
    def history(self, conn: C, graph: str, record_id: str, until: datetime | None) -> list[Event]:
        """The entries that may be about ``record_id`` (``SqlFront.history`` narrows them)."""

    @abstractmethod
    def check_storage(self, conn: C, graph: str, quick: bool) -> StorageCheck:
        """What the backend checks of its own storage."""
