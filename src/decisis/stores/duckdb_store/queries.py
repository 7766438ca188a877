"""Reads: records by id, prefixes, filtered lists, full-text search and the ledger.

Every query is one statement with bound parameters; filters are appended as
fixed SQL fragments, and lists of values travel as one ``VARCHAR[]`` parameter,
so the statement text never depends on user data.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import duckdb

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType, Event, Node, NodeStatus, NodeType, format_time
from decisis.stores import prefixes
from decisis.stores.base import Direction, SearchHit, StorageCheck
from decisis.stores.duckdb_store.rows import (
    EDGE_COLUMNS,
    EVENT_COLUMNS,
    MAX_SEARCH_TERMS,
    NODE_COLUMNS,
    canonical_json,
    edge_from_row,
    event_from_row,
    live,
    node_from_row,
    search_terms,
    term_counts,
    valid_at,
)

__all__ = [
    "BM25_B",
    "BM25_K1",
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
    "short_ids",
]

Conn = duckdb.DuckDBPyConnection

BM25_K1 = 1.2
BM25_B = 0.75


def get_node(conn: Conn, graph: str, node_id: str) -> Node:
    row = conn.execute(
        f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = ? AND n.id = ?", (graph, node_id)
    ).fetchone()
    if row is None:
        raise NotFound("node", node_id, graph)
    return node_from_row(row)


def get_edge(conn: Conn, graph: str, edge_id: str) -> Edge:
    row = conn.execute(
        f"SELECT {EDGE_COLUMNS} FROM edges e WHERE e.graph = ? AND e.id = ?", (graph, edge_id)
    ).fetchone()
    if row is None:
        raise NotFound("edge", edge_id, graph)
    return edge_from_row(row)


# The ids from ``lo`` up to ``hi`` in nodes and in edges: a range scan on the id indexes.
_RANGE = """
        (SELECT id FROM nodes WHERE graph = $graph AND id >= $lo AND id < $hi
         ORDER BY id LIMIT $limit)
        UNION ALL
        (SELECT id FROM edges WHERE graph = $graph AND id >= $lo AND id < $hi
         ORDER BY id LIMIT $limit)
        """


def resolve_prefix(conn: Conn, graph: str, prefix: str) -> str:
    """The one node or edge id starting with ``prefix`` (``prefixes.resolve_prefix``)."""
    return prefixes.resolve_prefix(conn, _RANGE, graph, prefix)


_NEIGHBOURS = """
    SELECT (SELECT MAX(id) FROM nodes WHERE graph = $graph AND id < $id),
           (SELECT MIN(id) FROM nodes WHERE graph = $graph AND id > $id),
           (SELECT MAX(id) FROM edges WHERE graph = $graph AND id < $id),
           (SELECT MIN(id) FROM edges WHERE graph = $graph AND id > $id)
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
    sql = [f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = $graph"]
    params: dict[str, Any] = {"graph": graph}
    if types is not None:
        sql.append("AND list_contains($types::VARCHAR[], n.type)")
        params["types"] = _values(types)
    if statuses is not None:
        sql.append("AND list_contains($statuses::VARCHAR[], n.status)")
        params["statuses"] = _values(statuses)
    if not include_tombstoned:
        sql.append("AND " + live("n"))
    if as_of is not None:
        sql.append("AND " + valid_at("n"))
        params["as_of"] = format_time(as_of)
    sql.append("ORDER BY n.id DESC" if newest_first else "ORDER BY n.id")
    if limit is not None:
        sql.append("LIMIT $limit")
        params["limit"] = limit
    return [node_from_row(row) for row in conn.execute(" ".join(sql), params).fetchall()]


_ENDPOINT: dict[Direction | None, str] = {
    "out": "AND e.source = $node",
    "in": "AND e.target = $node",
    None: "AND (e.source = $node OR e.target = $node)",
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
    sql = [f"SELECT {EDGE_COLUMNS} FROM edges e"]
    if not include_tombstoned or as_of is not None:  # the endpoints decide too
        sql.append("JOIN nodes s ON s.graph = e.graph AND s.id = e.source")
        sql.append("JOIN nodes t ON t.graph = e.graph AND t.id = e.target")
    sql.append("WHERE e.graph = $graph")
    params: dict[str, Any] = {"graph": graph}
    if node is not None:
        sql.append(_ENDPOINT[direction])
        params["node"] = node
    if types is not None:
        sql.append("AND list_contains($types::VARCHAR[], e.type)")
        params["types"] = _values(types)
    if not include_tombstoned:
        sql.append(f"AND {live('e')} AND {live('s')} AND {live('t')}")
    if as_of is not None:
        sql.append(f"AND {valid_at('e')} AND {valid_at('s')} AND {valid_at('t')}")
        params["as_of"] = format_time(as_of)
    sql.append("ORDER BY e.id")
    return [edge_from_row(row) for row in conn.execute(" ".join(sql), params).fetchall()]


# BM25 over ``node_terms``: idf = ln(1 + (N - df + 0.5) / (df + 0.5)) is always positive,
# so every hit scores above zero; N, df and the mean length count the graph's indexed
# nodes, tombstoned ones included (the statistics, not the hits).
_SEARCH = f"""
    WITH q AS (SELECT DISTINCT unnest($terms::VARCHAR[]) AS term),
    docs AS (
        SELECT count(*) AS n, avg(dl) AS avgdl
        FROM (SELECT any_value(dl) AS dl FROM node_terms WHERE graph = $graph GROUP BY id)
    ),
    df AS (
        SELECT t.term, count(*) AS df FROM node_terms t JOIN q USING (term)
        WHERE t.graph = $graph GROUP BY t.term
    ),
    scored AS (
        SELECT t.id, SUM(
            ln(1 + (docs.n - df.df + 0.5) / (df.df + 0.5))
            * t.tf * ({BM25_K1} + 1)
            / (t.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * t.dl / docs.avgdl))
        ) AS score
        FROM node_terms t JOIN df USING (term) CROSS JOIN docs
        WHERE t.graph = $graph
        GROUP BY t.id
    )
    SELECT {NODE_COLUMNS}, s.score
    FROM scored s JOIN nodes n ON n.graph = $graph AND n.id = s.id
    WHERE {live("n")} {{timed}}
    ORDER BY s.score DESC, n.id
    LIMIT $limit
"""


def search(
    conn: Conn, graph: str, text: str, *, limit: int, as_of: datetime | None
) -> list[SearchHit]:
    """BM25 (label words weighted twice rationale words), any word matching (OR)."""
    terms = search_terms(text)
    if not terms or limit <= 0:
        return []
    params: dict[str, Any] = {"graph": graph, "terms": terms, "limit": limit}
    timed = ""
    if as_of is not None:
        timed = "AND " + valid_at("n")
        params["as_of"] = format_time(as_of)
    rows = conn.execute(_SEARCH.format(timed=timed), params).fetchall()
    return [SearchHit(node_from_row(row), float(row[-1])) for row in rows]


def events_page(
    conn: Conn, graph: str, after_seq: int, until: datetime | None, size: int
) -> list[Event]:
    """Up to ``size`` ledger entries after ``after_seq`` in seq order, read from the table."""
    sql = f"SELECT {EVENT_COLUMNS} FROM ledger WHERE graph = $graph AND seq > $after"
    params: dict[str, Any] = {"graph": graph, "after": after_seq, "size": size}
    if until is not None:
        sql += ' AND "at" <= $until'
        params["until"] = format_time(until)
    rows = conn.execute(sql + " ORDER BY seq LIMIT $size", params).fetchall()
    return [event_from_row(row) for row in rows]


# No index (see ``schema``): one scan of the graph's ledger, its payload text searched for
# ``"new":"<id>"`` as the canonical JSON writes it. That finds a superset (a nested ``new``
# matches too) which ``SqlFront.history`` narrows with ``is_about``; no payload is parsed
# in SQL.
_HISTORY = f"""
    SELECT {EVENT_COLUMNS} FROM ledger
    WHERE graph = $graph AND (entity = $id OR contains(payload, $needle)) {{until}}
    ORDER BY seq
"""


def history(conn: Conn, graph: str, record_id: str, until: datetime | None) -> list[Event]:
    """The entries whose entity is ``record_id`` or whose payload names it ``new``, or may."""
    needle = '"new":' + canonical_json(record_id)
    params: dict[str, Any] = {"graph": graph, "id": record_id, "needle": needle}
    until_sql = ""
    if until is not None:
        until_sql = 'AND "at" <= $until'
        params["until"] = format_time(until)
    rows = conn.execute(_HISTORY.format(until=until_sql), params).fetchall()
    return [event_from_row(row) for row in rows]


def graphs(conn: Conn) -> list[str]:
    """The graphs with a ledger, by name."""
    rows = conn.execute("SELECT graph FROM heads ORDER BY graph").fetchall()
    return [str(row[0]) for row in rows]


def check_storage(conn: Conn, graph: str, quick: bool) -> StorageCheck:
    """The search index (``node_terms``, kept by decisis, not by DuckDB) against what the
    nodes' text gives; DuckDB checksums its own blocks as it reads them, so the file has
    no check of its own here."""
    stored: dict[str, dict[str, tuple[float, float]]] = {}
    rows = conn.execute("SELECT id, term, tf, dl FROM node_terms WHERE graph = ?", [graph])
    for node_id, term, tf, dl in rows.fetchall():
        stored.setdefault(node_id, {})[term] = (float(tf), float(dl))
    nodes = conn.execute("SELECT id, label, rationale FROM nodes WHERE graph = ?", [graph])
    problems = []
    for node_id, label, rationale in nodes.fetchall():
        counts, length = term_counts(label, rationale)
        want = {term: (float(tf), float(length)) for term, tf in counts.items()}
        if stored.pop(node_id, {}) != want:
            problems.append(f"search index: node {node_id}'s words are missing or stale")
    problems += [f"search index: words of node {i}, which has no row" for i in sorted(stored)]
    checked = ("database blocks: DuckDB checksums them on read", "search index against the nodes")
    return StorageCheck(checked, tuple(problems[:20]))
