"""A store written before "retirement follows the link's state" opens refolded: the node a
candidate had retired stands again, a stated replacement keeps it retired with its record,
and ``verify`` passes where it failed on the old rows (SQLite, DuckDB, PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from decisis.graph import Graph
from decisis.model import NodeStatus
from decisis.stores import Store, open_store
from decisis.stores.retire import RETIRED_KEY
from tests.stores.postgres.server import admin, drop_schema, new_schema, schema_url

Opener = Callable[[], Store]
Raw = Callable[[str, tuple[Any, ...]], None]


@contextmanager
def _sqlite(tmp_path: Path) -> Iterator[tuple[Opener, Raw, int]]:
    import sqlite3

    path = tmp_path / "old.db"

    def raw(sql: str, params: tuple[Any, ...]) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute(sql.replace("%s", "?"), params)

    yield (lambda: open_store(f"sqlite:///{path}")), raw, 6


@contextmanager
def _duckdb(tmp_path: Path) -> Iterator[tuple[Opener, Raw, int]]:
    import duckdb

    path = tmp_path / "old.duckdb"

    def raw(sql: str, params: tuple[Any, ...]) -> None:
        conn = duckdb.connect(str(path))
        try:
            conn.execute(sql.replace("%s", "?"), params)
        finally:
            conn.close()

    yield (lambda: open_store(f"duckdb:///{path}")), raw, 4


@contextmanager
def _postgres(tmp_path: Path) -> Iterator[tuple[Opener, Raw, int]]:
    schema = new_schema()
    url = schema_url(schema)

    def raw(sql: str, params: tuple[Any, ...]) -> None:
        with admin(url) as conn:
            conn.execute(sql, params)

    try:
        yield (lambda: open_store(url)), raw, 6
    finally:
        drop_schema(schema)


@pytest.mark.parametrize("backend", [_sqlite, _duckdb, _postgres], ids=["sqlite", "duckdb", "pg"])
def test_an_old_store_opens_refolded(backend: Any, tmp_path: Path) -> None:
    with backend(tmp_path) as (opener, raw, version):
        store = opener()
        graph = Graph(store, "g")
        proposed, replaced = graph.add_goal("proposed"), graph.add_goal("replaced")
        newer = graph.add_goal("newer")
        graph.supersede(proposed.id, newer.id, state="candidate", confidence=0.2)
        graph.supersede(replaced.id, newer.id)
        store.close()
        # the rows the code before wrote: a candidate retired its node; no _retired record
        raw("UPDATE nodes SET status = 'superseded' WHERE id = %s", (proposed.id,))
        raw("UPDATE nodes SET metadata = '{}' WHERE id = %s", (replaced.id,))
        raw("DELETE FROM schema_migrations WHERE version = %s", (version,))

        store = opener()
        try:
            graph = Graph(store, "g")
            assert graph.get(proposed.id).status is NodeStatus.ACTIVE
            kept = graph.get(replaced.id)
            assert kept.status is NodeStatus.SUPERSEDED
            assert kept.metadata[RETIRED_KEY]["status"] == "active"
            report = graph.verify()
            assert report.ok, report.problems
        finally:
            store.close()


def test_a_row_changed_beyond_retirement_is_left_for_verify(tmp_path: Path) -> None:
    with _sqlite(tmp_path) as (opener, raw, version):
        store = opener()
        graph = Graph(store, "g")
        node = graph.add_goal("kept")
        store.close()
        raw("UPDATE nodes SET label = 'forged', status = 'superseded' WHERE id = %s", (node.id,))
        raw("DELETE FROM schema_migrations WHERE version = %s", (version,))
        store = opener()
        try:
            report = Graph(store, "g").verify()
            assert not report.ok
            assert "forged" in " ".join(report.problems)
        finally:
            store.close()
