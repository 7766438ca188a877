"""SQLite's own reads: FTS5 search, ``history`` on the ledger's expression index, and the
file's integrity check; the rest is ``SqlReads`` in SQLite's dialect (``:name``
parameters, lists as one JSON parameter read with ``json_each``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from decisis.model import Event
from decisis.stores.base import MAX_SEQ, SearchHit, StorageCheck
from decisis.stores.sql_dialect import live, search_terms
from decisis.stores.sql_reads import NODE_COLUMNS, SqlReads
from decisis.stores.sqlite.rows import (
    EVENT_COLUMNS,
    NODE_FIELDS,
    SQLITE,
    event_from_row,
    node_from_row,
)

__all__ = ["PAYLOAD_NEW", "QUERIES", "SqliteQueries", "fts_query"]

# ``history`` finds a record's entries by entity (``ledger_by_entity``) and the supersedes
# that name it ``new`` by this one, instead of reading the whole ledger. The schema builds
# that index on this same expression, which is what lets SQLite use it; it reads a
# payload that is not JSON as NULL, so a damaged row can still be written and is then
# reported by the reads and ``verify``, not refused by the index.
PAYLOAD_NEW = "CASE WHEN json_valid(payload) THEN json_extract(payload, '$.new') END"


def fts_query(text: str) -> str | None:
    """Free text as a safe FTS5 query: each word quoted as a string, the words OR-ed.

    Quoting makes FTS5 read operators (``NEAR``, ``AND``, ``*``, ``:``, brackets) as
    plain words, and words are runs of letters and digits, so no punctuation reaches
    the query syntax. ``None`` when the text has no words.
    """
    terms = search_terms(text)
    return _fts(terms) if terms else None


def _fts(terms: Sequence[str]) -> str:
    return " OR ".join(f'"{term}"' for term in terms)


# bm25 ranks inside FTS5 first, and only the best ``fetch`` matches are joined to their
# nodes and filtered (graph, tombstone, as_of): 50,000 nodes, 20 hits, about 3x faster
# than joining every match. ``fetched`` and ``worst`` let ``search`` prove the answer is
# the one ranking every match would give; when it cannot, it asks ``_SEARCH_ALL``.
_SEARCH_TOP = f"""
    WITH top AS (
        SELECT rowid AS pk, bm25(nodes_fts, 2.0, 1.0) AS rank FROM nodes_fts
        WHERE nodes_fts MATCH :query ORDER BY rank LIMIT :fetch
    )
    SELECT {NODE_COLUMNS}, -top.rank AS score,
        (SELECT count(*) FROM top) AS fetched, (SELECT max(rank) FROM top) AS worst
    FROM top JOIN nodes n ON n.pk = top.pk
    WHERE n.graph = :graph AND {live("n")} {{timed}}
    ORDER BY score DESC, n.id LIMIT :limit
"""
_SEARCH_ALL = f"""
    SELECT {NODE_COLUMNS}, -bm25(nodes_fts, 2.0, 1.0) AS score
    FROM nodes_fts JOIN nodes n ON n.pk = nodes_fts.rowid
    WHERE nodes_fts MATCH :query AND n.graph = :graph AND {live("n")} {{timed}}
    ORDER BY score DESC, n.id LIMIT :limit
"""

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


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


class SqliteQueries(SqlReads[sqlite3.Connection]):
    """``SqlReads`` in SQLite, with FTS5 search and the file's own checks."""

    def ranked(
        self, conn: sqlite3.Connection, terms: list[str], timed: str, params: dict[str, Any]
    ) -> list[SearchHit]:
        """Rank with bm25 (label weighted twice rationale); ``score = -bm25``, higher is better."""
        params = params | {"query": _fts(terms)}
        fetch = min(2 * params["limit"] + 8, MAX_SEQ)  # room for a few matches the filters drop
        rows = conn.execute(_SEARCH_TOP.format(timed=timed), params | {"fetch": fetch}).fetchall()
        if not _top_is_whole(rows, params["limit"], fetch):
            rows = conn.execute(_SEARCH_ALL.format(timed=timed), params).fetchall()
        return [
            SearchHit(node_from_row(row[: len(NODE_FIELDS)]), float(row[len(NODE_FIELDS)]))
            for row in rows
        ]

    def events_page(
        self,
        conn: sqlite3.Connection,
        graph: str,
        after_seq: int,
        until: datetime | None,
        size: int,
    ) -> list[Event]:
        """``SqlReads.events_page``, reading bytes that are not UTF-8 (written behind
        decisis's back) as U+FFFD, so the chain check names their seq."""
        factory = conn.text_factory
        conn.text_factory = _lenient_text
        try:
            return super().events_page(conn, graph, after_seq, until, size)
        finally:
            conn.text_factory = factory

    def history(
        self, conn: sqlite3.Connection, graph: str, record_id: str, until: datetime | None
    ) -> list[Event]:
        """The entries whose entity or payload ``new`` is ``record_id``, in seq order."""
        params: dict[str, Any] = {"graph": graph, "id": record_id}
        until_sql = self.until(until, params)
        rows = conn.execute(_HISTORY.format(until=until_sql), params).fetchall()
        return [event_from_row(row) for row in rows]

    def check_storage(self, conn: sqlite3.Connection, graph: str, quick: bool) -> StorageCheck:
        """The file's own integrity (``PRAGMA integrity_check``, or ``quick_check``: no index
        contents), and the full-text index against the nodes (FTS5's ``integrity-check``,
        which needs to write: on a read-only file it is said not to have run)."""
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


QUERIES = SqliteQueries(SQLITE)
