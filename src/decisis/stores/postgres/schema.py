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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psycopg

from decisis.stores import sql_schema
from decisis.stores.postgres.queries import PAYLOAD_NEW
from decisis.stores.postgres.rows import POSTGRES
from decisis.stores.sql_schema import ColumnTypes, Migrator

if TYPE_CHECKING:
    from decisis.model import Node

__all__ = [
    "MIGRATIONS",
    "MIGRATION_LOCK",
    "MIGRATOR",
    "PAYLOAD_NEW",
    "SCHEMA_VERSION",
    "Migration",
    "migrate",
    "schema_version",
]

Conn = psycopg.Connection[tuple[Any, ...]]

# pg_advisory_xact_lock key held while migrating: "decisis" as a 64-bit number.
MIGRATION_LOCK = 0x6465636973697300


Migration = sql_schema.Migration[Conn]
_TYPES = ColumnTypes('text COLLATE "C"', "text", "integer", "bigint", "bytea")


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

# Traversals as server-side functions (see ``walks``): a whole walk is one call and
# one round trip. The nodes seen so far live in a ``jsonb`` object inside the call
# ({id: [depth, hop]}, a sorted map: membership is a binary search), not in a
# temporary table, whose truncation at commit alone cost more than the walk.
#
# The plans must not depend on statistics: a freshly loaded graph has none
# (autovacuum analyzes it later), and with the default estimates (0.5% for
# ``tombstoned_at IS NULL``) the planner believes a graph has almost no live edges
# and scans all of them at every level. So each statement is written so that only
# index lookups fit: the frontier (an array) drives a ``LATERAL … OFFSET 0`` lookup
# in the endpoint index of ``edges`` (a subquery the planner cannot flatten or turn
# around), and the far node is checked by a correlated scalar subquery on the
# primary key of ``nodes`` (run per row, never reordered). Each edge lookup asks for
# the order its endpoint index gives (type, far end): when the estimates of a graph
# that grew since the last ANALYZE round down to one row, the primary key
# ``(graph, id)`` would cost the same and read the whole graph per frontier node,
# and the sort it would need breaks that tie. The function settings
# rule out hash and merge joins and sequential scans as a second guard, and JIT,
# which the cost of a disabled plan type would otherwise switch on.
_PLANS = (
    "SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET jit = off"
)
_VALID = """(p_as_of IS NULL OR (
                  {a}.recorded_at <= p_as_of AND {a}.valid_from <= p_as_of
                  AND ({a}.valid_until IS NULL OR p_as_of < {a}.valid_until)))"""
_EDGE_OK = f"""e.tombstoned_at IS NULL
                  AND (p_types IS NULL OR e.type = ANY(p_types))
                  AND {_VALID.format(a="e")}"""


def _node_ok(node: str) -> str:
    """True when ``node`` may be walked through (NULL, so false, when it is absent)."""
    return f"""(SELECT n.tombstoned_at IS NULL AND {_VALID.format(a="n")}
                  FROM nodes n WHERE n.graph = p_graph AND n.id = {node})"""


def _level(near: str, far: str) -> str:
    """One breadth-first level: nodes one walkable edge from the frontier, not seen yet,
    each with the smallest "<parent id> <edge type>" hop that reaches it. The far node
    is checked once per node found (HAVING), not once per edge reaching it."""
    return f"""SELECT jsonb_object_agg(t.id, jsonb_build_array(v_depth + 1, t.hop))
            INTO v_found
            FROM (
                SELECT e.{far} AS id, MIN((e.{near} || ' ' || e.type) COLLATE "C") AS hop
                FROM unnest(v_frontier) AS f(id)
                CROSS JOIN LATERAL (
                    SELECT e.{near}, e.{far}, e.type FROM edges e
                    WHERE e.graph = p_graph AND e.{near} = f.id AND {_EDGE_OK}
                    ORDER BY e.type, e.{far} OFFSET 0
                ) e
                WHERE NOT (v_seen ? e.{far})
                GROUP BY e.{far}
                HAVING {_node_ok(f"e.{far}")}
            ) t;"""


