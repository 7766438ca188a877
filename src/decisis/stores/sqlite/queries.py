"""Reads: records by id, prefixes, filtered lists, full-text search and the ledger.

Every query is one statement with bound parameters; filters are appended as
fixed SQL fragments, and lists of values travel as one JSON parameter read with
``json_each`` so the statement text never depends on user data.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType, Event, Node, NodeStatus, NodeType, format_time
from decisis.stores import prefixes
from decisis.stores.base import MAX_SEQ, Direction, SearchHit, StorageCheck
from decisis.stores.sqlite.rows import (
    EDGE_FIELDS,
    EVENT_COLUMNS,
    NODE_FIELDS,
    columns,
    edge_from_row,
    event_from_row,
    live,
    node_from_row,
    valid_at,
)

__all__ = [
    "check_storage",
    "edges",
    "events_page",
    "fts_query",
    "get_edge",
    "get_node",
    "graphs",
    "history",
    "nodes",
    "resolve_prefix",
    "search",
    "short_ids",
]

# ``history`` finds a record's entries by entity (``ledger_by_entity``) and the supersedes
# that name it ``new`` by this one, instead of reading the whole ledger. The schema builds
# that index on this same expression, which is what lets SQLite use it; it reads a
# payload that is not JSON as NULL, so a damaged row can still be written and is then
# reported by the reads and ``verify``, not refused by the index.
PAYLOAD_NEW = "CASE WHEN json_valid(payload) THEN json_extract(payload, '$.new') END"

# An ambiguous prefix lists at most this many matches per table (a one-letter
# prefix can match every id in a large graph).
MAX_AMBIGUOUS = 100
MAX_SEARCH_TERMS = 32

_NODE_COLUMNS = columns("n", NODE_FIELDS)
_EDGE_COLUMNS = columns("e", EDGE_FIELDS)
_TERM = re.compile(r"[^\W_]+")


def get_node(conn: sqlite3.Connection, graph: str, node_id: str) -> Node:
    row = conn.execute(
        f"SELECT {_NODE_COLUMNS} FROM nodes n WHERE n.graph = ? AND n.id = ?", (graph, node_id)
    ).fetchone()
    if row is None:
        raise NotFound("node", node_id, graph)
    return node_from_row(row)


def get_edge(conn: sqlite3.Connection, graph: str, edge_id: str) -> Edge:
    row = conn.execute(
        f"SELECT {_EDGE_COLUMNS} FROM edges e WHERE e.graph = ? AND e.id = ?", (graph, edge_id)
    ).fetchone()
    if row is None:
        raise NotFound("edge", edge_id, graph)
    return edge_from_row(row)


# The ids from ``lo`` up to ``hi`` in nodes and in edges: a range scan on the id indexes.
_RANGE = """
        SELECT id FROM (SELECT id FROM nodes WHERE graph = :graph AND id >= :lo AND id < :hi
                        ORDER BY id LIMIT :limit)
        UNION ALL
        SELECT id FROM (SELECT id FROM edges WHERE graph = :graph AND id >= :lo AND id < :hi
                        ORDER BY id LIMIT :limit)
        """


def resolve_prefix(conn: sqlite3.Connection, graph: str, prefix: str) -> str:
    """The one node or edge id starting with ``prefix`` (``prefixes.resolve_prefix``)."""
    return prefixes.resolve_prefix(conn, _RANGE, graph, prefix)


_NEIGHBOURS = """
    SELECT (SELECT MAX(id) FROM nodes WHERE graph = :graph AND id < :id),
           (SELECT MIN(id) FROM nodes WHERE graph = :graph AND id > :id),
           (SELECT MAX(id) FROM edges WHERE graph = :graph AND id < :id),
           (SELECT MIN(id) FROM edges WHERE graph = :graph AND id > :id)
"""


def short_ids(
    conn: sqlite3.Connection, graph: str, ids: Sequence[str], min_length: int
) -> dict[str, str]:
    """Shortest unique prefixes, each decided by one probe of the id's four neighbours."""
    return prefixes.probed_short_ids(conn, _NEIGHBOURS, graph, ids, min_length)


def _values_param(values: Sequence[Any]) -> str:
    return json.dumps([str(getattr(v, "value", v)) for v in values])


def nodes(
    conn: sqlite3.Connection,
    graph: str,
    *,
    types: Sequence[NodeType] | None,
    statuses: Sequence[NodeStatus] | None,
    newest_first: bool,
    limit: int | None,
    as_of: datetime | None,
    include_tombstoned: bool,
) -> list[Node]:
    sql = [f"SELECT {_NODE_COLUMNS} FROM nodes n WHERE n.graph = :graph"]
    params: dict[str, Any] = {"graph": graph}
    if types is not None:
        sql.append("AND n.type IN (SELECT value FROM json_each(:types))")
        params["types"] = _values_param(types)
    if statuses is not None:
        sql.append("AND n.status IN (SELECT value FROM json_each(:statuses))")
        params["statuses"] = _values_param(statuses)
    if not include_tombstoned:
        sql.append("AND " + live("n"))
    if as_of is not None:
        sql.append("AND " + valid_at("n"))
        params["as_of"] = format_time(as_of)
    sql.append("ORDER BY n.id DESC" if newest_first else "ORDER BY n.id")
    if limit is not None:
        sql.append("LIMIT :limit")
        params["limit"] = limit
    return [node_from_row(row) for row in conn.execute(" ".join(sql), params).fetchall()]


