"""The ``rule.trusted`` UPDATE finds a rule's unjudged links through their index (migration
4), so its cost follows the rule's links, not the graph's size."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.writes import _TRUST_RULE


def test_rule_trusted_update_uses_the_rule_index(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "t.db").close()  # migrated
    with sqlite3.connect(tmp_path / "t.db") as conn:
        params = {"graph": "g", "rule": "same-question", "confidence": 0.75, "at": "x"}
        plan = conn.execute("EXPLAIN QUERY PLAN " + _TRUST_RULE, params).fetchall()
    assert any("USING INDEX edges_by_rule" in str(row[-1]) for row in plan), plan
