"""Vectors in PostgreSQL: pgvector with an HNSW index when the extension can be had,
else ``real[]`` arrays ranked by brute force.

At open, ``prepare`` looks for pgvector (``CREATE EXTENSION IF NOT EXISTS vector``
when it is available but not installed, which needs the privilege to do so). With
it, the ``vectors`` table of migration 4 gains an ``embedding_v vector`` column
(existing arrays move into it), and each space gets a partial HNSW index with
cosine ops on ``embedding_v::vector(dim)`` for its (graph, space): one index per
space, since a column of mixed dimensions cannot be indexed as a whole. Without it
vectors stay in ``embedding real[]`` and ``nearest`` ranks them with numpy, read in
PostgreSQL's binary array format straight into numpy (no Python float per value).

With the index, ``nearest`` is approximate (HNSW, ``ef_search`` at least ``2k``, and
pgvector 0.8's iterative scan so filtered-out nodes do not shorten the answer); with
``ids``, above 1000 results, or for spaces wider than 2000 (HNSW's limit) it scans
exactly. Without pgvector, the space is read once into a matrix the store keeps
(``MatrixCache``) until the space's version changes; each query then only asks the
server which nodes to leave out. pgvector's objects are named with their schema, so
decisis's own schema need not be on the same ``search_path``. Vectors are derived data,
outside the ledger.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import numpy as np
import psycopg
from numpy.typing import NDArray
from psycopg import sql
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format

from decisis.errors import StoreError
from decisis.stores.base import VectorHit, VectorLike
from decisis.stores.postgres.rows import utc, valid_at
from decisis.stores.postgres.schema import MIGRATION_LOCK
from decisis.stores.vectors import (
    MatrixCache,
    SpaceMatrix,
    VectorBatch,
    check_ids,
    check_nodes,
    check_query,
    dim_mismatch,
    new_version,
    stored_in_order,
    wanted_ids,
)

__all__ = ["VectorIndex", "VectorMode", "delete", "get", "nearest", "prepare", "put", "spaces"]

Conn = psycopg.Connection[tuple[Any, ...]]
VectorIndex = Literal["pgvector-hnsw", "brute-force"]

HNSW_MAX_DIM = 2000  # pgvector indexes ``vector`` columns up to this many dimensions
MAX_EF_SEARCH = 1000  # pgvector's ceiling for hnsw.ef_search; beyond it, scan exactly
# Candidates the index walk keeps: pgvector's default is 40. On 50,000 text embeddings
# (256-d) recall@10 was 0.85 at 40, 0.87 at 100 and 0.95 at 200, for 7-14 ms a query.
MIN_EF_SEARCH = 100
_BUILD_MEMORY = "256MB"  # at least this for building a space's index (its transaction only)
_RAISE_BUILD_MEMORY = """SELECT set_config('maintenance_work_mem', %(memory)s, true)
    WHERE pg_size_bytes(current_setting('maintenance_work_mem')) < pg_size_bytes(%(memory)s)"""
_FLOAT4, _FLOAT4_ARRAY = 700, 1021  # built-in type oids
_ELEMENTS = np.dtype([("length", ">i4"), ("value", ">f4")])  # binary array element layout


@dataclass(frozen=True, slots=True)
class VectorMode:
    """How this database keeps vectors: pgvector's schema and version, or plain arrays."""

    schema: str | None = None
    version: str | None = None

    @property
    def index(self) -> VectorIndex:
        return "pgvector-hnsw" if self.schema is not None else "brute-force"

    def name(self, *parts: str) -> sql.Composed:
        """A pgvector object (type or operator class) named with its schema."""
        assert self.schema is not None
        return sql.SQL(".").join([sql.Identifier(self.schema), *map(sql.Identifier, parts)])

    def distance(self) -> sql.Composable:
        """pgvector's cosine distance operator, named with its schema."""
        assert self.schema is not None
        return sql.SQL("OPERATOR({}.<=>)").format(sql.Identifier(self.schema))

    @property
    def iterative(self) -> bool:
        """pgvector 0.8 can keep scanning an index until ``LIMIT`` rows pass the filters."""
        parts = tuple(int(p) for p in (self.version or "0").split(".")[:2] if p.isdigit())
        return parts >= (0, 8)


