"""A view at any moment is the full replay up to it: on random histories (times that go
back too, validity windows, supersessions, tombstones) and random moments asked in turn,
from kept snapshots (later moments start from the snapshots earlier ones kept) and from the
version index (made at the first moment, then caught up or folded over as the history
grows between moments)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decisis.stores import past_index
from decisis.stores.fold_snapshots import INDEX_SPACE
from decisis.stores.past_lazy import LazyRecords
from decisis.stores.past_view import view_at
from tests.stores.helpers import BACKENDS, G, at
from tests.stores.past_helpers import OPS, build, same_as_full_replay, same_reads

ops = st.lists(
    st.tuples(
        st.sampled_from(OPS),
        st.integers(min_value=0, max_value=60),
        st.sampled_from([1, 1, 1, 2, 0, -3]),  # minutes to the next entry: some go back
    ),
    min_size=1,
    max_size=40,
)
moments = st.lists(st.floats(min_value=-2, max_value=80, allow_nan=False), min_size=1, max_size=5)


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_a_view_at_any_moment_is_the_full_replay(
    backend: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    made = {"snapshots": 0}

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(history=ops, asked=moments, every=st.integers(min_value=1, max_value=6))
    def check(history: list[tuple[str, int, int]], asked: list[float], every: int) -> None:
        store = BACKENDS[backend](Path(tmp_path_factory.mktemp("past")))
        try:
            build(store, history, batch=3)
            for minute in asked:
                moment = at(minute)
                view = view_at(store, G, moment, every=every, index=False)
                same_as_full_replay(store, view, moment)
                view.close()
            made["snapshots"] += store.derived_spaces(G).get(INDEX_SPACE, 0)
        finally:
            store.close()

    check()
    assert made["snapshots"] > 0  # the property ran from kept snapshots, not only replays


@pytest.mark.parametrize("backend", ["memory", "sqlite", "duckdb"])
def test_a_view_from_the_version_index_is_the_full_replay(
    backend: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    made: dict[str, Any] = {"index": 0, "heads": set()}

    @settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        history=ops,
        asked=moments,
        parts=st.integers(min_value=1, max_value=3),
        tail=st.sampled_from([1, 2, 5, 1000]),
    )
    def check(
        history: list[tuple[str, int, int]], asked: list[float], parts: int, tail: int
    ) -> None:
        store = BACKENDS[backend](Path(tmp_path_factory.mktemp("index")))
        try:

            def ask() -> None:  # the history grows between the moments asked
                for minute in asked:
                    moment = at(minute)
                    view = view_at(store, G, moment, tail=tail)
                    same_reads(store, view, moment)  # record by record, as read lazily
                    nodes = view._graph(G).state.nodes
                    assert not isinstance(nodes, LazyRecords) or not nodes._full
                    same_as_full_replay(store, view, moment)
                    view.close()
                head = past_index.read_head(store, G)
                if head is not None:
                    made["heads"].add(head.seq)

            build(store, history, batch=3, pause=ask, parts=parts)
            made["index"] += store.derived_spaces(G).get(past_index.SPACE, 0)
        finally:
            store.close()

    check()
    assert made["index"] > 0  # the property ran from the index, not only from replays
    assert len(made["heads"]) > 1  # and from indexes caught up to several heads
