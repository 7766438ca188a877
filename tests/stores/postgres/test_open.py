"""Opening a PostgreSQL store: URLs, named migrations, a newer schema refused, a missing
server or driver reported plainly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from decisis.errors import StoreError, UnsupportedStore
from decisis.stores import open_store
from decisis.stores.postgres import PostgresStore, writes
from decisis.stores.postgres.schema import MIGRATIONS, SCHEMA_VERSION, migrate
from decisis.stores.replay import verify
from tests.stores.helpers import G, add_node, edge_added, make_edge, make_node, node_added
from tests.stores.postgres.server import admin, schema_url

REPO = Path(__file__).resolve().parents[3]


def _query(schema: str, text: str) -> list[tuple[Any, ...]]:
    with admin() as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        return [tuple(row) for row in conn.execute(text)]  # type: ignore[call-overload]


def _shape(schema: str) -> list[tuple[Any, ...]]:
    """Columns, indexes and constraints of the schema, as PostgreSQL's catalogue records them."""
    columns = _query(
        schema,
        "SELECT table_name, column_name, data_type, collation_name, is_nullable, "
        "column_default, generation_expression FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' "
        "ORDER BY table_name, column_name",
    )
    indexes = _query(
        schema,
        "SELECT indexname, regexp_replace(indexdef, ' ON \\S+\\.', ' ON ') FROM pg_indexes "
        "WHERE schemaname = current_schema() ORDER BY indexname",
    )
    constraints = _query(
        schema,
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE connamespace = current_schema()::regnamespace ORDER BY conname",
    )
    return columns + indexes + constraints


def test_migrations_are_numbered_in_order_and_named() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert all(m.name for m in MIGRATIONS)


def test_open_store_picks_postgres_and_records_every_migration(pg_url: str, schema: str) -> None:
    store = open_store(pg_url)
    try:
        assert isinstance(store, PostgresStore)
        add_node(store)
        assert verify(store, G).ok
    finally:
        store.close()
    recorded = _query(schema, "SELECT version, name FROM schema_migrations ORDER BY version")
    assert recorded == [(m.version, m.name) for m in MIGRATIONS]


def test_an_older_schema_upgrades_to_the_fresh_one(pg_url: str, schema: str) -> None:
    """A schema at version 1 holding data opens at the newest version, shaped like a fresh one."""
    decision, option = make_node("Use PostgreSQL for the ledger"), make_node("Keep SQLite")
    tree = next(m for m in MIGRATIONS if m.name.startswith("Merkle tree"))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn, upto=1) == 1
        with conn.transaction():  # today's append keeps the tree: its tables for the writes
            for statement in tree.statements:
                conn.execute(statement)
            writes.append(conn, G, [node_added(decision), node_added(option)])
            writes.append(conn, G, [edge_added(make_edge(decision, option))])
            for table in ("merkle_nodes", "merkle_heads", "checkpoints"):  # as version 1 was
                conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(table)))
    with PostgresStore(pg_url) as store:
        assert verify(store, G).ok
        assert [hit.node.id for hit in store.search(G, "ledger")] == [decision.id]
    fresh = f"{schema}_fresh"
    with admin() as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(fresh)))
    try:
        PostgresStore(schema_url(fresh)).close()
        assert _shape(schema) == _shape(fresh)
    finally:
        with admin() as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(fresh)))


def test_a_newer_schema_is_refused(pg_url: str, schema: str) -> None:
    PostgresStore(pg_url).close()
    with admin() as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        conn.execute(
            "INSERT INTO schema_migrations (version, name) VALUES (%s, 'from the future')",
            (SCHEMA_VERSION + 1,),
        )
    with pytest.raises(StoreError, match="newer than this decisis knows"):
        PostgresStore(pg_url)


def test_an_unreachable_server_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="cannot open PostgreSQL database"):
        PostgresStore("postgresql://nobody@127.0.0.1:1/nowhere")


def test_a_password_never_shows_in_messages() -> None:
    with pytest.raises(StoreError) as caught:
        PostgresStore("postgresql://me:s3cret@127.0.0.1:1/nowhere")
    assert "s3cret" not in str(caught.value)


def test_other_schemes_are_refused() -> None:
    with pytest.raises(UnsupportedStore):
        PostgresStore("mysql://localhost/db")


def test_no_server_fails_the_tests_and_says_how_to_point_them_at_one() -> None:
    with pytest.raises(pytest.fail.Exception, match="DECISIS_TEST_POSTGRES_URL="):
        admin("postgresql://nobody@127.0.0.1:1/nowhere")


def test_without_psycopg_the_message_names_the_extra() -> None:
    """Hide the driver from a fresh interpreter: opening a postgresql:// URL names the extra."""
    code = (
        "import sys; sys.modules['psycopg'] = None\n"
        "from decisis.errors import MissingExtra\n"
        "from decisis.stores import open_store\n"
        "try:\n    open_store('postgresql://localhost/x')\n"
        "except MissingExtra as exc:\n    print(exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert "pip install 'decisis[postgres]'" in out.stdout