# -- numpy <-> PostgreSQL binary real[] ------------------------------------------


class Float4ArrayDumper(Dumper):
    """A 1-D float32 array as a binary ``real[]`` parameter."""

    format = Format.BINARY
    oid = _FLOAT4_ARRAY

    def dump(self, obj: Any) -> Buffer:
        values = np.asarray(obj, dtype=np.float32).reshape(-1)
        body = np.empty(values.size, dtype=_ELEMENTS)
        body["length"] = 4
        body["value"] = values
        return struct.pack(">iiIii", 1, 0, _FLOAT4, values.size, 1) + body.tobytes()


class Float4ArrayLoader(Loader):
    """A binary ``real[]`` result as a float32 numpy array."""

    format = Format.BINARY

    def load(self, data: Buffer) -> NDArray[np.float32]:
        raw = bytes(data)
        ndim, has_null, _ = struct.unpack_from(">iiI", raw)
        if ndim == 0:
            return np.zeros(0, dtype=np.float32)
        if ndim != 1 or has_null:
            raise StoreError("a stored vector is not a one-dimensional array without nulls")
        (count,) = struct.unpack_from(">i", raw, 12)
        return np.frombuffer(raw, dtype=_ELEMENTS, count=count, offset=20)["value"].astype(
            np.float32
        )


def _cursor(conn: Conn) -> psycopg.Cursor[tuple[Any, ...]]:
    """A binary cursor that sends numpy arrays and reads ``real[]`` as numpy arrays."""
    cur = conn.cursor(binary=True)
    cur.adapters.register_dumper(np.ndarray, Float4ArrayDumper)
    cur.adapters.register_loader(_FLOAT4_ARRAY, Float4ArrayLoader)
    return cur


# -- finding and switching on pgvector ---------------------------------------------


def _extension(conn: Conn) -> tuple[str, str] | None:
    row = conn.execute(
        "SELECT n.nspname, e.extversion FROM pg_extension e"
        " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'"
    ).fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


def _column_type_schema(conn: Conn) -> str | None:
    """The schema of ``vectors.embedding_v``'s type, or None when the column is absent."""
    row = conn.execute(
        "SELECT n.nspname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid"
        " JOIN pg_namespace n ON n.oid = t.typnamespace"
        " WHERE a.attrelid = to_regclass('vectors') AND a.attname = 'embedding_v'"
        " AND NOT a.attisdropped"
    ).fetchone()
    return None if row is None else str(row[0])


_AVAILABLE = "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"


def prepare(conn: Conn) -> VectorMode:
    """Use pgvector when it is installed or can be (``conn`` in autocommit, schema migrated).

    Failing to install it (not available, not allowed) is no error: vectors then stay
    plain arrays. The mode is read back from the table, so a process that lost a race
    to switch, or could not, still uses whatever the table holds.
    """
    found = _extension(conn)
    if found is None and conn.execute(_AVAILABLE).fetchone():
        with suppress(psycopg.Error):  # e.g. not a superuser: plain arrays then
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        found = _extension(conn)
    if found is not None and _column_type_schema(conn) is None:
        with suppress(psycopg.Error), conn.transaction():  # not the owner: plain arrays then
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            if _column_type_schema(conn) is None:
                _switch_to_pgvector(conn, VectorMode(*found))
    schema = _column_type_schema(conn)
    return VectorMode(schema, None if found is None else found[1]) if schema else VectorMode()


