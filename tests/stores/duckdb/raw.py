"""A plain DuckDB connection to a file the store has closed (DuckDB locks a file to one
writer, so tests edit it only between opening stores)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb


@contextmanager
def raw(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    conn = duckdb.connect(str(path))
    try:
        yield conn
    finally:
        conn.close()


def query(path: Path, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    with raw(path) as conn:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]
