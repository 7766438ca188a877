"""SQL stores on files (or a throwaway PostgreSQL schema) that a test can reopen and reach
behind decisis's back with raw SQL: ``(opener, raw, refold_version)`` per backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from decisis.stores import Store, open_store
from tests.stores.postgres.server import admin, drop_schema, new_schema, schema_url

__all__ = ["RAW_BACKENDS", "Opener", "Raw", "rewind"]

Opener = Callable[[], Store]
Raw = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
"""Runs one statement (``%s`` placeholders) on its own connection, committed; its rows."""


@contextmanager
def _sqlite(tmp_path: Path) -> Iterator[tuple[Opener, Raw, int]]:
    import sqlite3

    path = tmp_path / "old.db"

    def raw(sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(path)
        try:
            with conn:
                return conn.execute(sql.replace("%s", "?"), params).fetchall()
        finally:
            conn.close()

    yield (lambda: open_store(f"sqlite:///{path}")), raw, 6


@contextmanager
def _duckdb(tmp_path: Path) -> Iterator[tuple[Opener, Raw, int]]:
    import duckdb

    path = tmp_path / "old.duckdb"

    def raw(sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        conn = duckdb.connect(str(path))
        try:
            return [tuple(row) for row in conn.execute(sql.replace("%s", "?"), params).fetchall()]
        finally:
            conn.close()

    yield (lambda: open_store(f"duckdb:///{path}")), raw, 4


@contextmanager
def _postgres(tmp_path: Path) -> Iterator[tuple[Opener, Raw, int]]:
    schema = new_schema()
    url = schema_url(schema)

    def raw(sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with admin(url) as conn:
            cursor = conn.execute(sql, params)
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []

    try:
        yield (lambda: open_store(url)), raw, 6
    finally:
        drop_schema(schema)


RAW_BACKENDS = {"sqlite": _sqlite, "duckdb": _duckdb, "pg": _postgres}


# The tables of the newest migrations (the Merkle tree and checkpoints, then derived data),
# which every ``rewind`` to a version at or before theirs drops.
_TREE_TABLES = ("merkle_nodes", "merkle_heads", "checkpoints", "derived")


def rewind(raw: Raw, version: int) -> None:
    """Take a store back to before migration ``version`` (the refold's, or the tree's): its
    record and every later one gone, the tree's tables and later ones dropped, as the code
    before wrote it."""
    raw("DELETE FROM schema_migrations WHERE version >= %s", (version,))
    for table in _TREE_TABLES:
        raw(f"DROP TABLE {table}", ())
