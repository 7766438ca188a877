"""Opening a SQLite store: URLs and connection settings. Reopening, on every backend, is
``tests/stores/test_open``."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from decisis.errors import UnsupportedStore
from decisis.stores import open_store
from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.store import BUSY_TIMEOUT_MS
from tests.stores.helpers import (
    G,
    add_chain,
    add_node,
)


def test_relative_url_opens_a_file_under_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    with SQLiteStore.from_url("sqlite:///data/rel.db") as store:
        add_node(store)
        assert store.url == "sqlite:///data/rel.db"
    assert (tmp_path / "data" / "rel.db").is_file()


def test_absolute_url_and_open_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/abs.db"  # tmp_path is absolute: sqlite:////tmp/...
    assert url.startswith("sqlite:////")
    store = open_store(url)
    try:
        assert isinstance(store, SQLiteStore)
        add_node(store)
    finally:
        store.close()
    assert (tmp_path / "abs.db").is_file()


@pytest.mark.parametrize("url", ["sqlite://:memory:", "sqlite:///:memory:"])
def test_in_memory_database(url: str) -> None:
    with SQLiteStore.from_url(url) as store:
        nodes = add_chain(store, 3)
        assert [r.node.id for r in store.traverse(G, nodes[0].id, direction="out")] == [
            n.id for n in nodes[1:]
        ]


@pytest.mark.parametrize(
    "url", ["sqlite://host/x.db", "sqlite://", "sqlite:///", "sqlite:x.db", "postgresql://x/y"]
)
def test_malformed_urls_are_refused(url: str) -> None:
    with pytest.raises(UnsupportedStore, match="sqlite"):
        SQLiteStore.from_url(url)


def test_path_constructor_gives_a_url(db_path: Path) -> None:
    with SQLiteStore(db_path) as store:
        assert store.url == f"sqlite:///{db_path}"
        assert repr(store) == f"SQLiteStore('sqlite:///{db_path}')"


def test_wal_mode_is_set_on_the_file(sqlite_store: SQLiteStore, raw: sqlite3.Connection) -> None:
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_busy_timeout_is_generous() -> None:
    assert BUSY_TIMEOUT_MS >= 5_000


def test_a_writer_waits_for_another_process_lock(sqlite_store: SQLiteStore, db_path: Path) -> None:
    """With a busy timeout, a locked file makes ``append`` wait rather than fail."""
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, lambda: other.execute("COMMIT"))
    release.start()
    started = time.monotonic()
    add_node(sqlite_store)
    release.join()
    other.close()
    assert time.monotonic() - started >= 0.4
    assert len(sqlite_store.nodes(G)) == 1


def test_readers_are_not_blocked_by_a_writer(
    sqlite_store: SQLiteStore, raw: sqlite3.Connection
) -> None:
    """WAL: queries (traversals too, whose temp tables live outside the file) go on while
    another connection holds the write lock, and see only committed data."""
    nodes = add_chain(sqlite_store, 4)
    raw.execute("BEGIN IMMEDIATE")
    raw.execute("UPDATE nodes SET label = 'uncommitted' WHERE id = ?", (nodes[0].id,))
    started = time.monotonic()
    assert len(sqlite_store.traverse(G, nodes[0].id, direction="out")) == 3
    assert sqlite_store.path_between(G, nodes[0].id, nodes[3].id) == [n.id for n in nodes]
    assert sqlite_store.get_node(G, nodes[0].id).label == "step 0"
    assert time.monotonic() - started < 1.0
    raw.execute("ROLLBACK")
