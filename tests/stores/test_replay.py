"""Replay and snapshots: the fold of the ledger is the graph, at any point of its history."""

from __future__ import annotations

from dataclasses import replace

import pytest

from decisis.errors import Conflict, IntegrityError
from decisis.model import EventKind, NodeStatus
from decisis.stores import Store
from decisis.stores.memory import MemoryStore
from decisis.stores.replay import replay, snapshot, verify
from tests.stores.helpers import (
    G,
    add_chain,
    add_node,
    at,
    event_key,
    node_updated,
    superseded,
    tombstoned,
)


def _build(store: Store) -> None:
    """Five minutes of history: a chain, an update, a supersession, a tombstone."""
    a = add_node(store, label="a", when=at(0))
    b = add_node(store, label="b", when=at(1))
    store.append(G, [node_updated(a, at(2), label="a2")])
    store.append(G, [superseded(a, b, at(3))])
    c = add_node(store, label="c", when=at(4))
    store.append(G, [tombstoned(c)])


def test_replay_rebuilds_the_tables(store: Store) -> None:
    _build(store)
    add_chain(store, 3)
    state = replay(store.events(G))
    assert sorted(state.nodes.values(), key=lambda n: n.id) == store.nodes(
        G, include_tombstoned=True
    )
    assert sorted(state.edges.values(), key=lambda e: e.id) == store.edges(
        G, include_tombstoned=True
    )


def test_replay_names_the_entry_the_fold_refuses(store: Store) -> None:
    add_node(store)
    events = list(store.events(G)) * 2  # the same node added twice
    with pytest.raises(IntegrityError) as caught:
        replay(events)
    assert caught.value.seq == 1


def test_snapshot_is_the_graph_as_it_stood(store: Store) -> None:
    _build(store)
    events = list(store.events(G))
    early = snapshot(events, G, until=at(2.5))
    assert [n.label for n in early.nodes(G)] == ["a2", "b"]
    assert early.edges(G) == []
    assert early.head(G) == (events[2].seq, events[2].checksum)
    assert [event_key(e) for e in early.events(G)] == [event_key(e) for e in events[:3]]
    middle = snapshot(events, G, until=at(3))
    assert middle.get_node(G, events[0].entity).status is NodeStatus.SUPERSEDED
    assert len(middle.edges(G)) == 1
    assert snapshot(events, G).nodes(G) == store.nodes(G)
    assert snapshot(events, G, until=at(-1)).graphs() == []
    for view in (early, middle):
        assert verify(view, G).ok


def test_snapshot_accepts_events_already_cut_at_until(store: Store) -> None:
    _build(store)
    cut = snapshot(store.events(G, until=at(3)), G)
    full = snapshot(store.events(G), G, until=at(3))
    assert [event_key(e) for e in cut.events(G)] == [event_key(e) for e in full.events(G)]
    assert cut.nodes(G, include_tombstoned=True) == full.nodes(G, include_tombstoned=True)


def test_snapshot_before_a_tombstone_does_not_show_the_mark(store: Store) -> None:
    _build(store)
    events = list(store.events(G))
    assert events[4].invalidated_at is not None  # c's node.added, tombstoned later
    before = list(snapshot(events, G, until=at(4)).events(G))
    assert before[-1].kind is EventKind.NODE_ADDED
    assert before[-1].invalidated_at is None
    after = list(snapshot(events, G).events(G))
    assert [event_key(e) for e in after] == [event_key(e) for e in events]


def test_snapshot_refuses_a_broken_ledger(store: Store) -> None:
    add_node(store)
    add_node(store)
    first, second = store.events(G)
    forged = replace(second, payload={"node": dict(second.payload["node"], label="forged")})
    with pytest.raises(IntegrityError) as caught:
        snapshot([first, forged], G)
    assert caught.value.seq == 2


def test_memory_load_ledger_installs_a_copy_once() -> None:
    source = MemoryStore()
    add_chain(source, 2)
    target = MemoryStore()
    assert target.load_ledger(G, source.events(G)) == 3
    assert verify(target, G).ok
    assert target.edges(G) == source.edges(G)
    with pytest.raises(Conflict):
        target.load_ledger(G, source.events(G))
    with pytest.raises(IntegrityError):
        MemoryStore().load_ledger("another name", source.events(G))
