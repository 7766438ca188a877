"""The DuckDB schema as named, ordered migrations.

Each migration runs in one transaction together with the ``schema_migrations``
row that records it (DuckDB's DDL is transactional), so a crash never leaves a
half-applied step. A DuckDB file is opened for writing by one process at a time
(the library locks it), so no two processes ever migrate it at once. Every table
key starts with the graph name.

Timestamps are the canonical text of ``decisis.model.format_time`` (see
``rows``). There are no secondary indexes and no foreign keys: DuckDB scans
columns fast, and its indexes would turn the updates the ledger makes (a
tombstone mark, a status) into delete-and-insert pairs. The fold's rules, which
``writes`` checks before every insert, keep edges pointing at existing nodes.
"""

from __future__ import annotations

from collections.abc import Callable

import duckdb

from decisis.stores import sql_schema
from decisis.stores.duckdb_store.rows import DUCKDB, term_counts
from decisis.stores.sql_front import in_transaction
from decisis.stores.sql_schema import ColumnTypes, Migrator

__all__ = [
    "INDEX_TERMS",
    "MIGRATIONS",
    "MIGRATOR",
    "SCHEMA_VERSION",
    "Migration",
    "index_node",
    "migrate",
    "schema_version",
]


Migration = sql_schema.Migration[duckdb.DuckDBPyConnection]
_TYPES = ColumnTypes("VARCHAR", "VARCHAR", "INTEGER", "BIGINT", "BLOB")


_CORE = (
    """CREATE TABLE nodes (
        graph VARCHAR NOT NULL,
        id VARCHAR NOT NULL,
        type VARCHAR NOT NULL,
        label VARCHAR NOT NULL,
        status VARCHAR NOT NULL,
        recorded_at VARCHAR NOT NULL,
        updated_at VARCHAR NOT NULL,
        valid_from VARCHAR NOT NULL,
        valid_until VARCHAR,
        confidence DOUBLE,
        rationale VARCHAR,
        metadata VARCHAR NOT NULL DEFAULT '{}',
        agent VARCHAR,
        tombstoned_at VARCHAR,
        tombstone_reason VARCHAR,
        PRIMARY KEY (graph, id)
    )""",
    """CREATE TABLE edges (
        graph VARCHAR NOT NULL,
        id VARCHAR NOT NULL,
        type VARCHAR NOT NULL,
        source VARCHAR NOT NULL,
        target VARCHAR NOT NULL,
        recorded_at VARCHAR NOT NULL,
        updated_at VARCHAR NOT NULL,
        valid_from VARCHAR NOT NULL,
        valid_until VARCHAR,
        state VARCHAR NOT NULL,
        confidence DOUBLE,
        rationale VARCHAR,
        metadata VARCHAR NOT NULL DEFAULT '{}',
        agent VARCHAR,
        tombstoned_at VARCHAR,
        tombstone_reason VARCHAR,
        PRIMARY KEY (graph, id)
    )""",
    """CREATE TABLE ledger (
        graph VARCHAR NOT NULL,
        seq BIGINT NOT NULL,
        kind VARCHAR NOT NULL,
        entity VARCHAR NOT NULL,
        payload VARCHAR NOT NULL,
        "at" VARCHAR NOT NULL,
        prev_checksum VARCHAR NOT NULL,
        checksum VARCHAR NOT NULL,
        invalidated_at VARCHAR,
        invalidated_reason VARCHAR,
        PRIMARY KEY (graph, seq)
    )""",
    """CREATE TABLE heads (
        graph VARCHAR PRIMARY KEY,
        seq BIGINT NOT NULL,
        checksum VARCHAR NOT NULL
    )""",
)


# One row per (node, word): ``tf`` is the word's weighted count in the node, ``dl`` the
# node's weighted length (see ``rows.term_counts``), the inputs of BM25.
INDEX_TERMS = """
    INSERT INTO node_terms (graph, id, term, tf, dl)
    SELECT $graph, $id, unnest($terms::VARCHAR[]), unnest($tfs::DOUBLE[]), $dl
"""


