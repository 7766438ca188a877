"""Precedents by meaning (``Graph.precedents``) on every backend: full text and vectors fused,
vectors kept in the store as derived data, correction questions never returned."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.errors import InvalidInput
from decisis.graph import Graph
from decisis.model import NodeType
from decisis.search import precedents as module
from decisis.search.embedding import get_embedder
from decisis.search.precedents import space_of
from tests.stores.helpers import BACKENDS

SITUATION = "where do we keep login state?"  # shares no word with the sessions decision
DECISIONS = [
    ("Use server sessions in Redis", "Sessions can be revoked at once"),
    ("Use PostgreSQL for orders", "Relational data with transactions"),
    ("Deploy with GitHub Actions", "Hosted runners"),
    ("Pick React for the front end", "The team knows it"),
    ("Run the service on Kubernetes", "Autoscaling"),
]


@pytest.fixture(params=sorted(BACKENDS))
def graph(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Graph]:
    store = BACKENDS[request.param](tmp_path)
    try:
        g = Graph(store, "g")
        for label, rationale in DECISIONS:
            g.record_decision(label, rationale=rationale)
        yield g
    finally:
        store.close()


def _labels(found: list[module.Precedent]) -> list[str]:
    return [p.node.label for p in found]


def test_vectors_find_what_full_text_cannot(graph: Graph) -> None:
    assert graph.search(SITUATION) == []
    found = graph.precedents(SITUATION, k=3)
    assert "Use server sessions in Redis" in _labels(found)[:2]
    sessions = next(p for p in found if p.node.label.startswith("Use server sessions"))
    assert sessions.ranks.keys() == {"vector"} and sessions.similarity is not None


def test_both_voters_agree_on_a_decision_worded_like_the_question(graph: Graph) -> None:
    [best] = graph.precedents("Which CI runs our GitHub Actions deploys?", k=1)
    assert best.node.label == "Deploy with GitHub Actions"
    assert set(best.ranks) == {"fulltext", "vector"}


def test_vectors_are_kept_in_the_store_and_follow_changes(graph: Graph) -> None:
    space = space_of(get_embedder())
    graph.precedents(SITUATION)
    kept = graph.store.get_vectors(graph.name, space)
    assert len(kept) == len(DECISIONS)
    node = graph.recent_decisions(1)[0]
    graph.update(node.id, rationale="Changed its mind")
    before = graph.store.get_vectors(graph.name, space, [node.id])[node.id]
    graph.precedents(SITUATION)
    after = graph.store.get_vectors(graph.name, space, [node.id])[node.id]
    assert (before != after).any()  # re-embedded: its text changed


def test_a_past_view_keeps_no_vectors(graph: Graph) -> None:
    with graph.at("2100-01-01") as view:
        assert view.precedents(SITUATION)
    assert graph.store.vector_spaces(graph.name) == {}


def test_records_and_correction_questions(graph: Graph) -> None:
    record = graph.record_decision(
        "Keep login sessions in a cookie", metadata={"kind": "adr", "key": "team:001"}
    )
    question = graph.add_node(
        "observation", "where do we keep login state?", metadata={"kind": "adr-question"}
    )
    every = graph.precedents(SITUATION, k=10, types=["decision", "observation"])
    assert record.id in {p.node.id for p in every}
    assert question.id not in {p.node.id for p in every}
    mine = graph.precedents(SITUATION, k=10, records=False)
    assert record.id not in {p.node.id for p in mine}


def test_with_no_embedder_full_text_alone_answers(
    graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(module, "_NO_EMBEDDER", [True])
    assert graph.precedents(SITUATION) == []  # no word in common, no vectors
    [best] = graph.precedents("GitHub Actions", k=1)
    assert best.ranks.keys() == {"fulltext"} and best.similarity is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"text": " "}, "text"),
        ({"text": "x" * 4001}, "text"),
        ({"text": "ok", "k": 0}, "k"),
        ({"text": "ok", "k": True}, "k"),
        ({"text": "ok", "types": ["decisoin"]}, "types"),
        ({"text": "ok", "types": "decision"}, "types"),
    ],
)
def test_bad_input_is_named(graph: Graph, kwargs: dict[str, object], field: str) -> None:
    rest = dict(kwargs)
    text = rest.pop("text")
    with pytest.raises(InvalidInput) as caught:
        graph.precedents(text, **rest)  # type: ignore[arg-type]
    assert caught.value.field == field


def test_types_widen_the_pool(graph: Graph) -> None:
    goal = graph.add_goal("Keep people signed in across visits")
    assert goal.id not in {p.node.id for p in graph.precedents(SITUATION, k=10)}
    found = graph.precedents(SITUATION, k=10, types=[NodeType.GOAL])
    assert [p.node.id for p in found] == [goal.id]


class _CountingStore:
    """A store (any backend, through the public protocol) that counts the vectors read."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self.vectors_read = 0

    def get_vectors(self, *args: object, **kwargs: object) -> object:
        found = self._inner.get_vectors(*args, **kwargs)  # type: ignore[attr-defined]
        self.vectors_read += len(found)
        return found

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def test_a_query_reads_only_the_vectors_it_shows(graph: Graph) -> None:
    """Vectors are ranked where they are stored: once current, a query reads a vector only
    to show the cosine of a precedent the vector voter did not rank (at most ``k``)."""
    for i in range(40):
        graph.record_decision(f"Adopt tool number {i} for builds", rationale="a filler")
    graph.precedents(SITUATION, k=2)  # embeds and keeps every decision's vector
    counting = _CountingStore(graph.store)
    found = Graph(counting, graph.name).precedents(SITUATION, k=2)  # type: ignore[arg-type]
    assert counting.vectors_read <= 2
    assert "Use server sessions in Redis" in _labels(found)
    assert all(p.similarity is not None for p in found)
