"""The Merkle tree every backend keeps beside the ledger (``decisis.stores.merkle``): grown
in each append's transaction, equal to the RFC 6962 tree over the ledger as read, and the
source of proofs that check; checkpoints, kept in the store, verify on an honest store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decisis.errors import Conflict
from decisis.graph import Graph, new_key
from decisis.model import EventDraft, utc_now
from decisis.model import events as drafts
from decisis.proof import (
    check_proof,
    leaf_hash,
    load_public_key,
    root_of,
    verify_consistency,
    verify_inclusion,
)
from decisis.stores import Store
from decisis.stores.merkle import consistency, inclusion, leaf_data, root_at
from tests.stores.helpers import G, make_node


def _added(label: str) -> EventDraft:
    return drafts.node_added(make_node(label), utc_now())


def _reference(store: Store) -> list[bytes]:
    return [leaf_hash(leaf_data(e)) for e in store.events(G)]


def test_the_tree_follows_every_append(store: Store) -> None:
    sizes = []
    for batch in (1, 3, 1, 7, 2):
        store.append(G, [_added(f"n{i}") for i in range(batch)])
        sizes.append(store.head(G)[0])
        assert store.tree_size(G) == sizes[-1]
    leaves = _reference(store)
    fetch = lambda keys: store.tree_hashes(G, keys)  # noqa: E731
    for size in sizes:
        assert root_at(size, fetch) == root_of(leaves[:size])
    root = root_of(leaves)
    for index in range(len(leaves)):
        path = inclusion(index, len(leaves), fetch)
        assert verify_inclusion(index, len(leaves), leaves[index], path, root)
    for old in sizes:
        path = consistency(old, len(leaves), fetch)
        assert verify_consistency(old, len(leaves), root_of(leaves[:old]), root, path)
    assert store.tree_size("other") == 0 and store.tree_hashes("other", [(0, 0)]) == {}


def test_a_refused_batch_leaves_the_tree_as_it_was(store: Store) -> None:
    store.append(G, [_added("kept")])
    node = make_node("twice")
    with pytest.raises(Conflict):  # the second add of one id is refused: nothing lands
        store.append(G, [drafts.node_added(node, utc_now()), drafts.node_added(node, utc_now())])
    assert store.tree_size(G) == store.head(G)[0] == 1
    store.append(G, [_added("next")])
    assert root_at(2, lambda keys: store.tree_hashes(G, keys)) == root_of(_reference(store))


def test_checkpoints_and_proofs_on_an_honest_store(store: Store, tmp_path: Path) -> None:
    private, public, key_id = new_key(tmp_path / "signer")
    graph = Graph(store, G)
    goal = graph.add_goal("ship it")
    first = graph.checkpoint(private)
    decision = graph.record_decision("use sqlite", goal=goal.id)
    graph.tombstone(goal.id, "wrong goal")
    second = graph.checkpoint(private)
    assert first["key_id"] == second["key_id"] == key_id
    assert [c["size"] for c in graph.checkpoints()] == [first["size"], second["size"]]
    assert graph.checkpoints()[1] == second
    for checkpoint in (first, second):
        report = graph.verify(checkpoint=checkpoint, key=public)
        assert report.ok, report.problems
        assert any("signed checkpoint" in c for c in report.checked)
    key = load_public_key(Path(public).read_bytes())
    proof = json.loads(json.dumps(graph.prove(decision.id, second)))
    assert check_proof(proof, key)[-1].startswith("included")
    stone = graph.prove(goal.id, second)
    assert stone["tombstoned"]["reason"] == "wrong goal"
    assert any("tombstoned" in line for line in check_proof(stone, key))
    assert check_proof(graph.prove_consistency(first, second), key)[0].startswith("consistent")