def index_node(
    conn: duckdb.DuckDBPyConnection, graph: str, node_id: str, label: str, rationale: str | None
) -> None:
    """Add one node's rows to the search index."""
    counts, length = term_counts(label, rationale)
    if counts:
        params = {"graph": graph, "id": node_id, "dl": length}
        conn.execute(INDEX_TERMS, params | {"terms": list(counts), "tfs": list(counts.values())})


def _index_existing(conn: duckdb.DuckDBPyConnection) -> None:
    """Index the nodes written before the search migration."""
    rows = conn.execute("SELECT graph, id, label, rationale FROM nodes ORDER BY graph, id")
    for graph, node_id, label, rationale in rows.fetchall():
        index_node(conn, graph, node_id, label, rationale)


_SEARCH = (
    # DuckDB's fts extension is not always installable, so search keeps its own inverted
    # index, maintained by ``writes`` in the transaction of every change to a node's text.
    """CREATE TABLE node_terms (
        graph VARCHAR NOT NULL,
        id VARCHAR NOT NULL,
        term VARCHAR NOT NULL,
        tf DOUBLE NOT NULL,
        dl DOUBLE NOT NULL
    )""",
)

# Vectors are derived data, like the search index: not ledger events (see
# ``decisis.stores.duckdb_store.vectors``). A space's dimension is fixed by its first
# vector; ``FLOAT[]`` lists, since one column holds spaces of every dimension.
_VECTORS = (
    """CREATE TABLE vector_spaces (
        graph VARCHAR NOT NULL,
        space VARCHAR NOT NULL,
        dim INTEGER NOT NULL CHECK (dim > 0),
        PRIMARY KEY (graph, space)
    )""",
    """CREATE TABLE vectors (
        graph VARCHAR NOT NULL,
        space VARCHAR NOT NULL,
        id VARCHAR NOT NULL,
        vector FLOAT[] NOT NULL,
        digest VARCHAR
    )""",
)


def _refold(conn: duckdb.DuckDBPyConnection) -> None:
    """``decisis.stores.refold`` on every graph: a candidate no longer retires."""
    from decisis.stores.dbapi_writes import rewrite_node, stored_nodes
    from decisis.stores.duckdb_store import queries
    from decisis.stores.refold import refold

    refold(
        conn, queries.QUERIES.graphs(conn), queries.QUERIES.events_page, stored_nodes, rewrite_node
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core tables: nodes, edges, ledger, heads", _CORE),
    Migration(2, "full-text search: an inverted index of node words", _SEARCH, _index_existing),
    Migration(3, "vectors: float lists per graph, space and node", _VECTORS),
    Migration(4, "retirement follows the link's state (nodes refolded)", (), _refold),
    Migration(5, "Merkle tree over the ledger, and signed checkpoints", _TYPES.merkle()),
    Migration(6, "derived data kept by digest beside the graph", _TYPES.derived()),
)
SCHEMA_VERSION = MIGRATIONS[-1].version

_RECORD_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name VARCHAR NOT NULL,
    applied_at VARCHAR NOT NULL
)"""


def schema_version(conn: duckdb.DuckDBPyConnection) -> int:
    """The highest migration recorded in the database (0 for a new one)."""
    exists = conn.execute(
        "SELECT 1 FROM duckdb_tables() WHERE schema_name = 'main' "
        "AND table_name = 'schema_migrations' AND NOT temporary"
    ).fetchone()
    if exists is None:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    return int(row[0] or 0) if row is not None else 0


def _transact(
    conn: duckdb.DuckDBPyConnection, work: Callable[[duckdb.DuckDBPyConnection], None]
) -> None:
    in_transaction(conn, "BEGIN TRANSACTION", work)


MIGRATOR = Migrator(MIGRATIONS, _RECORD_TABLE, DUCKDB, schema_version, _transact)
migrate = MIGRATOR.migrate