# Without ANALYZE statistics SQLite takes ``graph = ?`` for selective and would walk the
# (graph, id) index for the ORDER BY; ``+e.id`` and one direction per query keep it on
# the endpoint index (0.1 ms instead of 300 ms at a million edges).
_DIRECTIONS: tuple[Direction, ...] = ("out", "in")
_ENDPOINT: dict[Direction | None, str] = {
    "out": "AND e.source = :node",
    "in": "AND e.target = :node",
}


def edges(
    conn: sqlite3.Connection,
    graph: str,
    *,
    node: str | None,
    direction: Direction | None,
    types: Sequence[EdgeType] | None,
    as_of: datetime | None,
    include_tombstoned: bool,
) -> list[Edge]:
    """An edge shows when it and both its endpoints show (not tombstoned, valid at as_of)."""
    if node is not None and direction is None:
        both = [
            edge
            for way in _DIRECTIONS
            for edge in edges(
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
    sql = [
        f"SELECT {_EDGE_COLUMNS} FROM edges e",
        "JOIN nodes s ON s.graph = e.graph AND s.id = e.source",
        "JOIN nodes t ON t.graph = e.graph AND t.id = e.target",
        "WHERE e.graph = :graph",
    ]
    params: dict[str, Any] = {"graph": graph}
    if node is not None:
        sql.append(_ENDPOINT[direction])
        params["node"] = node
    if types is not None:
        sql.append("AND e.type IN (SELECT value FROM json_each(:types))")
        params["types"] = _values_param(types)
    if not include_tombstoned:
        sql += [f"AND {live('e')} AND {live('s')} AND {live('t')}"]
    if as_of is not None:
        sql.append(f"AND {valid_at('e')} AND {valid_at('s')} AND {valid_at('t')}")
        params["as_of"] = format_time(as_of)
    sql.append("ORDER BY +e.id" if node is not None else "ORDER BY e.id")
    return [edge_from_row(row) for row in conn.execute(" ".join(sql), params).fetchall()]


def fts_query(text: str) -> str | None:
    """Free text as a safe FTS5 query: each word quoted as a string, the words OR-ed.

    Quoting makes FTS5 read operators (``NEAR``, ``AND``, ``*``, ``:``, brackets) as
    plain words, and words are runs of letters and digits, so no punctuation reaches
    the query syntax. ``None`` when the text has no words.
    """
    terms: list[str] = []
    for term in _TERM.findall(text.lower()):
        if term not in terms:
            terms.append(term)
    if not terms:
        return None
    return " OR ".join(f'"{term}"' for term in terms[:MAX_SEARCH_TERMS])


# bm25 ranks inside FTS5 first, and only the best ``fetch`` matches are joined to their
# nodes and filtered (graph, tombstone, as_of): 50,000 nodes, 20 hits, about 3x faster
# than joining every match. ``fetched`` and ``worst`` let ``search`` prove the answer is
# the one ranking every match would give; when it cannot, it asks ``_SEARCH_ALL``.
_SEARCH_TOP = f"""
    WITH top AS (
        SELECT rowid AS pk, bm25(nodes_fts, 2.0, 1.0) AS rank FROM nodes_fts
        WHERE nodes_fts MATCH :query ORDER BY rank LIMIT :fetch
    )
    SELECT {_NODE_COLUMNS}, -top.rank AS score,
        (SELECT count(*) FROM top) AS fetched, (SELECT max(rank) FROM top) AS worst
    FROM top JOIN nodes n ON n.pk = top.pk
    WHERE n.graph = :graph AND {live("n")} {{timed}}
    ORDER BY score DESC, n.id LIMIT :limit
"""
_SEARCH_ALL = f"""
    SELECT {_NODE_COLUMNS}, -bm25(nodes_fts, 2.0, 1.0) AS score
    FROM nodes_fts JOIN nodes n ON n.pk = nodes_fts.rowid
    WHERE nodes_fts MATCH :query AND n.graph = :graph AND {live("n")} {{timed}}
    ORDER BY score DESC, n.id LIMIT :limit
"""


def search(
    conn: sqlite3.Connection, graph: str, text: str, *, limit: int, as_of: datetime | None
) -> list[SearchHit]:
    """Rank with bm25 (label weighted twice rationale); ``score = -bm25``, higher is better."""
    query = fts_query(text)
    if query is None or limit <= 0:
        return []
    params: dict[str, Any] = {"graph": graph, "query": query, "limit": limit}
    timed = ""
    if as_of is not None:
        timed = "AND " + valid_at("n")
        params["as_of"] = format_time(as_of)
    fetch = min(2 * limit + 8, MAX_SEQ)  # room for a few matches the filters drop
    rows = conn.execute(_SEARCH_TOP.format(timed=timed), params | {"fetch": fetch}).fetchall()
    if not _top_is_whole(rows, limit, fetch):
        rows = conn.execute(_SEARCH_ALL.format(timed=timed), params).fetchall()
    return [
        SearchHit(node_from_row(row[: len(NODE_FIELDS)]), float(row[len(NODE_FIELDS)]))
        for row in rows
    ]


def _top_is_whole(rows: Sequence[Any], limit: int, fetch: int) -> bool:
    """Whether the best ``fetch`` matches give the whole answer: they were every match, or
    ``limit`` of them passed the filters and the last of those ranks strictly better than
    the worst fetched, so no match left out (ranked no better than that) could displace it,
    not even on a tie."""
    if not rows:
        return False
    fetched, worst = rows[0][-2], rows[0][-1]
    if fetched < fetch:
        return True
    return len(rows) == limit and -rows[-1][-3] < worst


def events_page(
    conn: sqlite3.Connection, graph: str, after_seq: int, until: datetime | None, size: int
) -> list[Event]:
    """Up to ``size`` ledger entries after ``after_seq`` in seq order, read from the table."""
    sql = f"SELECT {EVENT_COLUMNS} FROM ledger WHERE graph = :graph AND seq > :after"
    params: dict[str, Any] = {"graph": graph, "after": after_seq, "size": size}
    if until is not None:
        sql += " AND at <= :until"
        params["until"] = format_time(until)
    factory = conn.text_factory  # bytes that are not UTF-8 (written behind decisis's back)
    conn.text_factory = _lenient_text  # read as U+FFFD, so the chain check names their seq
    try:
        rows = conn.execute(sql + " ORDER BY seq LIMIT :size", params).fetchall()
    finally:
        conn.text_factory = factory
    return [event_from_row(row) for row in rows]


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


# The seqs from two index lookups, ``ledger_by_entity`` and ``ledger_by_new`` (schema
# migration 5, whose expression this repeats); written as one ``OR``, or as a ``UNION`` of
# rows, SQLite walks the graph's whole ledger in seq order instead (50,000 entries: 0.4 ms
# against 1.2 s).
_HISTORY = f"""
    SELECT {EVENT_COLUMNS} FROM ledger
    WHERE graph = :graph {{until}} AND seq IN (
        SELECT seq FROM ledger WHERE graph = :graph AND entity = :id
        UNION ALL
        SELECT seq FROM ledger WHERE graph = :graph AND ({PAYLOAD_NEW}) = :id
    )
    ORDER BY seq
"""


def history(
    conn: sqlite3.Connection, graph: str, record_id: str, until: datetime | None
) -> list[Event]:
    """The entries whose entity or payload ``new`` is ``record_id``, in seq order."""
    params: dict[str, Any] = {"graph": graph, "id": record_id}
    until_sql = ""
    if until is not None:
        until_sql = "AND at <= :until"
        params["until"] = format_time(until)
    rows = conn.execute(_HISTORY.format(until=until_sql), params).fetchall()
    return [event_from_row(row) for row in rows]


def graphs(conn: sqlite3.Connection) -> list[str]:
    """The graphs with a ledger, by name."""
    rows = conn.execute("SELECT graph FROM heads ORDER BY graph").fetchall()
    return [str(row[0]) for row in rows]


def check_storage(conn: sqlite3.Connection, graph: str, quick: bool) -> StorageCheck:
    """The file's own integrity (``PRAGMA integrity_check``, or ``quick_check``: no index
    contents), and the full-text index against the nodes (FTS5's ``integrity-check``, which
    needs to write: on a read-only file it is said not to have run)."""
    pragma = "quick_check" if quick else "integrity_check"
    checked = [f"database file (PRAGMA {pragma})"]
    problems = [
        f"database file: {row[0]}"
        for row in conn.execute(f"PRAGMA {pragma}").fetchall()
        if row[0] != "ok"
    ]
    try:
        conn.execute("INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('integrity-check', 1)")
        checked.append("full-text index against the nodes")
    except sqlite3.OperationalError as exc:
        if "readonly" not in str(exc):
            raise
        checked.append("full-text index: not checked (the file is open read-only)")
    except sqlite3.DatabaseError:
        problems.append(
            "full-text index: it disagrees with the nodes (entries missing or stale); "
            "search may miss records"
        )
    return StorageCheck(tuple(checked), tuple(problems))
