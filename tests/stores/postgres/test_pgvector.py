"""pgvector: used when the server has it (an HNSW index per space, and the planner picks it),
arrays and brute force when it has not, and a database of arrays switches over, vectors
intact, once the extension appears.

The tests on pgvector use the server ``DECISIS_TEST_PGVECTOR_URL`` names, or start a
throwaway one (``tests.stores.postgres.pgvector``); they fail, never skip, without one.
The conformance suite in ``tests/stores/test_vectors.py`` also runs on pgvector.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import numpy as np
import psycopg
import pytest
from psycopg import sql

from decisis.stores.postgres import PostgresStore, vectors, writes
from decisis.stores.postgres.schema import migrate
from decisis.stores.vectors import MatrixCache, check_batch
from tests.stores.helpers import G, add_chain, make_node, node_added
from tests.stores.postgres.pgvector import PgvectorStore, pgvector_url
from tests.stores.postgres.server import admin

S = "test-model:abc123:note"


@pytest.fixture
def pgv_store() -> Iterator[PgvectorStore]:
    store = PgvectorStore()
    try:
        yield store
    finally:
        store.close()


def _random(n: int, dim: int, seed: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)


def test_without_pgvector_vectors_are_plain_arrays(pg_store: PostgresStore) -> None:
    """The plain test server has no pgvector: the store says so and still ranks exactly."""
    with admin() as conn:
        available = conn.execute(
            "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
        ).fetchone()
    assert pg_store.vector_index == ("pgvector-hnsw" if available else "brute-force")
    ids = [n.id for n in add_chain(pg_store, 3)]
    pg_store.put_vectors(G, S, list(zip(ids, [[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]], strict=True)))
    assert [h.id for h in pg_store.nearest(G, S, [1.0, 0.1], 2)] == ids[:2]


def test_each_space_gets_an_hnsw_index_that_the_planner_uses(pgv_store: PgvectorStore) -> None:
    """Large enough that the planner prefers the index (on 1,500 rows a scan is cheaper)."""
    ids = [n.id for n in add_chain(pgv_store, 6000)]
    matrix = _random(len(ids), 32)
    pgv_store.put_vectors(G, S, list(zip(ids, matrix, strict=True)))
    with psycopg.connect(pgv_store.url, autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT indexname FROM pg_indexes").fetchall()]
        assert sum(name.startswith("vectors_hnsw_") for name in names) == 1
        conn.execute("ANALYZE")
        plans: list[str] = []
        conn.add_notice_handler(lambda diag: plans.append(diag.message_primary or ""))
        for setting in (
            "LOAD 'auto_explain'",
            "SET auto_explain.log_min_duration = 0",
            "SET auto_explain.log_level = NOTICE",
        ):
            conn.execute(setting)
        mode = vectors.prepare(conn)
        with conn.transaction():
            hits = vectors.nearest(conn, mode, MatrixCache(), G, S, matrix[7], 5, None, None)
    assert hits[0].id == ids[7]
    assert any("Index Scan using vectors_hnsw_" in plan for plan in plans), plans


def test_the_index_finds_what_brute_force_finds(pgv_store: PgvectorStore) -> None:
    """HNSW is approximate: on 1,500 random vectors its top 10 keeps at least 9 of 10."""
    ids = [n.id for n in add_chain(pgv_store, 1500)]
    matrix = _random(len(ids), 48, seed=11)
    pgv_store.put_vectors(G, S, list(zip(ids, matrix, strict=True)))
    unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    found = 0
    for query in _random(20, 48, seed=12):
        exact = {ids[i] for i in np.argsort(-(unit @ query))[:10]}
        found += len(exact & {h.id for h in pgv_store.nearest(G, S, query, 10)})
    assert found >= 0.9 * 200


def test_large_k_and_wide_spaces_are_scanned_exactly(pgv_store: PgvectorStore) -> None:
    ids = [n.id for n in add_chain(pgv_store, 30)]
    wide = _random(len(ids), vectors.HNSW_MAX_DIM + 1)
    pgv_store.put_vectors(G, "wide", list(zip(ids, wide, strict=True)))
    assert pgv_store.nearest(G, "wide", wide[4], 1)[0].id == ids[4]
    pgv_store.put_vectors(G, S, list(zip(ids, _random(len(ids), 8), strict=True)))
    assert len(pgv_store.nearest(G, S, _random(1, 8)[0], vectors.MAX_EF_SEARCH + 1)) == len(ids)
    pgv_store.delete_vectors(G, S)
    with psycopg.connect(pgv_store.url) as conn:
        names = [r[0] for r in conn.execute("SELECT indexname FROM pg_indexes").fetchall()]
    assert not any(name.startswith("vectors_hnsw_") for name in names)  # dropped with the space


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """A new database on the pgvector server, without the extension, dropped afterwards."""
    server = pgvector_url()
    name = f"decisis_pgv_{uuid.uuid4().hex[:12]}"
    with admin(server) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin(server) as conn:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def test_a_database_of_arrays_switches_to_pgvector_with_its_vectors(fresh_database: str) -> None:
    nodes = [make_node(f"n{i}") for i in range(3)]
    given = {n.id: v for n, v in zip(nodes, _random(3, 4), strict=True)}
    with psycopg.connect(fresh_database, autocommit=True) as conn:
        migrate(conn)  # the tables, as a server without pgvector leaves them
        with conn.transaction():
            writes.append(conn, G, [node_added(n) for n in nodes])
            vectors.put(conn, vectors.VectorMode(), G, S, check_batch(given, None))
        installed = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'vector'")
        assert installed.fetchone() == (0,)
        assert conn.execute("SELECT count(embedding) FROM vectors").fetchone() == (3,)
    with PostgresStore(fresh_database) as store:  # installs the extension, moves the arrays
        assert store.vector_index == "pgvector-hnsw"
        got = store.get_vectors(G, S)
        assert got.keys() == given.keys()
        assert all(np.array_equal(got[i], given[i]) for i in given)
        first = nodes[0].id
        assert store.nearest(G, S, given[first], 1)[0].id == first
    with psycopg.connect(fresh_database) as conn:
        counts = conn.execute("SELECT count(embedding), count(embedding_v) FROM vectors")
        assert counts.fetchone() == (0, 3)


def test_a_deleted_space_takes_a_new_dimension_while_a_reader_holds_an_old_snapshot(
    pgv_store: PgvectorStore,
) -> None:
    """Rows a delete removed stay "recently dead" while any other transaction may still see
    them, and building an index reads those too: the new space's index must not cast them
    to its dimension (this failed now and then in CI, when some other backend held one)."""
    a, b = (n.id for n in add_chain(pgv_store, 2))
    pgv_store.put_vectors(G, S, [(a, [1.0, 0.0]), (b, [0.0, 1.0])])
    with psycopg.connect(pgv_store.url) as reader:
        reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        reader.execute("SELECT 1")  # a snapshot, and no lock on the vectors table
        assert pgv_store.delete_vectors(G, S) == 2
        pgv_store.put_vectors(G, S, [(a, [1.0, 2.0, 3.0])])
    assert pgv_store.vector_spaces(G) == {S: 3}
    assert [h.id for h in pgv_store.nearest(G, S, [1.0, 2.0, 3.0], 1)] == [a]