def _switch_to_pgvector(conn: Conn, mode: VectorMode) -> None:
    """Add the pgvector column, move the arrays into it, and index every space."""
    conn.execute(
        sql.SQL("ALTER TABLE vectors ADD COLUMN embedding_v {}").format(mode.name("vector"))
    )
    conn.execute(
        sql.SQL(
            "UPDATE vectors SET embedding_v = embedding::{}, embedding = NULL"
            " WHERE embedding IS NOT NULL"
        ).format(mode.name("vector"))
    )
    for graph, space, dim in conn.execute("SELECT graph, space, dim FROM vector_spaces").fetchall():
        _create_index(conn, mode, str(graph), str(space), int(dim))


def _index_name(graph: str, space: str) -> sql.Identifier:
    digest = hashlib.sha256(f"{graph}\0{space}".encode()).hexdigest()[:24]
    return sql.Identifier(f"vectors_hnsw_{digest}")


def _typed(mode: VectorMode, dim: int) -> sql.Composable:
    return sql.SQL("{}({})").format(mode.name("vector"), sql.Literal(dim))


def _of_dim(mode: VectorMode, dim: int, column: str) -> sql.Composable:
    """``column`` holds vectors of ``dim`` dimensions: in an index's predicate and in the
    queries that use it, so the predicate is proven from the query."""
    return sql.SQL("{}({}) = {}").format(
        mode.name("vector_dims"), sql.SQL(column), sql.Literal(dim)
    )


def _create_index(conn: Conn, mode: VectorMode, graph: str, space: str, dim: int) -> None:
    """One partial HNSW index per space; its predicate holds literals, not parameters, so
    a query naming the same graph and space is proven to fit it. The predicate also names
    the dimension: building an index reads rows a delete removed while another transaction
    may still see them, and a space deleted and made anew with another dimension would
    otherwise have its old rows cast to the new one (and the build fail)."""
    if dim > HNSW_MAX_DIM:
        return
    conn.execute(
        sql.SQL(
            "CREATE INDEX IF NOT EXISTS {name} ON vectors USING hnsw"
            " ((embedding_v::{typed}) {ops}) WHERE graph = {graph} AND space = {space}"
            " AND {of_dim}"
        ).format(
            name=_index_name(graph, space),
            typed=_typed(mode, dim),
            ops=mode.name("vector_cosine_ops"),
            graph=sql.Literal(graph),
            space=sql.Literal(space),
            of_dim=_of_dim(mode, dim, "embedding_v"),
        )
    )


# -- reads and writes ---------------------------------------------------------------