_WALKS = (
    # Breadth first from p_start ("out": along edges, else against them), up to
    # p_max_depth levels or until p_stop_at is seen: {id: [depth, hop]} of every node
    # seen, p_start included at depth 0 with a null hop.
    f"""CREATE OR REPLACE FUNCTION decisis_walk(
        p_graph text, p_start text, p_out boolean, p_types text[],
        p_as_of timestamptz, p_max_depth integer, p_stop_at text
    ) RETURNS jsonb LANGUAGE plpgsql {_PLANS} AS $fn$
    DECLARE
        v_seen jsonb := jsonb_build_object(p_start, jsonb_build_array(0, NULL));
        v_frontier text[] := ARRAY[p_start];
        v_found jsonb;
        v_depth integer := 0;
    BEGIN
        WHILE v_depth < p_max_depth AND NOT coalesce(v_seen ? p_stop_at, false) LOOP
            IF p_out THEN
            {_level("source", "target")}
            ELSE
            {_level("target", "source")}
            END IF;
            EXIT WHEN v_found IS NULL;
            v_seen := v_seen || v_found;
            v_frontier := ARRAY(SELECT jsonb_object_keys(v_found));
            v_depth := v_depth + 1;
        END LOOP;
        RETURN v_seen;
    END
    $fn$""",
    # Every node reached from p_start with its depth and first hop, ordered by (depth, id).
    f"""CREATE OR REPLACE FUNCTION decisis_traverse(
        p_graph text, p_start text, p_out boolean, p_types text[],
        p_as_of timestamptz, p_max_depth integer
    ) RETURNS TABLE (reached_depth integer, reached_hop text, reached_node nodes)
    LANGUAGE plpgsql {_PLANS} AS $fn$
    BEGIN
        RETURN QUERY
            SELECT r.depth, r.hop,
                   (SELECT n FROM nodes n WHERE n.graph = p_graph AND n.id = r.id)
            FROM (
                SELECT kv.key COLLATE "C" AS id, (kv.value ->> 0)::integer AS depth,
                       kv.value ->> 1 AS hop
                FROM jsonb_each(decisis_walk(
                    p_graph, p_start, p_out, p_types, p_as_of, p_max_depth, NULL)) kv
            ) r
            WHERE r.depth > 0
            ORDER BY r.depth, r.id;
    END
    $fn$""",
    # The lexicographically smallest shortest path p_source -> p_target ('{{}}' if none):
    # distances to the target by a backward walk, then forward from the source, always
    # to the smallest id one step closer.
    f"""CREATE OR REPLACE FUNCTION decisis_path(
        p_graph text, p_source text, p_target text, p_types text[],
        p_as_of timestamptz, p_max_depth integer
    ) RETURNS text[] LANGUAGE plpgsql {_PLANS} AS $fn$
    DECLARE
        v_seen jsonb;
        v_distance integer;
        v_path text[] := ARRAY[p_source];
        v_next text;
    BEGIN
        v_seen := decisis_walk(
            p_graph, p_target, false, p_types, p_as_of, p_max_depth, p_source);
        v_distance := (v_seen -> p_source ->> 0)::integer;
        IF v_distance IS NULL THEN
            RETURN '{{}}';
        END IF;
        FOR v_closer IN REVERSE v_distance - 1 .. 0 LOOP
            SELECT MIN(e.target) INTO v_next
            FROM (
                SELECT e.target FROM edges e
                WHERE e.graph = p_graph AND e.source = v_path[cardinality(v_path)]
                  AND {_EDGE_OK}
                  AND (v_seen -> e.target ->> 0)::integer = v_closer
                  AND {_node_ok("e.target")}
                ORDER BY e.type, e.target OFFSET 0
            ) e;
            v_path := v_path || v_next;
        END LOOP;
        RETURN v_path;
    END
    $fn$""",
)

# Vectors are derived data, like the search column: not ledger events. ``embedding``
# holds plain arrays; when pgvector can be had, ``vectors.prepare`` adds an
# ``embedding_v vector`` column at open and indexes each space (see
# ``decisis.stores.postgres.vectors``), since that depends on the server, not on
# this code's version. A space's dimension is fixed by its first vector; its version is
# a token every write to it replaces, so a cached matrix knows it is stale.
_VECTORS = (
    """CREATE TABLE vector_spaces (
        graph text COLLATE "C" NOT NULL,
        space text COLLATE "C" NOT NULL,
        dim integer NOT NULL CHECK (dim > 0),
        version text NOT NULL,
        PRIMARY KEY (graph, space)
    )""",
    """CREATE TABLE vectors (
        graph text COLLATE "C" NOT NULL,
        space text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        embedding real[],
        digest text,
        PRIMARY KEY (graph, space, id),
        FOREIGN KEY (graph, space) REFERENCES vector_spaces (graph, space) ON DELETE CASCADE,
        FOREIGN KEY (graph, id) REFERENCES nodes (graph, id)
    )""",
)

_LEDGER_NEW = (f"CREATE INDEX ledger_by_new ON ledger (graph, {PAYLOAD_NEW})",)


def _refold(conn: Conn) -> None:
    """``decisis.stores.refold`` on every graph: a candidate no longer retires."""
    from decisis.stores.postgres import queries
    from decisis.stores.postgres.rows import NODE_COLUMNS, NODE_FIELDS, node_from_row, node_values
    from decisis.stores.refold import refold

    def stored(c: Conn, graph: str) -> list[Node]:
        sql = f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = %s ORDER BY n.id"
        return [node_from_row(row) for row in c.execute(sql, (graph,)).fetchall()]

    update = (
        f"UPDATE nodes SET {', '.join(f'{name} = %s' for name in NODE_FIELDS[1:])} "
        "WHERE graph = %s AND id = %s"
    )

    def write(c: Conn, graph: str, node: Node) -> None:
        c.execute(update, [*node_values(node)[1:], graph, node.id])

    refold(conn, queries.QUERIES.graphs(conn), queries.QUERIES.events_page, stored, write)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core tables: nodes, edges, ledger, heads", _CORE),
    Migration(2, "full-text search over node label and rationale", _SEARCH),
    Migration(3, "server-side traversal functions, planned on the endpoint indexes", _WALKS),
    Migration(4, "vectors: arrays per graph, space and node (pgvector when present)", _VECTORS),
    Migration(5, "ledger entries by the record a payload names new, for history", _LEDGER_NEW),
    Migration(6, "retirement follows the link's state (nodes refolded)", (), _refold),
    Migration(7, "Merkle tree over the ledger, and signed checkpoints", _TYPES.merkle()),
    Migration(8, "derived data kept by digest beside the graph", _TYPES.derived()),
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


def _locked(conn: Conn, work: Callable[[Conn], None]) -> None:
    """``work`` in one transaction holding the migration lock (``conn`` in autocommit)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        work(conn)


MIGRATOR = Migrator(MIGRATIONS, _RECORD_TABLE, POSTGRES, schema_version, _locked)
migrate = MIGRATOR.migrate
