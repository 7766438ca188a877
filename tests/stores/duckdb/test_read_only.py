"""A DuckDB file that cannot be written opens read-only, for reads and ``verify``."""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.errors import StoreError
from decisis.stores.duckdb_store import DuckDBStore
from tests.stores.read_only import read_only_copy


def test_a_file_in_a_read_only_folder_opens_for_reading_and_verify(tmp_path: Path) -> None:
    source = tmp_path / "a.duckdb"
    with decisis.open(f"duckdb:///{source}") as graph:
        goal = graph.add_goal("Ship it").id
    with read_only_copy(source, tmp_path) as copy, decisis.open(f"duckdb:///{copy}") as graph:
        assert isinstance(graph.store, DuckDBStore) and graph.store.read_only
        assert [g.id for g in graph.active_goals()] == [goal]
        assert graph.verify().ok
        with pytest.raises(StoreError, match=r"read-only.*writes do not"):
            graph.add_goal("Refused")
