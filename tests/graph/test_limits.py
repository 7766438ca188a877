"""The caps and the text every backend can keep, through the ``Graph`` verbs on every backend:
each refusal is an ``InvalidInput`` naming the field and the limit, and writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.stores.helpers import BACKENDS

import decisis
from decisis.errors import InvalidInput
from decisis.model.validation import (
    MAX_BATCH_CHANGES,
    MAX_METADATA_INT_DIGITS,
    MAX_OPTIONS,
    MAX_REASON_LENGTH,
)
from decisis.stores import Store

NUL, SURROGATE = "a\x00b", "a\udcffb"


@pytest.fixture
def graph(store: Store) -> decisis.Graph:
    graph = decisis.Graph(store, "limits")
    graph.add_goal("a goal")
    return graph


def _refused(graph: decisis.Graph, call: Callable[[], object], field: str, words: str) -> None:
    """``call`` raises ``InvalidInput`` for ``field`` with ``words`` in it; nothing written."""
    before = graph.store.head(graph.name)
    with pytest.raises(InvalidInput) as caught:
        call()
    assert caught.value.field == field, caught.value
    assert words in str(caught.value), caught.value
    assert graph.store.head(graph.name) == before


def test_a_decision_holds_at_most_max_options(graph: decisis.Graph) -> None:
    half = MAX_OPTIONS // 2
    chosen = [f"chosen {i}" for i in range(half)]
    rejected = [f"rejected {i}" for i in range(MAX_OPTIONS - half + 1)]
    _refused(
        graph,
        lambda: graph.record_decision("too many", chosen=chosen, rejected=rejected),
        "options",
        f"at most {MAX_OPTIONS} options",
    )
    decision = graph.record_decision("just enough", chosen=chosen, rejected=rejected[:-1])
    assert len(graph.children(decision.id)) == MAX_OPTIONS


def test_a_batch_holds_at_most_max_batch_changes(graph: decisis.Graph) -> None:
    per_call = 1 + 2 * MAX_OPTIONS  # a decision and its options, as nodes and edges
    options = [f"option {i}" for i in range(MAX_OPTIONS)]
    before = graph.store.head(graph.name)
    with pytest.raises(RuntimeError), graph.batch() as batch:
        for i in range(MAX_BATCH_CHANGES // per_call):
            batch.record_decision(f"decision {i}", chosen=options)
        kept = repr(batch)  # "Batch(…, N changes)"
        with pytest.raises(InvalidInput) as caught:
            batch.record_decision("one too many", chosen=options)
        assert caught.value.field == "batch"
        assert f"at most {MAX_BATCH_CHANGES} changes" in str(caught.value)
        assert repr(batch) == kept  # the refused call left the batch as it was
        batch.add_goal("still open")  # what fits still goes in
        raise RuntimeError("drop the batch: landing it is not what this test is about")
    assert graph.store.head(graph.name) == before


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_a_batch_of_exactly_max_batch_changes_lands(backend: str, tmp_path: Path) -> None:
    """On the two backends many processes write to (the others take it the same way)."""
    with decisis.Graph(BACKENDS[backend](tmp_path), "limits", owns_store=True) as graph:
        with graph.batch() as batch:
            for i in range(MAX_BATCH_CHANGES):
                batch.add_goal(f"goal {i}")
        assert graph.store.head(graph.name)[0] == MAX_BATCH_CHANGES


def test_a_tombstone_reason_is_at_most_max_reason_length(graph: decisis.Graph) -> None:
    goal = graph.active_goals()[0]
    long = "r" * (MAX_REASON_LENGTH + 1)
    _refused(
        graph, lambda: graph.tombstone(goal.id, long), "reason", f"at most {MAX_REASON_LENGTH}"
    )
    graph.tombstone(goal.id, long[:-1])
    assert graph.get(goal.id).tombstone_reason == long[:-1]


@pytest.mark.parametrize("text", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_text_no_backend_keeps_is_refused_everywhere(graph: decisis.Graph, text: str) -> None:
    goal = graph.active_goals()[0]
    words = "NUL" if "\x00" in text else "lone surrogate"
    calls: dict[str, Callable[[], Any]] = {
        "graph": lambda: decisis.Graph(graph.store, text).add_goal("x"),
        "label": lambda: graph.add_goal(text),
        "rationale": lambda: graph.add_goal("x", rationale=text),
        "agent": lambda: decisis.Graph(graph.store, graph.name, agent=text).add_goal("x"),
        "reason": lambda: graph.tombstone(goal.id, text),
    }
    for field, call in calls.items():
        _refused(graph, call, field, words)
    _refused(graph, lambda: graph.update(goal.id, label=text), "label", words)


@pytest.mark.parametrize(
    "metadata", [{"k": SURROGATE}, {SURROGATE: 1}, {"k": [{"deep": SURROGATE}]}]
)
def test_metadata_with_a_lone_surrogate_is_refused(
    graph: decisis.Graph, metadata: dict[str, Any]
) -> None:
    _refused(graph, lambda: graph.add_goal("x", metadata=metadata), "metadata", "lone surrogate")


def test_metadata_keeps_nul_which_json_escapes(graph: decisis.Graph) -> None:
    node = graph.add_goal("x", metadata={"k": NUL, NUL: 1})
    assert graph.get(node.id).metadata == {"k": NUL, NUL: 1}


def test_a_whole_number_too_long_for_json_is_refused_in_metadata(graph: decisis.Graph) -> None:
    _refused(
        graph,
        lambda: graph.add_goal("x", metadata={"x": 10**5000}),
        "metadata",
        f"at most {MAX_METADATA_INT_DIGITS} digits",
    )
    longest = 10**MAX_METADATA_INT_DIGITS - 1
    node = graph.add_goal("x", metadata={"x": longest, "y": -longest})
    assert graph.get(node.id).metadata == {"x": longest, "y": -longest}


def test_a_confidence_too_large_for_a_float_is_out_of_range(graph: decisis.Graph) -> None:
    goal = graph.active_goals()[0]
    for call in (
        lambda: graph.add_goal("x", confidence=10**400),
        lambda: graph.update(goal.id, confidence=-(10**400)),
        lambda: graph.record_decision("x", confidence=10**400),
    ):
        _refused(graph, call, "confidence", "0.0 to 1.0")
    _refused(graph, lambda: graph.current(goal.id, believe=10**400), "believe", "0.0 to 1.0")
