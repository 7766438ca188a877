"""What ``verify`` sees beyond the chain and the tables: the database file, the full-text
index, bytes that are not text, and problems short enough to read."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.graph import Graph
from decisis.stores.sqlite import SQLiteStore
from tests.stores.raw_stores import RAW_BACKENDS


def _built(path: Path) -> str:
    with decisis.open(f"sqlite:///{path}") as graph:
        graph.add_goal("Keep the ledger honest")
        return graph.record_decision("Use Redis for sessions", rationale="fast").id


@pytest.mark.parametrize("backend", RAW_BACKENDS.values(), ids=RAW_BACKENDS.keys())
def test_every_backend_names_what_it_checked(backend: Any, tmp_path: Path) -> None:
    with backend(tmp_path) as (opener, _, _):
        store = opener()
        try:
            graph = Graph(store, "g")
            graph.add_goal("one")
            report = graph.verify()
            assert report.ok, report.problems
            assert "tables against a replay" in report.checked
            assert len(report.checked) > 3, report.checked  # its storage too
        finally:
            store.close()


def test_sqlite_reports_a_full_text_index_that_lost_an_entry(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    decision = _built(path)
    with sqlite3.connect(path) as conn:
        pk, label, rationale = conn.execute(
            "SELECT pk, label, rationale FROM nodes WHERE id = ?", (decision,)
        ).fetchone()
        conn.execute(
            "INSERT INTO nodes_fts (nodes_fts, rowid, label, rationale) VALUES ('delete', ?, ?, ?)",
            (pk, label, rationale),
        )
    with decisis.open(f"sqlite:///{path}") as graph:
        assert graph.search("Redis") == []  # hidden from search ...
        report = graph.verify()
        assert not report.ok and report.first_bad_seq is None  # ... and now named
        assert any("full-text index" in p for p in report.problems)


def test_sqlite_checks_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    _built(path)
    conn = sqlite3.connect(path)  # a table and its index, then the index's page emptied
    conn.execute("CREATE TABLE t (x INTEGER)")
    conn.execute("CREATE INDEX t_x ON t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 't_x'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with path.open("r+b") as raw:  # zero the index's page: the row no longer has its entry
        raw.seek((root - 1) * page_size)
        page = bytearray(raw.read(page_size))
        page[0] = 0x0A  # a leaf index page ...
        page[3:5] = b"\x00\x00"  # ... with no cells
        raw.seek((root - 1) * page_size)
        raw.write(page)
    with decisis.open(f"sqlite:///{path}") as graph:
        report = graph.verify()
        assert not report.ok
        assert any(p.startswith("database file:") for p in report.problems), report.problems
        quick = graph.verify(quick=True)
        assert "database file (PRAGMA quick_check)" in quick.checked


def test_bytes_that_are_not_utf8_are_a_located_failure(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    _built(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE ledger SET payload = CAST(X'7B22ff7D' AS TEXT) WHERE seq = 2")
    with SQLiteStore(path) as store:
        report = Graph(store, "default").verify()
    assert not report.ok and report.first_bad_seq == 2
    assert "entry 2" in report.problems[0] or report.problems[0].startswith("seq 2")


def test_a_table_difference_is_short(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    decision = _built(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE nodes SET rationale = ? WHERE id = ?", ("x" * 30_000, decision))
    with decisis.open(f"sqlite:///{path}") as graph:
        report = graph.verify()
    assert not report.ok
    assert sum(len(p) for p in report.problems) < 1_000
    assert "30002 characters" in report.problems[0]


def test_duckdb_reports_a_search_index_out_of_step(tmp_path: Path) -> None:
    import duckdb

    path = tmp_path / "a.duckdb"
    with decisis.open(f"duckdb:///{path}") as graph:
        decision = graph.record_decision("Use Redis for sessions").id
    conn = duckdb.connect(str(path))
    try:
        conn.execute("DELETE FROM node_terms WHERE id = ? AND term = 'redis'", [decision])
    finally:
        conn.close()
    with decisis.open(f"duckdb:///{path}") as graph:
        report = graph.verify()
    assert not report.ok and any("search index" in p for p in report.problems)


def test_marks_of_a_tombstone_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    decision = _built(path)
    with decisis.open(f"sqlite:///{path}") as graph:
        graph.tombstone(decision, "recorded by mistake")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE ledger SET invalidated_at = NULL, invalidated_reason = NULL")
    with decisis.open(f"sqlite:///{path}") as graph:
        report = graph.verify()
    assert not report.ok and "tombstone mark" in report.problems[0]
