"""Fixtures for the DuckDB-only tests: a database file in ``tmp_path``, a store on it, and
plain DuckDB connections for looking under (and tampering with) the tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.stores.duckdb_store import DuckDBStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "decisis.duckdb"


@pytest.fixture
def duck_store(db_path: Path) -> Iterator[DuckDBStore]:
    store = DuckDBStore(db_path)
    try:
        yield store
    finally:
        store.close()
