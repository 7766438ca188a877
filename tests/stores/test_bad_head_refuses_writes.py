"""A store whose head row disagrees with its ledger's last entry (entries cut off or added
behind decisis's back) refuses every write, naming the problem; reads and verify still work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from decisis.errors import IntegrityError
from decisis.graph import Graph
from tests.stores.raw_stores import RAW_BACKENDS


@pytest.mark.parametrize("backend", RAW_BACKENDS.values(), ids=RAW_BACKENDS.keys())
def test_a_cut_ledger_refuses_writes(backend: Any, tmp_path: Path) -> None:
    with backend(tmp_path) as (opener, raw, _):
        store = opener()
        graph = Graph(store, "g")
        graph.add_goal("one")
        graph.add_goal("two")
        store.close()
        raw("DELETE FROM ledger WHERE graph = %s AND seq = %s", ("g", 2))
        store = opener()
        try:
            graph = Graph(store, "g")
            with pytest.raises(IntegrityError, match=r"writes are refused.*decisis verify"):
                graph.add_goal("three")
            assert not graph.verify().ok
            assert len(graph.nodes()) == 2  # reads work, nothing was written
        finally:
            store.close()