def _space(conn: Conn, graph: str, space: str) -> tuple[int, str] | None:
    """The space's dimension and version, or None when it has no vectors."""
    row = conn.execute(
        "SELECT dim, version FROM vector_spaces WHERE graph = %s AND space = %s", (graph, space)
    ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def put(conn: Conn, mode: VectorMode, graph: str, space: str, batch: VectorBatch) -> int:
    """Check the batch against storage, then upsert it (in the caller's transaction)."""
    if not batch.ids:
        return 0
    version = new_version()
    created = conn.execute(
        "INSERT INTO vector_spaces (graph, space, dim, version) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT DO NOTHING RETURNING dim",
        (graph, space, batch.dim, version),
    ).fetchone()
    if created is None:  # the row lock also queues writers of one space behind each other
        row = conn.execute(
            "UPDATE vector_spaces SET version = %s WHERE graph = %s AND space = %s RETURNING dim",
            (version, graph, space),
        ).fetchone()
        if row is not None and int(row[0]) != batch.dim:
            raise dim_mismatch(space, int(row[0]), batch.dim, batch.ids[0])
    rows = conn.execute(
        "SELECT id, tombstoned_at IS NOT NULL FROM nodes WHERE graph = %s AND id = ANY(%s)",
        (graph, batch.ids),
    ).fetchall()
    check_nodes(graph, batch.ids, {str(i): bool(gone) for i, gone in rows})
    if mode.schema is None:
        statement: sql.Composed | sql.SQL = sql.SQL(
            "INSERT INTO vectors (graph, space, id, embedding, digest) VALUES (%s, %s, %s, %b, %s)"
            " ON CONFLICT (graph, space, id) DO UPDATE"
            " SET embedding = excluded.embedding, digest = excluded.digest"
        )
    else:
        statement = sql.SQL(
            "INSERT INTO vectors (graph, space, id, embedding_v, digest)"
            " VALUES (%s, %s, %s, %b::{vector}, %s) ON CONFLICT (graph, space, id) DO UPDATE"
            " SET embedding = NULL, embedding_v = excluded.embedding_v, digest = excluded.digest"
        ).format(vector=mode.name("vector"))
    with _cursor(conn) as cur:
        cur.executemany(
            statement,
            [
                (graph, space, node_id, batch.matrix[i], batch.digests[i])
                for i, node_id in enumerate(batch.ids)
            ],
        )
    if created is not None and mode.schema is not None:  # building beats inserting one by one
        conn.execute(_RAISE_BUILD_MEMORY, {"memory": _BUILD_MEMORY})
        _create_index(conn, mode, graph, space, batch.dim)
    return len(batch.ids)


def _embedding(mode: VectorMode) -> sql.Composable:
    """The stored vector as ``real[]``, wherever this database keeps it."""
    if mode.schema is None:
        return sql.SQL("v.embedding")
    return sql.SQL("coalesce(v.embedding_v::real[], v.embedding)")


def _live(extra: str = "") -> sql.Composable:
    return sql.SQL(
        " FROM vectors v JOIN nodes n ON n.graph = v.graph AND n.id = v.id"
        " WHERE v.graph = %(graph)s AND v.space = %(space)s AND n.tombstoned_at IS NULL" + extra
    )


_AMONG = " AND v.id = ANY(%(ids)s)"


def get(
    conn: Conn,
    mode: VectorMode,
    graph: str,
    space: str,
    ids: Sequence[str] | None,
    digests: Mapping[str, str] | None,
) -> dict[str, NDArray[np.float32]]:
    wanted = wanted_ids(check_ids(ids), digests)
    if wanted is not None and not wanted:
        return {}
    query = sql.SQL("SELECT v.id, {}, v.digest").format(_embedding(mode)) + _live(
        "" if wanted is None else _AMONG
    )
    with _cursor(conn) as cur:
        rows = cur.execute(query, {"graph": graph, "space": space, "ids": wanted}).fetchall()
    return stored_in_order(rows, wanted, digests, lambda vector: vector)


def digests(conn: Conn, graph: str, space: str, ids: list[str] | None) -> dict[str, str | None]:
    query = sql.SQL("SELECT v.id, v.digest") + _live("" if ids is None else _AMONG)
    with _cursor(conn) as cur:
        rows = cur.execute(query, {"graph": graph, "space": space, "ids": ids}).fetchall()
    return {str(row[0]): row[1] for row in rows}


def nearest(
    conn: Conn,
    mode: VectorMode,
    cache: MatrixCache,
    graph: str,
    space: str,
    query: VectorLike,
    k: int,
    ids: Sequence[str] | None,
    as_of: datetime | None,
) -> list[VectorHit]:
    """Run inside one snapshot (the index settings are ``SET LOCAL``; without pgvector
    the version, the matrix and the exclusions must agree)."""
    among = check_ids(ids)
    found = _space(conn, graph, space)
    vector = check_query(query, space, None if found is None else found[0])
    if found is None or k == 0 or (among is not None and not among) or not vector.any():
        return []
    dim, version = found
    if mode.schema is None:
        stacked = cache.get(graph, space, version, lambda: _load(conn, graph, space))
        return stacked.nearest(vector, k, among=among, exclude=_left_out(conn, graph, as_of))
    params: dict[str, Any] = {"graph": graph, "space": space, "ids": among, "k": k}
    params |= {"query": vector, "as_of": utc(as_of)}
    extra = ("" if among is None else _AMONG) + ("" if as_of is None else " AND " + valid_at("n"))
    indexed = among is None and k <= MAX_EF_SEARCH and dim <= HNSW_MAX_DIM
    if indexed:
        ef_search = min(MAX_EF_SEARCH, max(MIN_EF_SEARCH, 2 * k))
        conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(ef_search),))
        if mode.iterative:
            conn.execute("SELECT set_config('hnsw.iterative_scan', 'strict_order', true)")
    with _cursor(conn) as cur:
        ranked = cur.execute(_nearest_sql(mode, dim, extra, indexed), params, prepare=False)
        return [VectorHit(str(node_id), float(score)) for node_id, score in ranked.fetchall()]


