"""Durability and files that cannot be written: ``synchronous=FULL`` by default (``NORMAL``
on request), and a read-only folder or medium still opens for reads and ``verify``."""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.errors import StoreError, UnsupportedStore
from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.schema import SCHEMA_VERSION
from tests.stores.read_only import read_only_copy

_FULL, _NORMAL = 2, 1  # what PRAGMA synchronous reads back


def _synchronous(store: SQLiteStore) -> int:
    return int(store._conn.execute("PRAGMA synchronous").fetchone()[0])


def test_commits_are_durable_by_default(tmp_path: Path) -> None:
    with SQLiteStore.from_url(f"sqlite:///{tmp_path / 'a.db'}") as store:
        assert _synchronous(store) == _FULL


def test_normal_is_an_option_in_the_url(tmp_path: Path) -> None:
    with SQLiteStore.from_url(f"sqlite:///{tmp_path / 'a.db'}?synchronous=normal") as store:
        assert _synchronous(store) == _NORMAL
        assert store.path == str(tmp_path / "a.db")


@pytest.mark.parametrize("query", ["synchronous=off", "journal=delete", "synchronous"])
def test_unknown_options_are_refused_naming_what_is_allowed(tmp_path: Path, query: str) -> None:
    with pytest.raises(UnsupportedStore, match="allowed"):
        SQLiteStore.from_url(f"sqlite:///{tmp_path / 'a.db'}?{query}")


def _written(path: Path) -> str:
    with decisis.open(f"sqlite:///{path}") as graph:
        goal = graph.add_goal("Ship it")
        graph.record_decision("Use SQLite", goal=goal.id)
    assert not Path(f"{path}-wal").exists()  # checkpointed and removed on close
    return goal.id


def test_a_file_in_a_read_only_folder_opens_for_reading_and_verify(tmp_path: Path) -> None:
    source = tmp_path / "a.db"
    goal = _written(source)
    with read_only_copy(source, tmp_path) as copy, decisis.open(f"sqlite:///{copy}") as graph:
        assert isinstance(graph.store, SQLiteStore) and graph.store.read_only
        assert [g.id for g in graph.active_goals()] == [goal]
        assert graph.verify().ok
        with pytest.raises(StoreError, match=r"read-only.*writes do not"):
            graph.add_goal("Refused")
        assert len(graph.nodes()) == 2  # nothing half-written


def test_a_read_only_file_of_an_older_schema_is_refused_clearly(tmp_path: Path) -> None:
    import sqlite3

    source = tmp_path / "old.db"
    _written(source)
    conn = sqlite3.connect(source)
    with conn:
        conn.execute("DELETE FROM schema_migrations WHERE version = ?", (SCHEMA_VERSION,))
    conn.close()
    with read_only_copy(source, tmp_path) as copy:
        with pytest.raises(StoreError, match="open it once where it can be written") as refused:
            SQLiteStore(copy)
        del refused  # its traceback holds the store, whose connection SQLite closes late


def test_a_writable_file_that_fails_to_open_is_not_read_only(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError):
        SQLiteStore(bad)
