"""The PostgreSQL schema as named, ordered migrations.

Each migration runs in one transaction together with the ``schema_migrations``
row that records it (PostgreSQL's DDL is transactional), under an advisory lock,
so two processes opening a new database at once apply each step exactly once.
Tables go into the first schema of the connection's ``search_path``.

Every table key starts with the graph name, so the tables can be distributed by
graph (Citus ``create_distributed_table(..., 'graph')``, see docs/scaling.md).
Identifier columns use the "C" collation: ids, types and graph names then sort by
code point, as Python sorts them, whatever the database's locale. Timestamps are
``timestamptz``; metadata and ledger payloads are the canonical JSON text, kept
byte for byte (``jsonb`` would reorder keys and rewrite numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from decisis.errors import StoreError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Migration", "migrate", "schema_version"]

Conn = psycopg.Connection[tuple[Any, ...]]

# pg_advisory_xact_lock key held while migrating: "decisis" as a 64-bit number.
_MIGRATION_LOCK = 0x6465636973697300


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


_CORE = (
    """CREATE TABLE nodes (
        graph text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        label text NOT NULL,
        status text COLLATE "C" NOT NULL,
        recorded_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        valid_from timestamptz NOT NULL,
        valid_until timestamptz,
        confidence double precision,
        rationale text,
        metadata text NOT NULL DEFAULT '{}',
        agent text,
        tombstoned_at timestamptz,
        tombstone_reason text,
        PRIMARY KEY (graph, id)
    )""",
    """CREATE TABLE edges (
        graph text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        source text COLLATE "C" NOT NULL,
        target text COLLATE "C" NOT NULL,
        recorded_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        valid_from timestamptz NOT NULL,
        valid_until timestamptz,
        state text COLLATE "C" NOT NULL,
        confidence double precision,
        rationale text,
        metadata text NOT NULL DEFAULT '{}',
        agent text,
        tombstoned_at timestamptz,
        tombstone_reason text,
        PRIMARY KEY (graph, id),
        FOREIGN KEY (graph, source) REFERENCES nodes (graph, id),
        FOREIGN KEY (graph, target) REFERENCES nodes (graph, id)
    )""",
    # The far endpoint and the tombstone mark are in each index so a traversal hop
    # (without as_of) can be decided from the index alone.
    "CREATE INDEX edges_by_source ON edges (graph, source, type, target, tombstoned_at)",
    "CREATE INDEX edges_by_target ON edges (graph, target, type, source, tombstoned_at)",
    """CREATE TABLE ledger (
        graph text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        kind text COLLATE "C" NOT NULL,
        entity text COLLATE "C" NOT NULL,
        payload text NOT NULL,
        at timestamptz NOT NULL,
        prev_checksum text NOT NULL,
        checksum text NOT NULL,
        invalidated_at timestamptz,
        invalidated_reason text,
        PRIMARY KEY (graph, seq)
    )""",
    "CREATE INDEX ledger_by_entity ON ledger (graph, entity)",
    # One row per graph: the row lock taken on it serialises that graph's appends.
    """CREATE TABLE heads (
        graph text COLLATE "C" PRIMARY KEY,
        seq bigint NOT NULL,
        checksum text NOT NULL
    )""",
)

_SEARCH = (
    # 'simple': lower-cased words, no stemming and no stop words, like the other backends.
    """ALTER TABLE nodes ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', label), 'A')
        || setweight(to_tsvector('simple', coalesce(rationale, '')), 'B')
    ) STORED""",
    "CREATE INDEX nodes_search ON nodes USING gin (search)",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core tables: nodes, edges, ledger, heads", _CORE),
    Migration(2, "full-text search over node label and rationale", _SEARCH),
)
SCHEMA_VERSION = MIGRATIONS[-1].version

_RECORD_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)"""


def schema_version(conn: Conn) -> int:
    """The highest migration recorded in the current schema (0 for a new one)."""
    row = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return 0
    found = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    return int(found[0] or 0) if found is not None else 0


def _refuse_newer(version: int, where: str) -> None:
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{where} has schema version {version}, newer than this decisis knows "
            f"({SCHEMA_VERSION}); upgrade decisis to open it"
        )


def _apply(conn: Conn, migration: Migration, where: str) -> None:
    """Apply one migration and its record in one transaction, unless another process did."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute(_RECORD_TABLE)
        current = schema_version(conn)
        _refuse_newer(current, where)
        if current < migration.version:
            for statement in migration.statements:
                conn.execute(statement)  # constants of this module, never user input
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )


def migrate(
    conn: Conn,
    *,
    upto: int | None = None,
    where: str = "database",
) -> int:
    """Bring the schema up to ``upto`` (default: the newest); return the version reached.

    ``conn`` must be in autocommit mode. A schema newer than this code is refused
    with ``StoreError``: guessing at a schema we do not know could corrupt it.
    """
    target = SCHEMA_VERSION if upto is None else upto
    current = schema_version(conn)
    _refuse_newer(current, where)
    for migration in MIGRATIONS:
        if current < migration.version <= target:
            _apply(conn, migration, where)
    reached = schema_version(conn)
    _refuse_newer(reached, where)
    return reached
