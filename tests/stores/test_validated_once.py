"""Validation once: a draft made from a record (``node_added``, ``edge_added``) is folded
as that record, validated when it was made; but only while its payload still is the
record's JSON form. A payload changed after the draft was made is checked as any draft
from outside, and what lands is what the ledger holds, on every backend."""

from __future__ import annotations

import pytest

from decisis.errors import Conflict, InvalidInput, NotFound
from decisis.stores import Store
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added, tombstoned


@pytest.mark.parametrize(
    ("name", "bad"),
    [("label", ""), ("confidence", True), ("confidence", 2.0), ("status", "nonsense")],
)
def test_a_node_draft_changed_after_it_was_made_is_checked_from_its_payload(
    store: Store, name: str, bad: object
) -> None:
    draft = node_added(make_node("made valid", confidence=0.5))
    draft.payload["node"][name] = bad
    with pytest.raises(InvalidInput):
        store.append(G, [draft])
    assert list(store.events(G)) == []


def test_an_edge_draft_changed_after_it_was_made_is_checked_from_its_payload(
    store: Store,
) -> None:
    a, b = make_node("a"), make_node("b")
    store.append(G, [node_added(a), node_added(b)])
    draft = edge_added(make_edge(a, b))
    draft.payload["edge"]["confidence"] = True
    with pytest.raises(InvalidInput):
        store.append(G, [draft])
    assert len(list(store.events(G))) == 2


def test_what_lands_is_the_payload_not_the_record_it_was_made_from(store: Store) -> None:
    node = make_node("the record's label")
    draft = node_added(node)
    draft.payload["node"]["label"] = "the payload's label"
    store.append(G, [draft])
    assert store.get_node(G, node.id).label == "the payload's label"


def test_metadata_equal_only_by_python_equality_is_the_payloads(store: Store) -> None:
    node = make_node("flags", metadata={"flag": True, "n": 1.0}, confidence=1.0)
    draft = node_added(node)
    draft.payload["node"]["metadata"] = {"flag": 1, "n": 1}  # == the record's metadata
    store.append(G, [draft])
    stored = store.get_node(G, node.id)
    assert [type(v) for v in stored.metadata.values()] == [int, int]
    assert next(iter(store.events(G))).payload["node"]["metadata"] == {"flag": 1, "n": 1}


def test_a_confidence_equal_only_by_python_equality_is_checked(store: Store) -> None:
    draft = node_added(make_node("sure", confidence=1.0))
    draft.payload["node"]["confidence"] = True  # == 1.0, but no confidence
    with pytest.raises(InvalidInput):
        store.append(G, [draft])


def test_a_draft_as_made_lands_as_its_record(store: Store) -> None:
    node = make_node("as made", confidence=1.0, metadata={"k": [1, "two"]})
    store.append(G, [node_added(node)])
    assert store.get_node(G, node.id) == node


def test_an_id_added_twice_in_one_batch_is_refused(store: Store) -> None:
    """The append looks the batch's new ids up once, at its start: an id the batch itself
    adds twice (a node twice, an edge with a node's id) is still refused, nothing written."""
    a, b = make_node("a"), make_node("b")
    for batch in (
        [node_added(a), node_added(b), node_added(a)],
        [node_added(a), node_added(b), edge_added(make_edge(a, b, id=b.id))],
    ):
        with pytest.raises(Conflict):
            store.append(G, batch)
        assert list(store.events(G)) == []


def test_what_a_batch_knows_of_an_edges_ends_follows_the_batch(store: Store) -> None:
    """The nodes an edge joins are looked up once, when the append begins; the batch's own
    changes still count: a node tombstoned earlier in the batch, a node the batch adds
    tombstoned, or added only after the edge, are refused, and nothing is written."""
    a = make_node("a")
    store.append(G, [node_added(a)])
    gone = make_node("born tombstoned", tombstoned_at=a.recorded_at, tombstone_reason="test")
    later = make_node("added after the edge")
    for batch, error in (
        ([tombstoned(a), edge_added(make_edge(a, make_node("b")))], Conflict),
        ([node_added(b := make_node("b")), tombstoned(a), edge_added(make_edge(b, a))], Conflict),
        ([node_added(gone), edge_added(make_edge(a, gone))], Conflict),
        ([edge_added(make_edge(a, later)), node_added(later)], NotFound),
    ):
        with pytest.raises(error):
            store.append(G, batch)
        assert len(list(store.events(G))) == 1
    c = make_node("c")
    store.append(G, [node_added(c), edge_added(make_edge(a, c)), edge_added(make_edge(c, a))])
    assert len(list(store.events(G))) == 4
