"""Reads: records by id, prefixes, filtered lists, full-text search and the ledger.

Every query is one statement with bound parameters; filters are appended as
fixed SQL fragments, and lists of values travel as one ``text[]`` parameter, so
the statement text never depends on user data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType, Event, Node, NodeStatus, NodeType
from decisis.stores import prefixes
from decisis.stores.base import Direction, SearchHit, StorageCheck
from decisis.stores.postgres.rows import (
    EDGE_COLUMNS,
    EVENT_COLUMNS,
    NODE_COLUMNS,
    edge_from_row,
    event_from_row,
    node_from_row,
    valid_at,
)

__all__ = [
    "MAX_SEARCH_TERMS",
    "check_storage",
    "edges",
    "events_page",
    "get_edge",
    "get_node",
    "graphs",
    "history",
    "nodes",
    "resolve_prefix",
    "search",
    "search_terms",
    "short_ids",
]

# The payload's ``new`` as text, for ``history``. ``json`` refuses to turn ``\u0000`` (which
# a metadata string may hold) into text, anywhere in the document, so those escapes become
# ``\u0001`` first: still valid JSON, and only ever changing strings no record id equals
# (``is_about`` checks what comes back). ``::json`` rather than ``::jsonb``, which refuses
# ``\u0000`` on input.
PAYLOAD_NEW = r"(replace(payload, E'\\u0000', E'\\u0001')::json ->> 'new')"

Conn = psycopg.Connection[tuple[Any, ...]]

MAX_SEARCH_TERMS = 32
_TERM = re.compile(r"[^\W_]+")


def get_node(conn: Conn, graph: str, node_id: str) -> Node:
    row = conn.execute(
        f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = %s AND n.id = %s", (graph, node_id)
    ).fetchone()
    if row is None:
        raise NotFound("node", node_id, graph)
    return node_from_row(row)


def get_edge(conn: Conn, graph: str, edge_id: str) -> Edge:
    row = conn.execute(
        f"SELECT {EDGE_COLUMNS} FROM edges e WHERE e.graph = %s AND e.id = %s", (graph, edge_id)
    ).fetchone()
    if row is None:
        raise NotFound("edge", edge_id, graph)
    return edge_from_row(row)


# The ids from ``lo`` up to ``hi`` in nodes and in edges: a range scan on the id indexes.
_RANGE = """
        (SELECT id FROM nodes WHERE graph = %(graph)s AND id >= %(lo)s AND id < %(hi)s
         ORDER BY id LIMIT %(limit)s)
        UNION ALL
        (SELECT id FROM edges WHERE graph = %(graph)s AND id >= %(lo)s AND id < %(hi)s
         ORDER BY id LIMIT %(limit)s)
        """


def resolve_prefix(conn: Conn, graph: str, prefix: str) -> str:
    """The one node or edge id starting with ``prefix`` (``prefixes.resolve_prefix``)."""
    return prefixes.resolve_prefix(conn, _RANGE, graph, prefix)


_NEIGHBOURS = """
    SELECT (SELECT MAX(id) FROM nodes WHERE graph = %(graph)s AND id < %(id)s),
           (SELECT MIN(id) FROM nodes WHERE graph = %(graph)s AND id > %(id)s),
           (SELECT MAX(id) FROM edges WHERE graph = %(graph)s AND id < %(id)s),
           (SELECT MIN(id) FROM edges WHERE graph = %(graph)s AND id > %(id)s)
"""


def short_ids(conn: Conn, graph: str, ids: Sequence[str], min_length: int) -> dict[str, str]:
    """Shortest unique prefixes, each decided by one probe of the id's four neighbours."""
    return prefixes.probed_short_ids(conn, _NEIGHBOURS, graph, ids, min_length)


def _values(values: Sequence[Any]) -> list[str]:
    return [str(getattr(v, "value", v)) for v in values]


