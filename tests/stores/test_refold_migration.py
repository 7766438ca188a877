"""A store written before "retirement follows the link's state" opens refolded: the node a
candidate had retired stands again, a stated replacement keeps it retired with its record,
and ``verify`` passes where it failed on the old rows (SQLite, DuckDB, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from decisis.graph import Graph
from decisis.model import NodeStatus
from decisis.stores.retire import RETIRED_KEY
from tests.stores.raw_stores import RAW_BACKENDS, rewind


@pytest.mark.parametrize("backend", RAW_BACKENDS.values(), ids=RAW_BACKENDS.keys())
def test_an_old_store_opens_refolded(backend: Any, tmp_path: Path) -> None:
    with backend(tmp_path) as (opener, raw, version):
        store = opener()
        graph = Graph(store, "g")
        proposed, replaced = graph.add_goal("proposed"), graph.add_goal("replaced")
        newer = graph.add_goal("newer")
        graph.supersede(proposed.id, newer.id, state="candidate", confidence=0.2)
        graph.supersede(replaced.id, newer.id)
        store.close()
        # the rows the code before wrote: a candidate retired its node; no _retired record
        raw("UPDATE nodes SET status = 'superseded' WHERE id = %s", (proposed.id,))
        raw("UPDATE nodes SET metadata = '{}' WHERE id = %s", (replaced.id,))
        rewind(raw, version)

        store = opener()
        try:
            graph = Graph(store, "g")
            assert graph.get(proposed.id).status is NodeStatus.ACTIVE
            kept = graph.get(replaced.id)
            assert kept.status is NodeStatus.SUPERSEDED
            assert kept.metadata[RETIRED_KEY]["status"] == "active"
            report = graph.verify()
            assert report.ok, report.problems
        finally:
            store.close()


def test_a_row_changed_beyond_retirement_is_left_for_verify(tmp_path: Path) -> None:
    with RAW_BACKENDS["sqlite"](tmp_path) as (opener, raw, version):
        store = opener()
        graph = Graph(store, "g")
        node = graph.add_goal("kept")
        store.close()
        raw("UPDATE nodes SET label = 'forged', status = 'superseded' WHERE id = %s", (node.id,))
        rewind(raw, version)
        store = opener()
        try:
            report = Graph(store, "g").verify()
            assert not report.ok
            assert "forged" in " ".join(report.problems)
        finally:
            store.close()
