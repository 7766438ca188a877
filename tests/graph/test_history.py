"""``Graph.history`` asks the store for one record's entries; what it returns is what
filtering the whole ledger returned before: entity or payload ``new``, oldest first."""

from __future__ import annotations

import time

import pytest

import decisis
from decisis import EventKind
from decisis.model import Event


def scanned(graph: decisis.Graph, record_id: str) -> list[Event]:
    """The rule ``history`` kept before it had a store method, over the whole ledger."""
    return [e for e in graph.events() if record_id in (e.entity, e.payload.get("new"))]


def test_history_by_prefix_covers_updates_supersedes_and_tombstones(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Auth")
    old = graph.record_decision("JWT", goal=goal.id)
    new = graph.record_decision("Sessions", goal=goal.id)
    graph.update(old.id, rationale="stateless")
    edge = graph.supersede(old.id, new.id)
    graph.tombstone(old.id, "recorded twice")
    got = graph.history(graph.short_ids([old.id])[old.id])
    kinds = [e.kind for e in got]
    assert kinds == [
        EventKind.NODE_ADDED,
        EventKind.NODE_UPDATED,
        EventKind.SUPERSEDED,
        EventKind.TOMBSTONED,
    ]
    assert [e.invalidated_reason for e in got] == ["recorded twice"] * 3 + [None]
    for record_id in (goal.id, old.id, new.id, edge.id):
        assert graph.history(record_id) == scanned(graph, record_id)
    assert [e.kind for e in graph.history(new.id)][-1] is EventKind.SUPERSEDED


def test_a_view_at_a_time_sees_the_history_recorded_by_then(graph: decisis.Graph) -> None:
    node = graph.add_goal("Cache")
    graph.update(node.id, label="Cache, first")
    time.sleep(0.002)
    moment = graph.history(node.id)[-1].at
    time.sleep(0.002)
    graph.update(node.id, label="Cache, second")
    assert len(graph.history(node.id)) == 3
    for view in (graph.at(moment), decisis.Graph(graph.store, graph.name, as_of=moment)):
        assert [e.payload.get("changes") for e in view.history(node.id)] == [
            None,
            {"label": "Cache, first"},
        ]
        assert view.history(node.id) == scanned(view, node.id)


def test_events_after_a_sequence_number_no_store_can_hold_are_none(graph: decisis.Graph) -> None:
    """Past 64 bits the stores cannot compare the number (SQLite raised OverflowError); no
    entry comes after it. A negative or non-integer one is refused."""
    graph.add_goal("Auth")
    assert [e.seq for e in graph.events(after_seq=0)] == [1]
    assert list(graph.events(after_seq=2**63 - 1)) == []
    assert list(graph.events(after_seq=2**78)) == []
    for bad in (-1, True, "3", 1.5):
        with pytest.raises(decisis.InvalidInput, match="after_seq"):
            graph.events(after_seq=bad)  # type: ignore[arg-type]
