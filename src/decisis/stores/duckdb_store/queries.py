"""DuckDB's own reads: BM25 over the ``node_terms`` index decisis keeps, ``history`` by one
scan of the ledger, and the search index checked against the nodes; the rest is
``SqlReads`` in DuckDB's dialect (``$name`` parameters, lists as one ``VARCHAR[]``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import duckdb

from decisis.model import Event
from decisis.stores.base import SearchHit, StorageCheck
from decisis.stores.duckdb_store.rows import (
    DUCKDB,
    EVENT_COLUMNS,
    NODE_COLUMNS,
    canonical_json,
    event_from_row,
    live,
    node_from_row,
    term_counts,
)
from decisis.stores.sql_reads import SqlReads

__all__ = ["BM25_B", "BM25_K1", "QUERIES", "DuckDBQueries"]

Conn = duckdb.DuckDBPyConnection

BM25_K1 = 1.2
BM25_B = 0.75

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

# No index (see ``schema``): one scan of the graph's ledger, its payload text searched for
# ``"new":"<id>"`` as the canonical JSON writes it. That finds a superset (a nested ``new``
# matches too) which ``SqlFront.history`` narrows with ``is_about``; no payload is parsed
# in SQL.
_HISTORY = f"""
    SELECT {EVENT_COLUMNS} FROM ledger
    WHERE graph = $graph AND (entity = $id OR contains(payload, $needle)) {{until}}
    ORDER BY seq
"""


class DuckDBQueries(SqlReads[Conn]):
    """``SqlReads`` in DuckDB, with its BM25 search and index check."""

    def ranked(
        self, conn: Conn, terms: list[str], timed: str, params: dict[str, Any]
    ) -> list[SearchHit]:
        """BM25 (label words weighted twice rationale words), any word matching (OR)."""
        rows = conn.execute(_SEARCH.format(timed=timed), params | {"terms": terms}).fetchall()
        return [SearchHit(node_from_row(row), float(row[-1])) for row in rows]

    def history(
        self, conn: Conn, graph: str, record_id: str, until: datetime | None
    ) -> list[Event]:
        """The entries whose entity is ``record_id`` or whose payload names it ``new``, or may."""
        needle = '"new":' + canonical_json(record_id)
        params: dict[str, Any] = {"graph": graph, "id": record_id, "needle": needle}
        until_sql = self.until(until, params)
        rows = conn.execute(_HISTORY.format(until=until_sql), params).fetchall()
        return [event_from_row(row) for row in rows]

    def check_storage(self, conn: Conn, graph: str, quick: bool) -> StorageCheck:
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
        checked = (
            "database blocks: DuckDB checksums them on read",
            "search index against the nodes",
        )
        return StorageCheck(checked, tuple(problems[:20]))


QUERIES = DuckDBQueries(DUCKDB)
