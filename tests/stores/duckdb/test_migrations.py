"""Named, ordered migrations: a DuckDB file at any older schema upgrades to exactly the
fresh one, and a newer one is refused untouched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from decisis.errors import StoreError
from decisis.stores.duckdb_store import DuckDBStore, writes
from decisis.stores.duckdb_store.schema import MIGRATIONS, SCHEMA_VERSION, migrate, schema_version
from decisis.stores.replay import verify
from tests.stores.duckdb.raw import query, raw
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added

_SCHEMA = """
    SELECT table_name, column_name, data_type, is_nullable, column_default
    FROM information_schema.columns WHERE table_schema = 'main'
    ORDER BY table_name, ordinal_position
"""
_CONSTRAINTS = """
    SELECT table_name, constraint_type, constraint_column_names::VARCHAR
    FROM duckdb_constraints() WHERE schema_name = 'main'
    ORDER BY ALL
"""


def _schema(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every column and constraint, as DuckDB itself records them."""
    return query(path, _SCHEMA), query(path, _CONSTRAINTS)


def _recorded(path: Path) -> list[tuple[Any, ...]]:
    return query(path, "SELECT version, name FROM schema_migrations ORDER BY version")


def test_migrations_are_numbered_in_order_and_named() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert all(m.name for m in MIGRATIONS)
    assert MIGRATIONS[-1].version == SCHEMA_VERSION


def test_a_fresh_database_records_every_migration(db_path: Path) -> None:
    DuckDBStore(db_path).close()
    assert _recorded(db_path) == [(m.version, m.name) for m in MIGRATIONS]


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
def test_an_older_database_upgrades_to_the_fresh_schema(tmp_path: Path, start: int) -> None:
    """Build a file at version ``start`` with data in it, open it, compare with a fresh one;
    nodes written before the search migration are found by search after it."""
    fresh, old = tmp_path / "fresh.duckdb", tmp_path / "old.duckdb"
    DuckDBStore(fresh).close()
    decision = make_node("Use PostgreSQL for the ledger")
    option = make_node("Keep SQLite as the embedded default")
    with raw(old) as conn:
        assert migrate(conn, upto=start) == start
        if start >= 1:  # the tables exist: write a change the way the store does
            conn.execute("BEGIN TRANSACTION")
            if start < 2:  # no search index yet: write the rows without it
                conn.execute(
                    "CREATE TEMP TABLE node_terms (graph VARCHAR, id VARCHAR, "
                    "term VARCHAR, tf DOUBLE, dl DOUBLE)"
                )
            writes.append(conn, G, [node_added(decision), node_added(option)])
            writes.append(conn, G, [edge_added(make_edge(decision, option))])
            conn.execute("COMMIT")

    with DuckDBStore(old) as store:
        if start >= 1:
            assert [h.node.id for h in store.search(G, "postgresql")] == [decision.id]
            assert verify(store, G).ok
    assert _schema(old) == _schema(fresh)
    assert _recorded(old) == _recorded(fresh)
    with raw(old) as conn:
        assert schema_version(conn) == SCHEMA_VERSION


def test_reopening_applies_nothing_again(db_path: Path) -> None:
    DuckDBStore(db_path).close()
    first = query(db_path, "SELECT * FROM schema_migrations ORDER BY version")
    DuckDBStore(db_path).close()
    assert query(db_path, "SELECT * FROM schema_migrations ORDER BY version") == first


def test_a_newer_schema_is_refused_and_left_untouched(db_path: Path) -> None:
    with DuckDBStore(db_path) as store:
        node = make_node()
        store.append(G, [node_added(node)])
    with raw(db_path) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (SCHEMA_VERSION + 1, "from the future", "2030-01-01T00:00:00.000000Z"),
        )
    before = _schema(db_path)
    with pytest.raises(StoreError, match=rf"schema version {SCHEMA_VERSION + 1}.*upgrade decisis"):
        DuckDBStore(db_path)
    assert _schema(db_path) == before
    assert query(db_path, "SELECT id FROM nodes") == [(node.id,)]