def _load(conn: Conn, graph: str, space: str) -> SpaceMatrix:
    with _cursor(conn) as cur:
        rows = cur.execute(
            "SELECT id, embedding FROM vectors WHERE graph = %s AND space = %s ORDER BY id",
            (graph, space),
        ).fetchall()
    return SpaceMatrix.build([str(r[0]) for r in rows], np.stack([r[1] for r in rows]))


def _left_out(conn: Conn, graph: str, as_of: datetime | None) -> set[str]:
    """The graph's nodes that ``nearest`` must not return: tombstoned, or not valid then."""
    query = "SELECT n.id FROM nodes n WHERE n.graph = %(graph)s AND (n.tombstoned_at IS NOT NULL"
    if as_of is not None:
        query += " OR NOT " + valid_at("n")
    rows = conn.execute(query + ")", {"graph": graph, "as_of": utc(as_of)}).fetchall()
    return {str(row[0]) for row in rows}


def _nearest_sql(mode: VectorMode, dim: int, extra: str, indexed: bool) -> sql.Composed:
    """Cosine distances in SQL: ordered by the space's HNSW index when ``indexed`` (the
    expression and predicate match the index), else an exact scan (``OFFSET 0`` keeps
    the planner from ordering it by the index)."""
    typed = _typed(mode, dim)
    distance = sql.SQL("v.embedding_v::{typed} {op} %(query)b::{typed}").format(
        typed=typed, op=mode.distance()
    )
    inner = sql.SQL("SELECT v.id, {} AS distance").format(distance) + _live(extra)
    inner += sql.SQL(" AND ") + _of_dim(mode, dim, "v.embedding_v")
    inner += sql.SQL(" ORDER BY distance LIMIT %(k)s" if indexed else " OFFSET 0")
    return sql.SQL(
        "SELECT id, 1 - distance FROM ({}) t WHERE distance <> 'NaN'"
        " ORDER BY distance, id LIMIT %(k)s"
    ).format(inner)


def delete(conn: Conn, mode: VectorMode, graph: str, space: str, ids: Sequence[str] | None) -> int:
    among = check_ids(ids)
    conn.execute(
        "UPDATE vector_spaces SET version = %s WHERE graph = %s AND space = %s",
        (new_version(), graph, space),
    )
    if among is not None:
        cur = conn.execute(
            "DELETE FROM vectors WHERE graph = %s AND space = %s AND id = ANY(%s)",
            (graph, space, among),
        )
        return cur.rowcount
    removed = conn.execute(
        "DELETE FROM vectors WHERE graph = %s AND space = %s", (graph, space)
    ).rowcount
    conn.execute("DELETE FROM vector_spaces WHERE graph = %s AND space = %s", (graph, space))
    if mode.schema is not None:
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(_index_name(graph, space)))
    return removed


def spaces(conn: Conn, graph: str) -> dict[str, int]:
    rows = conn.execute(
        "SELECT space, dim FROM vector_spaces WHERE graph = %s ORDER BY space", (graph,)
    ).fetchall()
    return {str(space): int(dim) for space, dim in rows}
