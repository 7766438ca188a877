"""``Graph.record_provenance`` and ``Graph.provenance`` on every backend: typed entries,
oldest first, by id or prefix, in batches, in a view at a time, through export and import."""

from __future__ import annotations

import time

import pytest

import decisis
from decisis import AgentType, EventKind, Provenance
from decisis.errors import Conflict, InvalidInput, NotFound
from decisis.stores import Store


@pytest.fixture
def graph(store: Store) -> decisis.Graph:
    return decisis.Graph(store, "prov", agent="planner")


def test_entries_come_back_typed_oldest_first_by_prefix(graph: decisis.Graph) -> None:
    node = graph.add_goal("Ship auth")
    first = graph.record_provenance(
        node.id,
        "draft",
        agent_type="software_agent",
        role="writer",
        confidence=0.25,
        started_at="2026-01-01T10:00Z",
        ended_at="2026-01-01T10:05Z",
    )
    second = graph.record_provenance(
        node.id,
        "review",
        agent="alice",
        agent_type=AgentType.PERSON,
        source="https://example.org/minutes/12",
        outcome="approved",
    )
    short = graph.short_ids([node.id])[node.id]
    got = graph.provenance(short)
    assert got == [first, second] and all(isinstance(e, Provenance) for e in got)
    assert first.agent == "planner"  # the graph's agent by default
    assert first.seq is not None and second.seq is not None and first.seq < second.seq
    assert got[1].agent_type is AgentType.PERSON and got[1].outcome == "approved"
    assert got[0].to_dict()["started_at"] == "2026-01-01T10:00:00.000000Z"
    assert got[1].to_dict()["confidence"] is None
    assert graph.verify().ok


def test_an_entry_about_an_edge(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Cache")
    decision = graph.record_decision("Use Redis", goal=goal.id)
    [edge] = graph.edges(decision.id, direction="in")
    graph.record_provenance(edge.id, "link", agent_type="organization", agent="Platform team")
    [entry] = graph.provenance(edge.id)
    assert entry.entity == edge.id and entry.agent_type is AgentType.ORGANIZATION


def test_bad_entries_are_refused_naming_what_is_allowed(graph: decisis.Graph) -> None:
    node = graph.add_goal("Ship")
    with pytest.raises(InvalidInput) as caught:
        graph.record_provenance(node.id, "review", agent_type="robot")
    assert caught.value.field == "agent_type"
    assert caught.value.allowed == "organization, person, software_agent"
    with pytest.raises(InvalidInput, match=r"0\.0 to 1\.0"):
        graph.record_provenance(node.id, "review", confidence=-0.1)
    with pytest.raises(InvalidInput, match="started_at"):
        graph.record_provenance(node.id, "review", started_at="2026-02-01", ended_at="2026-01-01")
    with pytest.raises(NotFound):
        graph.record_provenance("zzzzzzzz", "review")
    graph.tombstone(node.id, "a mistake")
    with pytest.raises(Conflict, match="tombstoned"):
        graph.record_provenance(node.id, "review")
    assert graph.provenance(node.id) == [] and graph.verify().ok


def test_a_batch_writes_a_record_and_its_entry_together(graph: decisis.Graph) -> None:
    stored = graph.add_goal("Stored before")
    with graph.batch() as batch:
        node = batch.add_goal("Made in the batch")
        waiting = batch.record_provenance(node.id, "plan", agent_type="person")
        batch.record_provenance(stored.id, "touch")
        with pytest.raises(NotFound):
            batch.record_provenance("0" * 26, "nothing there")
    assert waiting.seq is None
    [entry] = graph.provenance(node.id)
    assert entry.seq is not None and entry.activity == "plan"
    assert [e.activity for e in graph.provenance(stored.id)] == ["touch"]
    assert [e.kind for e in batch.written].count(EventKind.PROVENANCE) == 2


def test_a_view_at_a_time_has_the_entries_recorded_by_then(graph: decisis.Graph) -> None:
    node = graph.add_goal("Cache")
    graph.record_provenance(node.id, "first")
    time.sleep(0.002)
    moment = graph.history(node.id)[-1].at
    time.sleep(0.002)
    graph.record_provenance(node.id, "second")
    with graph.at(moment) as view:
        assert [e.activity for e in view.provenance(node.id)] == ["first"]
        assert view.verify().ok
        with pytest.raises(Conflict):
            view.record_provenance(node.id, "late")
    assert [e.activity for e in graph.provenance(node.id)] == ["first", "second"]


def test_export_and_import_carry_the_entries(graph: decisis.Graph) -> None:
    node = graph.add_goal("Auth")
    graph.record_provenance(node.id, "review", agent="alice", agent_type="person", confidence=1)
    copy = decisis.Graph(graph.store, "copy")
    assert copy.import_(graph.export("json")) == 2
    assert copy.provenance(node.id) == graph.provenance(node.id)
    assert copy.verify().ok