def nodes(
    conn: Conn,
    graph: str,
    *,
    types: Sequence[NodeType] | None,
    statuses: Sequence[NodeStatus] | None,
    newest_first: bool,
    limit: int | None,
    as_of: datetime | None,
    include_tombstoned: bool,
) -> list[Node]:
    sql = [f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = %(graph)s"]
    params: dict[str, Any] = {"graph": graph}
    if types is not None:
        sql.append("AND n.type = ANY(%(types)s::text[])")
        params["types"] = _values(types)
    if statuses is not None:
        sql.append("AND n.status = ANY(%(statuses)s::text[])")
        params["statuses"] = _values(statuses)
    if not include_tombstoned:
        sql.append("AND n.tombstoned_at IS NULL")
    if as_of is not None:
        sql.append("AND " + valid_at("n"))
        params["as_of"] = as_of
    sql.append("ORDER BY n.id DESC" if newest_first else "ORDER BY n.id")
    if limit is not None:
        sql.append("LIMIT %(limit)s")
        params["limit"] = limit
    return [node_from_row(row) for row in conn.execute(" ".join(sql), params).fetchall()]


_ENDPOINT = {
    "out": "AND e.source = %(node)s",
    "in": "AND e.target = %(node)s",
    None: "AND (e.source = %(node)s OR e.target = %(node)s)",
}


def edges(
    conn: Conn,
    graph: str,
    *,
    node: str | None,
    direction: Direction | None,
    types: Sequence[EdgeType] | None,
    as_of: datetime | None,
    include_tombstoned: bool,
) -> list[Edge]:
    """An edge shows when it and both its endpoints show (not tombstoned, valid at as_of)."""
    sql = [
        f"SELECT {EDGE_COLUMNS} FROM edges e",
        "JOIN nodes s ON s.graph = e.graph AND s.id = e.source",
        "JOIN nodes t ON t.graph = e.graph AND t.id = e.target",
        "WHERE e.graph = %(graph)s",
    ]
    params: dict[str, Any] = {"graph": graph}
    if node is not None:
        sql.append(_ENDPOINT[direction])
        params["node"] = node
    if types is not None:
        sql.append("AND e.type = ANY(%(types)s::text[])")
        params["types"] = _values(types)
    if not include_tombstoned:
        sql.append(
            "AND e.tombstoned_at IS NULL AND s.tombstoned_at IS NULL AND t.tombstoned_at IS NULL"
        )
    if as_of is not None:
        sql.append(f"AND {valid_at('e')} AND {valid_at('s')} AND {valid_at('t')}")
        params["as_of"] = as_of
    sql.append("ORDER BY e.id")
    return [edge_from_row(row) for row in conn.execute(" ".join(sql), params).fetchall()]


def search_terms(text: str) -> list[str]:
    """The distinct words of ``text`` (runs of letters and digits, lower-cased), at most
    ``MAX_SEARCH_TERMS``: the same words the other backends search for."""
    terms: list[str] = []
    for term in _TERM.findall(text.lower()):
        if term not in terms:
            terms.append(term)
    return terms[:MAX_SEARCH_TERMS]


# Each word becomes its own tsquery through plainto_tsquery (so no text is ever read as
# query syntax); PostgreSQL's own rendering of those queries is joined with "|" (OR).
_SEARCH = """
    WITH q AS (
        SELECT array_to_string(ARRAY(
            SELECT '(' || w.query::text || ')'
            FROM unnest(%(terms)s::text[]) AS t, plainto_tsquery('simple', t) AS w(query)
            WHERE numnode(w.query) > 0
        ), ' | ')::tsquery AS query
    )
    SELECT {columns}, ts_rank('{{0, 0, 0.5, 1}}', n.search, q.query) AS score
    FROM nodes n, q
    WHERE n.graph = %(graph)s AND n.search @@ q.query AND n.tombstoned_at IS NULL {timed}
    ORDER BY score DESC, n.id
    LIMIT %(limit)s
"""


def search(
    conn: Conn, graph: str, text: str, *, limit: int, as_of: datetime | None
) -> list[SearchHit]:
    """Rank with ``ts_rank`` (label weighted twice rationale), any word matching (OR)."""
    terms = search_terms(text)
    if not terms or limit <= 0:
        return []
    params: dict[str, Any] = {"graph": graph, "terms": terms, "limit": limit}
    timed = ""
    if as_of is not None:
        timed = "AND " + valid_at("n")
        params["as_of"] = as_of
    sql = _SEARCH.format(columns=NODE_COLUMNS, timed=timed)
    rows = conn.execute(sql, params).fetchall()
    return [SearchHit(node_from_row(row), float(row[-1])) for row in rows]


def events_page(
    conn: Conn, graph: str, after_seq: int, until: datetime | None, size: int
) -> list[Event]:
    """Up to ``size`` ledger entries after ``after_seq`` in seq order, read from the table."""
    sql = f"SELECT {EVENT_COLUMNS} FROM ledger WHERE graph = %(graph)s AND seq > %(after)s"
    params: dict[str, Any] = {"graph": graph, "after": after_seq, "size": size}
    if until is not None:
        sql += " AND at <= %(until)s"
        params["until"] = until
    rows = conn.execute(sql + " ORDER BY seq LIMIT %(size)s", params).fetchall()
    return [event_from_row(row) for row in rows]


# Two index lookups, ``ledger_by_entity`` and ``ledger_by_new`` (schema migration 5, whose
# expression this repeats so the planner can use it).
_HISTORY = f"""
    SELECT {EVENT_COLUMNS} FROM ledger
    WHERE graph = %(graph)s AND (entity = %(id)s OR {PAYLOAD_NEW} = %(id)s) {{until}}
    ORDER BY seq
"""


def history(conn: Conn, graph: str, record_id: str, until: datetime | None) -> list[Event]:
    """The entries whose entity or payload ``new`` is ``record_id``, in seq order."""
    params: dict[str, Any] = {"graph": graph, "id": record_id}
    until_sql = ""
    if until is not None:
        until_sql = "AND at <= %(until)s"
        params["until"] = until
    rows = conn.execute(_HISTORY.format(until=until_sql), params).fetchall()
    return [event_from_row(row) for row in rows]


def graphs(conn: Conn) -> list[str]:
    """The graphs with a ledger, by name."""
    rows = conn.execute("SELECT graph FROM heads WHERE seq > 0 ORDER BY graph").fetchall()
    return [str(row[0]) for row in rows]


def check_storage(conn: Conn, graph: str, quick: bool) -> StorageCheck:
    """PostgreSQL keeps the search column itself (``GENERATED ALWAYS``), so it cannot drift
    from the nodes; its pages are the server's to check (``data_checksums``, ``amcheck``),
    which the report names rather than runs."""
    row = conn.execute("SHOW data_checksums").fetchone()
    pages = "on" if row is not None and row[0] == "on" else "off"
    checked = (
        f"data pages: the server's own checksums are {pages}",
        "search column: generated by the server from the nodes",
    )
    return StorageCheck(checked, ())
