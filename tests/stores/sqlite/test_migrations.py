"""Named, ordered migrations: a database at any older schema upgrades to exactly the fresh one."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from decisis.errors import StoreError
from decisis.stores.replay import verify
from decisis.stores.sqlite import SQLiteStore, writes
from decisis.stores.sqlite.schema import MIGRATIONS, SCHEMA_VERSION, migrate, schema_version
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added

REPO = Path(__file__).resolve().parents[3]


def _query(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return [tuple(row) for row in conn.execute(sql)]


def _schema(path: Path) -> list[tuple[Any, ...]]:
    """Everything the schema is made of, as SQLite itself records it."""
    return _query(path, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")


def _recorded(path: Path) -> list[tuple[Any, ...]]:
    return _query(path, "SELECT version, name FROM schema_migrations ORDER BY version")


def test_migrations_are_numbered_in_order_and_named() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert all(m.name for m in MIGRATIONS)
    assert MIGRATIONS[-1].version == SCHEMA_VERSION


def test_a_fresh_database_records_every_migration(db_path: Path) -> None:
    SQLiteStore(db_path).close()
    assert _recorded(db_path) == [(m.version, m.name) for m in MIGRATIONS]


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
def test_an_older_database_upgrades_to_the_fresh_schema(tmp_path: Path, start: int) -> None:
    """Build a database at version ``start`` with data in it, open it, compare with a fresh one."""
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    SQLiteStore(fresh).close()
    decision = make_node("Use PostgreSQL for the ledger")
    option = make_node("Keep SQLite as the embedded default")
    with closing(sqlite3.connect(old, isolation_level=None)) as conn:
        assert migrate(conn, upto=start) == start
        if start >= 1:  # the tables exist: write a change the way the store does
            conn.execute("BEGIN IMMEDIATE")
            writes.append(conn, G, [node_added(decision), node_added(option)])
            writes.append(conn, G, [edge_added(make_edge(decision, option))])
            conn.execute("COMMIT")

    with SQLiteStore(old) as store:
        if start >= 1:
            assert [h.node.id for h in store.search(G, "postgresql")] == [decision.id]
            assert verify(store, G).ok
    assert _schema(old) == _schema(fresh)
    assert _recorded(old) == _recorded(fresh)
    with closing(sqlite3.connect(old)) as conn:
        assert schema_version(conn) == SCHEMA_VERSION


def test_reopening_applies_nothing_again(db_path: Path) -> None:
    SQLiteStore(db_path).close()
    first = _query(db_path, "SELECT * FROM schema_migrations ORDER BY version")
    SQLiteStore(db_path).close()
    assert _query(db_path, "SELECT * FROM schema_migrations ORDER BY version") == first


def test_a_newer_schema_is_refused_and_left_untouched(db_path: Path) -> None:
    with SQLiteStore(db_path) as store:
        node = make_node()
        store.append(G, [node_added(node)])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (SCHEMA_VERSION + 1, "from the future", "2030-01-01T00:00:00.000000Z"),
        )
    before = _schema(db_path)
    with pytest.raises(StoreError, match=rf"schema version {SCHEMA_VERSION + 1}.*upgrade decisis"):
        SQLiteStore(db_path)
    assert _schema(db_path) == before
    assert _query(db_path, "SELECT id FROM nodes") == [(node.id,)]


_OPEN = (
    "import sys; from decisis.stores.sqlite import SQLiteStore; SQLiteStore(sys.argv[1]).close()"
)


@pytest.mark.slow
def test_processes_opening_a_new_file_at_once_migrate_it_once(db_path: Path) -> None:
    """Each step runs in BEGIN IMMEDIATE and re-checks the version, so racing openers agree."""
    procs = [
        subprocess.Popen([sys.executable, "-c", _OPEN, str(db_path)], cwd=REPO) for _ in range(4)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0, 0]
    assert _recorded(db_path) == [(m.version, m.name) for m in MIGRATIONS]
