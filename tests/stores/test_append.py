"""Writes: ``append`` numbers and chains events, lands all drafts or none, and refuses
exactly what the reference fold refuses, with the same exception class."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

from decisis.errors import Conflict, CycleError, HeadMoved, InvalidInput, NotFound
from decisis.ledger import GENESIS, canonical_bytes, chain_checksum
from decisis.model import EdgeType, EventDraft, EventKind, LinkState, NodeStatus, NodeType
from decisis.stores import Store
from tests.stores.helpers import (
    G,
    add_edge,
    add_node,
    at,
    edge_added,
    edge_updated,
    event_key,
    fingerprint,
    make_edge,
    make_node,
    node_added,
    node_updated,
    raw_draft,
    superseded,
    tombstoned,
)


def test_append_numbers_events_from_one_and_chains_checksums(store: Store) -> None:
    a, b, c = make_node("a"), make_node("b"), make_node("c")
    first = store.append(G, [node_added(a), node_added(b), edge_added(make_edge(a, b))])
    second = store.append(G, [node_added(c), node_updated(a, label="a, renamed")])
    events = first + second
    assert [e.seq for e in events] == [1, 2, 3, 4, 5]
    prev = GENESIS
    for event in events:
        assert event.graph == G
        assert event.prev_checksum == prev
        raw = canonical_bytes(G, event.seq, event.kind, event.entity, event.payload, event.at)
        assert event.checksum == chain_checksum(raw, prev)
        assert event.checksum.startswith("sha256:")
        prev = event.checksum
    assert store.head(G) == (5, events[-1].checksum)
    assert [event_key(e) for e in store.events(G)] == [event_key(e) for e in events]


def test_append_returns_events_as_storage_gives_them_back(store: Store) -> None:
    node = make_node("Use JWT", rationale="stateless", metadata={"k": [1, 2.5, None]})
    [event] = store.append(G, [node_added(node)])
    assert event.kind is EventKind.NODE_ADDED
    assert event.entity == node.id
    assert event.payload == {"node": node.to_dict()}
    assert event.at == node.recorded_at
    assert event.invalidated_at is None and event.invalidated_reason is None


def test_an_empty_batch_changes_nothing(store: Store) -> None:
    assert store.append(G, []) == []
    assert store.head(G) == (0, GENESIS)
    assert store.graphs() == []
    assert list(store.events(G)) == []


def test_records_read_back_equal_to_what_was_written(store: Store) -> None:
    node = make_node(
        "Adopt PostgreSQL",
        NodeType.GOAL,
        confidence=0.25,
        rationale="teams need a server",
        metadata={"source": "adr", "tags": ["db", "ops"], "nested": {"n": 1}},
        agent="planner",
        valid_until=at(10**7),
    )
    other = add_node(store, label="other")
    edge = make_edge(
        node, other, EdgeType.REQUIRES, state=LinkState.CANDIDATE, confidence=0.5, rationale="r"
    )
    store.append(G, [node_added(node), edge_added(edge)])
    assert store.get_node(G, node.id) == node
    assert store.get_edge(G, edge.id) == edge


def test_updates_change_only_the_named_fields(store: Store) -> None:
    node = add_node(store, label="draft")
    other = add_node(store, label="other")
    edge = add_edge(store, node, other)
    when = at(10**6)
    store.append(
        G,
        [
            node_updated(node, when, label="final", status="completed", metadata={"v": 2}),
            edge_updated(edge, when, state="confirmed", confidence=0.75),
        ],
    )
    got = store.get_node(G, node.id)
    assert (got.label, got.status, got.metadata) == ("final", NodeStatus.COMPLETED, {"v": 2})
    assert got.updated_at == when
    assert got.type is node.type and got.recorded_at == node.recorded_at
    got_edge = store.get_edge(G, edge.id)
    assert (got_edge.state, got_edge.confidence) == (LinkState.CONFIRMED, 0.75)
    assert got_edge.updated_at == when


def test_supersede_retires_the_old_node_and_adds_the_edge(store: Store) -> None:
    old = add_node(store, label="old")
    new = add_node(store, label="new")
    when = at(10**6)
    [event] = store.append(G, [superseded(old, new, when)])
    got = store.get_node(G, old.id)
    assert got.status is NodeStatus.SUPERSEDED
    assert got.valid_until == when and got.updated_at == when
    assert store.get_node(G, new.id) == new
    [edge] = store.edges(G, types=[EdgeType.SUPERSEDES])
    assert (edge.source, edge.target, edge.id) == (new.id, old.id, event.payload["edge"]["id"])


def test_tombstone_keeps_the_record_and_marks_it(store: Store) -> None:
    node = add_node(store)
    store.append(G, [tombstoned(node, reason="duplicate")])
    got = store.get_node(G, node.id)
    assert got.tombstoned and got.tombstone_reason == "duplicate"
    assert store.nodes(G) == []


# -- all or none ------------------------------------------------------------------------


def test_a_batch_refused_at_its_third_draft_changes_nothing(store: Store) -> None:
    existing = add_node(store, label="existing")
    before = fingerprint(store)
    fresh = make_node("fresh")
    batch = [
        node_added(fresh),
        edge_added(make_edge(existing, fresh)),
        edge_added(make_edge(fresh, make_node("never added"))),
    ]
    with pytest.raises(NotFound):
        store.append(G, batch)
    assert fingerprint(store) == before
    assert [n.id for n in store.nodes(G)] == [existing.id]
    assert store.edges(G) == []
    assert len(list(store.events(G))) == 1
    with pytest.raises(NotFound):
        store.get_node(G, fresh.id)


def test_every_kind_of_change_is_undone_when_a_later_draft_is_refused(store: Store) -> None:
    a, b, c = (add_node(store, label=label) for label in ("a", "b", "c"))
    ab = add_edge(store, a, b)
    bc = add_edge(store, b, c)
    before = fingerprint(store)
    d = make_node("d")
    batch = [
        node_updated(a, label="a2", confidence=0.5),
        edge_updated(ab, rationale="because"),
        node_added(d),
        edge_added(make_edge(c, d, EdgeType.CAUSED)),
        edge_added(make_edge(a, c, EdgeType.ENABLES)),
        superseded(b, d),
        tombstoned(bc),
        tombstoned(c),
        node_added(a),  # refused: the id is taken
    ]
    with pytest.raises(Conflict):
        store.append(G, batch)
    assert fingerprint(store) == before
    # and the store still takes the same changes once the bad draft is gone
    store.append(G, batch[:-1])
    assert store.get_node(G, b.id).status is NodeStatus.SUPERSEDED
    assert [n.id for n in store.nodes(G)] == [a.id, b.id, d.id]


def test_a_refused_graph_leaves_no_trace_in_graphs(store: Store) -> None:
    with pytest.raises(NotFound):
        store.append("other", [node_added(make_node()), node_updated(make_node(), label="x")])
    assert store.graphs() == []
    assert store.head("other") == (0, GENESIS)


# -- refusal rules of the fold -------------------------------------------------------------

Setup = Callable[[Store], EventDraft]


def _duplicate_node(store: Store) -> EventDraft:
    return node_added(add_node(store))


def _edge_id_used_by_node(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    return edge_added(make_edge(a, b, id=a.id))


def _node_id_used_by_edge(store: Store) -> EventDraft:
    edge = add_edge(store, add_node(store), add_node(store))
    return node_added(make_node(id=edge.id))


def _duplicate_edge(store: Store) -> EventDraft:
    return edge_added(add_edge(store, add_node(store), add_node(store)))


def _edge_to_missing(store: Store) -> EventDraft:
    return edge_added(make_edge(add_node(store), make_node()))


def _edge_from_missing(store: Store) -> EventDraft:
    return edge_added(make_edge(make_node(), add_node(store)))


def _edge_to_tombstoned(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    store.append(G, [tombstoned(b)])
    return edge_added(make_edge(a, b))


def _update_missing_node(store: Store) -> EventDraft:
    return node_updated(make_node(), label="x")


def _update_tombstoned_node(store: Store) -> EventDraft:
    node = add_node(store)
    store.append(G, [tombstoned(node)])
    return node_updated(node, label="x")


def _update_node_type(store: Store) -> EventDraft:
    return node_updated(add_node(store), type="goal")


def _update_node_nothing(store: Store) -> EventDraft:
    return node_updated(add_node(store))


def _update_node_bad_value(store: Store) -> EventDraft:
    return node_updated(add_node(store), confidence=2.0)


def _update_missing_edge(store: Store) -> EventDraft:
    return edge_updated(make_edge(make_node(), make_node()), rationale="x")


def _update_tombstoned_edge(store: Store) -> EventDraft:
    edge = add_edge(store, add_node(store), add_node(store))
    store.append(G, [tombstoned(edge)])
    return edge_updated(edge, rationale="x")


def _update_edge_source(store: Store) -> EventDraft:
    edge = add_edge(store, add_node(store), add_node(store))
    return edge_updated(edge, source=add_node(store).id)


def _supersede_self(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    draft = superseded(a, b)
    payload = dict(draft.payload, new=a.id)
    return raw_draft(EventKind.SUPERSEDED, a.id, payload)


def _supersede_cycle_direct(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    store.append(G, [superseded(a, b)])  # b replaces a
    return superseded(b, a)  # a replacing b would close a loop


def _supersede_cycle_transitive(store: Store) -> EventDraft:
    a, b, c = add_node(store), add_node(store), add_node(store)
    store.append(G, [superseded(a, b), superseded(b, c)])  # c replaces b replaces a
    return superseded(c, a)


def _supersede_twice(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    store.append(G, [superseded(a, b)])
    return superseded(a, b)


def _supersede_missing(store: Store) -> EventDraft:
    return superseded(make_node(), add_node(store))


def _supersede_tombstoned(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    store.append(G, [tombstoned(a)])
    return superseded(a, b)


def _supersede_with_wrong_edge(store: Store) -> EventDraft:
    a, b = add_node(store), add_node(store)
    draft = superseded(a, b)
    edge = make_edge(a, b, EdgeType.SUPERSEDES)  # old -> new: backwards
    return raw_draft(EventKind.SUPERSEDED, a.id, dict(draft.payload, edge=edge.to_dict()))


def _tombstone_missing(store: Store) -> EventDraft:
    return tombstoned(make_node())


def _tombstone_twice(store: Store) -> EventDraft:
    node = add_node(store)
    store.append(G, [tombstoned(node)])
    return tombstoned(node)


def _tombstone_unknown_target(store: Store) -> EventDraft:
    return tombstoned(add_node(store).id, target="graph")


def _unknown_kind(store: Store) -> EventDraft:
    node = make_node()
    return raw_draft("node.deleted", node.id, {"id": node.id})


def _naive_time(store: Store) -> EventDraft:
    node = make_node()
    return EventDraft(EventKind.NODE_ADDED, node.id, {"node": node.to_dict()}, datetime(2026, 1, 1))


REFUSALS: list[tuple[Setup, type[Exception]]] = [
    (_duplicate_node, Conflict),
    (_edge_id_used_by_node, Conflict),
    (_node_id_used_by_edge, Conflict),
    (_duplicate_edge, Conflict),
    (_edge_to_missing, NotFound),
    (_edge_from_missing, NotFound),
    (_edge_to_tombstoned, Conflict),
    (_update_missing_node, NotFound),
    (_update_tombstoned_node, Conflict),
    (_update_node_type, InvalidInput),
    (_update_node_nothing, InvalidInput),
    (_update_node_bad_value, InvalidInput),
    (_update_missing_edge, NotFound),
    (_update_tombstoned_edge, Conflict),
    (_update_edge_source, InvalidInput),
    (_supersede_self, InvalidInput),
    (_supersede_cycle_direct, CycleError),
    (_supersede_cycle_transitive, CycleError),
    (_supersede_twice, Conflict),
    (_supersede_missing, NotFound),
    (_supersede_tombstoned, Conflict),
    (_supersede_with_wrong_edge, InvalidInput),
    (_tombstone_missing, NotFound),
    (_tombstone_twice, Conflict),
    (_tombstone_unknown_target, InvalidInput),
    (_unknown_kind, InvalidInput),
    (_naive_time, InvalidInput),
]


@pytest.mark.parametrize(
    ("setup", "error"), REFUSALS, ids=[setup.__name__.strip("_") for setup, _ in REFUSALS]
)
def test_refusal_rules(store: Store, setup: Setup, error: type[Exception]) -> None:
    bad = setup(store)
    before = fingerprint(store)
    with pytest.raises(error) as caught:
        store.append(G, [node_added(make_node("innocent")), bad])
    assert type(caught.value) is error, f"expected {error.__name__}, got {caught.value!r}"
    assert fingerprint(store) == before


def test_append_after_a_head_lands_only_while_it_is_still_the_head(store: Store) -> None:
    """Compare-and-set on the ledger head: a writer that prepared its drafts from what it
    read writes them only if nobody wrote in between; else ``HeadMoved``, nothing written."""
    a, b, c = make_node("a"), make_node("b"), make_node("c")
    assert [e.seq for e in store.append(G, [node_added(a)], after_seq=0)] == [1]  # new graph
    store.append(G, [node_added(b)])  # another writer moves the head to 2
    with pytest.raises(HeadMoved) as moved:
        store.append(G, [node_added(c)], after_seq=1)
    assert (moved.value.expected, moved.value.found) == (1, 2)
    assert isinstance(moved.value, Conflict) and "nothing was written" in str(moved.value)
    assert store.head(G)[0] == 2 and {n.label for n in store.nodes(G)} == {"a", "b"}
    assert [e.seq for e in store.append(G, [node_added(c)], after_seq=2)] == [3]
    assert store.append(G, [], after_seq=0) == []  # nothing to write: nothing to check
    with pytest.raises(InvalidInput, match="after_seq"):
        store.append(G, [node_added(make_node("d"))], after_seq=-1)
