"""Fixtures for the SQLite-only tests: a database file in ``tmp_path`` and a store on it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.stores.sqlite import SQLiteStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "decisis.db"


@pytest.fixture
def sqlite_store(db_path: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(db_path)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def raw(db_path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection to the same file, for looking under (and tampering with) the tables."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()
