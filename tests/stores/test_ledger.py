"""The ledger beside the tables: events in order, the head, graphs kept apart, tombstones
marking history without breaking the chain, and ``verify`` passing on a sound store."""

from __future__ import annotations

from datetime import timedelta

import pytest

from decisis.errors import InvalidInput
from decisis.ledger import GENESIS, check_chain
from decisis.model import EventKind, utc_now
from decisis.stores import Store
from decisis.stores.replay import verify
from tests.stores.helpers import (
    G,
    add_chain,
    add_edge,
    add_node,
    event_key,
    ids,
    make_node,
    node_added,
    node_updated,
    superseded,
    tombstoned,
)


def test_graphs_are_isolated(store: Store) -> None:
    made = {}
    for graph in ("a", "b"):
        made[graph] = add_chain(store, 3, graph=graph)
        store.append(graph, [tombstoned(made[graph][2])])
    assert store.graphs() == ["a", "b"]
    for graph, other in (("a", "b"), ("b", "a")):
        assert ids(store.nodes(graph)) == ids(made[graph][:2])
        assert [e.seq for e in store.events(graph)] == [1, 2, 3, 4, 5, 6]
        assert {e.graph for e in store.events(graph)} == {graph}
        assert ids(store.traverse(graph, made[graph][0].id, direction="out")) == [made[graph][1].id]
        assert store.path_between(graph, made[graph][0].id, made[graph][1].id) != []
        assert store.edges(graph, node=made[other][0].id) == []
    a_checksums = [e.checksum for e in store.events("a")]
    b_checksums = [e.checksum for e in store.events("b")]
    assert set(a_checksums).isdisjoint(b_checksums)  # the graph name is hashed
    assert store.head("a") == (6, a_checksums[-1])
    assert verify(store, "a").ok and verify(store, "b").ok


def test_the_same_id_may_live_in_two_graphs(store: Store) -> None:
    node = make_node("shared")
    store.append("a", [node_added(node)])
    store.append("b", [node_added(node)])
    store.append("b", [node_updated(node, label="changed in b")])
    assert store.get_node("a", node.id).label == "shared"
    assert store.get_node("b", node.id).label == "changed in b"


def test_head_moves_with_each_append(store: Store) -> None:
    assert store.head(G) == (0, GENESIS)
    [first] = store.append(G, [node_added(make_node())])
    assert store.head(G) == (1, first.checksum)
    events = store.append(G, [node_added(make_node()), node_added(make_node())])
    assert store.head(G) == (3, events[-1].checksum)


def test_events_after_seq_and_until(store: Store) -> None:
    now = utc_now()
    times = [now + timedelta(seconds=s) for s in range(5)]
    for when in times:
        store.append(G, [node_added(make_node(when=when))])
    assert [e.seq for e in store.events(G)] == [1, 2, 3, 4, 5]
    assert [e.seq for e in store.events(G, after_seq=3)] == [4, 5]
    assert list(store.events(G, after_seq=5)) == []
    assert [e.seq for e in store.events(G, until=times[1])] == [1, 2]
    assert [e.seq for e in store.events(G, after_seq=1, until=times[2])] == [2, 3]
    assert list(store.events(G, until=now - timedelta(days=1))) == []


def test_events_are_read_fresh_each_time(store: Store) -> None:
    assert list(store.events(G)) == []
    store.append(G, [node_added(make_node())])
    assert len(list(store.events(G))) == 1
    store.append(G, [node_added(make_node())])
    assert [e.seq for e in store.events(G)] == [1, 2]


def test_tombstoning_marks_earlier_events_of_the_record(store: Store) -> None:
    a, b = add_node(store), add_node(store)
    edge = add_edge(store, a, b)
    store.append(G, [node_updated(a, label="a2")])
    store.append(G, [tombstoned(a, reason="duplicate of b")])
    events = list(store.events(G))
    marked = [e.seq for e in events if e.invalidated_at is not None]
    assert marked == [1, 4]  # node.added and node.updated of a, not the tombstone itself
    stone = events[-1]
    assert stone.kind is EventKind.TOMBSTONED
    for event in events:
        if event.seq in marked:
            assert event.invalidated_reason == "duplicate of b"
            assert event.invalidated_at == store.get_node(G, a.id).tombstoned_at
    assert check_chain(events) == (5, None)
    store.append(G, [tombstoned(edge, reason="wrong")])
    events = list(store.events(G))
    assert [e.seq for e in events if e.invalidated_at is not None] == [1, 3, 4]
    assert events[2].invalidated_reason == "wrong"
    assert check_chain(events) == (6, None)
    assert verify(store, G).ok


def test_tombstone_in_the_same_batch_marks_the_events_before_it(store: Store) -> None:
    node = make_node()
    store.append(G, [node_added(node), node_updated(node, label="x"), tombstoned(node)])
    events = list(store.events(G))
    assert [e.invalidated_at is not None for e in events] == [True, True, False]


def test_append_returns_the_marks_a_later_tombstone_of_its_batch_sets(store: Store) -> None:
    node, other = make_node(), make_node()
    appended = store.append(
        G, [node_added(node), node_added(other), tombstoned(node, reason="mistake")]
    )
    assert [event_key(e) for e in appended] == [event_key(e) for e in store.events(G)]
    assert [e.invalidated_reason for e in appended] == ["mistake", None, None]


def test_verify_passes_on_a_sound_store(store: Store) -> None:
    empty = verify(store, G)
    assert (empty.ok, empty.events, empty.first_bad_seq, empty.problems) == (True, 0, None, [])
    a, b, c = add_chain(store, 3)
    d = add_node(store, label="d", metadata={"x": [1, {"y": None}]}, confidence=1)
    store.append(G, [superseded(a, d), node_updated(b, status="completed", confidence=0.3)])
    store.append(G, [tombstoned(c)])
    report = verify(store, G)
    assert report.ok, report.problems
    assert report.events == 9
    assert report.first_bad_seq is None


def test_events_after_a_sequence_number_past_64_bits_are_none(store: Store) -> None:
    """No store can hold or compare such a number (SQLite raised OverflowError); nothing
    comes after it. A negative one is refused."""
    store.append(G, [node_added(make_node("a"))])
    assert list(store.events(G, after_seq=2**63 - 1)) == []
    assert list(store.events(G, after_seq=2**78)) == []
    for wrong in (-1, None, "3", 1.5):  # None was a TypeError from the comparison
        with pytest.raises(InvalidInput, match="after_seq"):
            store.events(G, after_seq=wrong)  # type: ignore[arg-type]
