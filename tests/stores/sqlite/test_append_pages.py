"""What an append writes in SQLite: few statements, and no page of an index it does not
need (``history``'s index by a payload's ``new`` holds only the entries that name one)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.queries import _HISTORY
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added


def test_history_finds_supersedes_through_the_partial_index(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "t.db").close()  # migrated
    with sqlite3.connect(tmp_path / "t.db") as conn:
        sql = "EXPLAIN QUERY PLAN " + _HISTORY.format(until="")
        plan = conn.execute(sql, {"graph": "g", "id": "x"}).fetchall()
    assert any("USING INDEX ledger_by_new" in str(row[-1]) for row in plan), plan


def test_entries_naming_no_new_record_stay_out_of_that_index(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    a, b = make_node("a"), make_node("b")
    store.append(G, [node_added(a), node_added(b), edge_added(make_edge(a, b))])
    try:
        sql = "SELECT sum(ncell) FROM dbstat WHERE name = 'ledger_by_new'"
        cells = store._conn.execute(sql).fetchone()
    except sqlite3.OperationalError:  # pragma: no cover - an SQLite built without dbstat
        pytest.skip("this SQLite has no dbstat table")
    finally:
        store.close()
    assert cells == (0,)


class _Counting:
    """A connection that keeps the text of each statement it is given (not the triggers')."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.statements: list[str] = []

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self.statements.append(" ".join(sql.split()))
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def test_a_decision_under_a_goal_is_one_read_and_six_writes(tmp_path: Path) -> None:
    """The heads, the new ids and the edge's ends in one read; then the node, the edge,
    both ledger rows in one insert, the head, the Merkle nodes and its head."""
    store = SQLiteStore(tmp_path / "t.db")
    goal = make_node("goal")
    store.append(G, [node_added(goal)])
    decision = make_node("decision")
    counting = _Counting(store._conn)
    store._conn = counting  # type: ignore[assignment]
    store.append(G, [node_added(decision), edge_added(make_edge(goal, decision))])
    store._conn = counting.conn
    store.close()
    ours = counting.statements
    assert ours[0] == "BEGIN IMMEDIATE" and ours[-1] == "COMMIT"
    done = [" ".join(s.split()[:3]) for s in ours[1:-1]]
    assert done == [
        "SELECT h.seq, h.checksum,",
        "INSERT INTO nodes",
        "INSERT INTO edges",
        "INSERT INTO ledger",
        "INSERT INTO heads",
        "INSERT INTO merkle_nodes",
        "UPDATE merkle_heads SET",
    ]
    assert ours[4].count("), (") == 1  # the two ledger rows
