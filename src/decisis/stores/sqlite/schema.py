"""The SQLite schema as named, ordered migrations.

Each migration runs in one ``BEGIN IMMEDIATE`` transaction together with the
``schema_migrations`` row that records it, so a crash or a second process never
leaves a half-applied step, and two processes opening a new file at once apply
each step exactly once. Every table key starts with the graph name.

Timestamps are stored as the canonical text of ``decisis.model.format_time``
(fixed width, so comparing strings compares times); metadata as JSON text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from decisis.stores import sql_schema
from decisis.stores.sql_schema import ColumnTypes, Migrator
from decisis.stores.sqlite.queries import PAYLOAD_NEW
from decisis.stores.sqlite.rows import SQLITE

__all__ = [
    "MIGRATIONS",
    "MIGRATOR",
    "PAYLOAD_NEW",
    "SCHEMA_VERSION",
    "Migration",
    "migrate",
    "schema_version",
]


Migration = sql_schema.Migration[sqlite3.Connection]
_TYPES = ColumnTypes("TEXT", "TEXT", "INTEGER", "INTEGER", "BLOB", " WITHOUT ROWID")


_CORE = (
    # An explicit INTEGER PRIMARY KEY keeps rowids stable across VACUUM, which the
    # external-content FTS table of migration 2 relies on.
    """CREATE TABLE nodes (
        pk INTEGER PRIMARY KEY,
        graph TEXT NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        label TEXT NOT NULL,
        status TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        valid_from TEXT NOT NULL,
        valid_until TEXT,
        confidence REAL,
        rationale TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        agent TEXT,
        tombstoned_at TEXT,
        tombstone_reason TEXT,
        UNIQUE (graph, id)
    )""",
    """CREATE TABLE edges (
        pk INTEGER PRIMARY KEY,
        graph TEXT NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        source TEXT NOT NULL,
        target TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        valid_from TEXT NOT NULL,
        valid_until TEXT,
        state TEXT NOT NULL,
        confidence REAL,
        rationale TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        agent TEXT,
        tombstoned_at TEXT,
        tombstone_reason TEXT,
        UNIQUE (graph, id),
        FOREIGN KEY (graph, source) REFERENCES nodes (graph, id),
        FOREIGN KEY (graph, target) REFERENCES nodes (graph, id)
    )""",
    # The far endpoint and the tombstone mark are in each index so a traversal hop
    # (without as_of) is decided by the index alone, never reading the edge row.
    "CREATE INDEX edges_by_source ON edges (graph, source, type, target, tombstoned_at)",
    "CREATE INDEX edges_by_target ON edges (graph, target, type, source, tombstoned_at)",
    """CREATE TABLE ledger (
        graph TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        entity TEXT NOT NULL,
        payload TEXT NOT NULL,
        at TEXT NOT NULL,
        prev_checksum TEXT NOT NULL,
        checksum TEXT NOT NULL,
        invalidated_at TEXT,
        invalidated_reason TEXT,
        PRIMARY KEY (graph, seq)
    )""",
    "CREATE INDEX ledger_by_entity ON ledger (graph, entity)",
    """CREATE TABLE heads (
        graph TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        checksum TEXT NOT NULL
    )""",
)

_SEARCH = (
    """CREATE VIRTUAL TABLE nodes_fts USING fts5(
        label, rationale,
        content='nodes', content_rowid='pk',
        tokenize='unicode61 remove_diacritics 2'
    )""",
    """CREATE TRIGGER nodes_fts_insert AFTER INSERT ON nodes BEGIN
        INSERT INTO nodes_fts (rowid, label, rationale)
        VALUES (new.pk, new.label, new.rationale);
    END""",
    """CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes BEGIN
        INSERT INTO nodes_fts (nodes_fts, rowid, label, rationale)
        VALUES ('delete', old.pk, old.label, old.rationale);
    END""",
    """CREATE TRIGGER nodes_fts_update AFTER UPDATE OF label, rationale ON nodes
    WHEN old.label IS NOT new.label OR old.rationale IS NOT new.rationale BEGIN
        INSERT INTO nodes_fts (nodes_fts, rowid, label, rationale)
        VALUES ('delete', old.pk, old.label, old.rationale);
        INSERT INTO nodes_fts (rowid, label, rationale)
        VALUES (new.pk, new.label, new.rationale);
    END""",
    # Index the nodes written before this migration.
    "INSERT INTO nodes_fts (nodes_fts) VALUES ('rebuild')",
)

# Vectors are derived data, like the full-text index: not ledger events (see
# ``decisis.stores.sqlite.vectors``). A space's dimension is fixed by its first vector;
# its version is a token every write to it replaces, so a cached matrix knows it is stale.
_VECTORS = (
    """CREATE TABLE vector_spaces (
        graph TEXT NOT NULL,
        space TEXT NOT NULL,
        dim INTEGER NOT NULL CHECK (dim > 0),
        version TEXT NOT NULL,
        PRIMARY KEY (graph, space)
    )""",
    """CREATE TABLE vectors (
        graph TEXT NOT NULL,
        space TEXT NOT NULL,
        id TEXT NOT NULL,
        vector BLOB NOT NULL,
        digest TEXT,
        PRIMARY KEY (graph, space, id),
        FOREIGN KEY (graph, space) REFERENCES vector_spaces (graph, space) ON DELETE CASCADE,
        FOREIGN KEY (graph, id) REFERENCES nodes (graph, id)
    )""",
)

# ``rule.trusted`` moves every unjudged link of one rule in one UPDATE (``writes``); this
# index finds them without reading every edge of the graph (20,000 edges: 200 -> 60 ms for
# a rule with 4,500 links, 100 -> 0.1 ms for a rule with none). Its expression and WHERE
# are the UPDATE's, which is what lets SQLite use it.
_RULE_LINKS = (
    """CREATE INDEX edges_by_rule ON edges (graph, json_extract(metadata, '$.rule'))
    WHERE type = 'supersedes' AND state = 'candidate'""",
)

_LEDGER_NEW = (f"CREATE INDEX ledger_by_new ON ledger (graph, ({PAYLOAD_NEW}))",)
# Only the entries whose payload names a ``new`` (supersedes) are in it: ``history``'s
# ``(PAYLOAD_NEW) = :id`` implies ``IS NOT NULL``, so SQLite still uses it, and an append
# of other events writes no page of it (one of the ~20 pages a ``record_decision`` wrote).
_LEDGER_NEW_PARTIAL = (
    "DROP INDEX ledger_by_new",
    f"CREATE INDEX ledger_by_new ON ledger (graph, ({PAYLOAD_NEW})) "
    f"WHERE ({PAYLOAD_NEW}) IS NOT NULL",
)

# The Merkle tree's subtrees keyed by ``reach``, the leaves up to where each ends, then
# level (``merkle.SqlTree.by_reach``): what one append completes is then one run of
# keys, on one page, where by (level, idx) it touched a page a level (4.8 pages of the
# 22 a ``record_decision`` wrote, against 1 to 2).
_MERKLE_BY_REACH = (
    """CREATE TABLE merkle_nodes_by_reach (
        graph TEXT NOT NULL,
        reach INTEGER NOT NULL,
        level INTEGER NOT NULL,
        hash BLOB NOT NULL,
        PRIMARY KEY (graph, reach, level)
    ) WITHOUT ROWID""",
    "INSERT INTO merkle_nodes_by_reach (graph, reach, level, hash) "
    "SELECT graph, (idx + 1) << level, level, hash FROM merkle_nodes",
    "DROP TABLE merkle_nodes",
    "ALTER TABLE merkle_nodes_by_reach RENAME TO merkle_nodes",
)


def _refold(conn: sqlite3.Connection) -> None:
    """``decisis.stores.refold`` on every graph: a candidate no longer retires."""
    from decisis.stores.dbapi_writes import rewrite_node, stored_nodes
    from decisis.stores.refold import refold
    from decisis.stores.sqlite import queries

    refold(
        conn, queries.QUERIES.graphs(conn), queries.QUERIES.events_page, stored_nodes, rewrite_node
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core tables: nodes, edges, ledger, heads", _CORE),
    Migration(2, "full-text search over node label and rationale", _SEARCH),
    Migration(3, "vectors: float32 blobs per graph, space and node", _VECTORS),
    Migration(4, "unjudged links by rule, for rule.trusted", _RULE_LINKS),
    Migration(5, "ledger entries by the record a payload names new, for history", _LEDGER_NEW),
    Migration(6, "retirement follows the link's state (nodes refolded)", (), _refold),
    Migration(7, "Merkle tree over the ledger, and signed checkpoints", _TYPES.merkle()),
    Migration(8, "derived data kept by digest beside the graph", _TYPES.derived()),
    Migration(9, "history's index holds only the entries naming a new record", _LEDGER_NEW_PARTIAL),
    Migration(10, "Merkle subtrees keyed by where they end, for appends", _MERKLE_BY_REACH),
)
SCHEMA_VERSION = MIGRATIONS[-1].version

_RECORD_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""


def schema_version(conn: sqlite3.Connection) -> int:
    """The highest migration recorded in the database (0 for a new file)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if exists is None:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    return int(row[0] or 0)


def _immediate(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], None]) -> None:
    """``work`` in one ``BEGIN IMMEDIATE`` transaction (a failed statement may have ended
    it already, so the rollback asks first)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


MIGRATOR = Migrator(MIGRATIONS, _RECORD_TABLE, SQLITE, schema_version, _immediate)
migrate = MIGRATOR.migrate
