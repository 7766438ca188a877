"""``history``: the ledger entries about one record, read through the store's indexes.

The rule is ``Graph.history``'s from before there was a store method: an entry is about
a record when the record is its entity or its payload's ``new``. Each test also checks
that rule against the whole ledger, so every backend answers as a full scan would.
"""

from __future__ import annotations

from datetime import datetime

from decisis.model import EdgeType, EventDraft, EventKind
from decisis.model import events as drafts
from decisis.stores import Store
from tests.stores.helpers import (
    G,
    add_chain,
    add_edge,
    add_node,
    at,
    edge_updated,
    event_key,
    make_edge,
    make_node,
    node_added,
    node_updated,
    raw_draft,
    superseded,
    tombstoned,
)


def seqs(store: Store, record_id: str, until: datetime | None = None) -> list[int]:
    """The seqs of the record's history, after checking it entry for entry against the rule
    applied to the whole ledger."""
    found = store.history(G, record_id, until=until)
    scan = store.events(G, until=until)
    expected = [e for e in scan if record_id in (e.entity, e.payload.get("new"))]
    assert [event_key(e) for e in found] == [event_key(e) for e in expected]
    return [e.seq for e in found]


def test_a_records_entries_in_seq_order_and_no_others(store: Store) -> None:
    a, _ = add_chain(store, 2)  # seqs 1, 2 nodes; 3 the edge
    c = add_node(store, label="c")  # 4
    store.append(G, [node_updated(a, label="a2"), node_updated(c, label="c2")])  # 5, 6
    store.append(G, [node_updated(a, status="completed")])  # 7
    assert seqs(store, a.id) == [1, 5, 7]
    assert seqs(store, c.id) == [4, 6]
    edge = store.edges(G)[0]
    assert seqs(store, edge.id) == [3]


def test_a_supersede_is_in_the_history_of_both_records(store: Store) -> None:
    old, new = add_node(store, label="old"), add_node(store, label="new")
    store.append(G, [superseded(old, new, at(10))])  # 3
    store.append(G, [node_updated(new, at(11), label="newer")])  # 4
    assert seqs(store, old.id) == [1, 3]
    assert seqs(store, new.id) == [2, 3, 4]
    [edge] = store.edges(G)
    assert seqs(store, edge.id) == []  # the supersede names the edge inside its payload only


def test_until_keeps_the_entries_recorded_by_then(store: Store) -> None:
    node = make_node("n", when=at(0))
    other = make_node("other", when=at(1))
    store.append(G, [node_added(node), node_added(other)])
    store.append(G, [node_updated(node, at(5), label="five")])
    store.append(G, [superseded(node, other, at(9))])
    assert seqs(store, node.id, until=at(0)) == [1]
    assert seqs(store, node.id, until=at(5)) == [1, 3]
    assert seqs(store, node.id, until=at(8)) == [1, 3]
    assert seqs(store, node.id, until=at(9)) == [1, 3, 4]
    assert seqs(store, other.id, until=at(1)) == [2]
    assert seqs(store, other.id, until=at(9)) == [2, 4]
    assert seqs(store, node.id, until=at(-1)) == []


def test_a_tombstoned_record_keeps_its_history_marked(store: Store) -> None:
    a, b = add_node(store), add_node(store)
    edge = add_edge(store, a, b)
    store.append(G, [node_updated(a, label="a2"), edge_updated(edge, state="confirmed")])
    store.append(G, [tombstoned(a, reason="duplicate"), tombstoned(edge, reason="wrong")])
    got = store.history(G, a.id)
    assert [e.seq for e in got] == [1, 4, 6]
    assert [e.invalidated_reason for e in got] == ["duplicate", "duplicate", None]
    assert got[-1].kind is EventKind.TOMBSTONED
    assert seqs(store, edge.id) == [3, 5, 7]
    assert seqs(store, a.id) == [1, 4, 6]


def test_unknown_ids_and_graphs_have_no_history(store: Store) -> None:
    assert store.history(G, "nothing") == []
    node = add_node(store)
    assert store.history("elsewhere", node.id) == []
    assert store.history(G, node.id[:8]) == []  # whole ids only: Graph resolves prefixes


def renamed(record_id: str, label: str, **extra: object) -> EventDraft:
    """A ``node.updated`` built by hand, with keys its kind does not use."""
    return raw_draft(
        EventKind.NODE_UPDATED, record_id, node_updated(record_id, label=label).payload | extra
    )


def test_the_rule_holds_for_payloads_built_by_hand(store: Store) -> None:
    """Any entry whose payload's ``new`` is the record, whatever its kind; a ``new`` that is
    not the id as a string is not about it."""
    a, b = add_node(store, label="a"), add_node(store, label="b")
    store.append(
        G,
        [
            renamed(a.id, "x", new=b.id),
            renamed(a.id, "y", new=[b.id]),
            renamed(a.id, "z", old=b.id),
        ],
    )
    assert seqs(store, b.id) == [2, 3]
    assert seqs(store, a.id) == [1, 3, 4, 5]


def test_a_nul_anywhere_in_a_payload_does_not_hide_an_entry(store: Store) -> None:
    """Metadata may hold ``\\x00``; reading a payload's ``new`` must not stumble on it."""
    old = add_node(store, label="old", metadata={"note": "a\x00b"})
    new = add_node(store, label="new")
    edge = make_edge(new, old, EdgeType.SUPERSEDES, when=at(3), metadata={"why": "\x00"})
    store.append(G, [drafts.superseded(old.id, new.id, edge, at(3))])
    assert seqs(store, new.id) == [2, 3]
    assert seqs(store, old.id) == [1, 3]
