"""Issue 28 part 6: what a chain alone cannot see, a signed checkpoint does (SQLite and
PostgreSQL, tampered with raw SQL behind decisis's back). Each attack first passes the
plain ``verify`` (the chain and tables are made consistent again, as a careful attacker
would), then fails ``verify --checkpoint``, named."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from decisis.errors import IntegrityError
from decisis.graph import Graph, new_key
from decisis.ledger import GENESIS, canonical_bytes, chain_checksum
from decisis.model import Event, format_time
from decisis.stores import Store
from tests.stores.raw_stores import RAW_BACKENDS, Opener, Raw

ATTACKED = ("sqlite", "pg")


@dataclass
class Setup:
    opener: Opener
    raw: Raw
    store: Store
    graph: Graph
    private: str
    public: str
    checkpoint: dict[str, Any]
    nodes: list[str]
    tmp: Path

    def reopen(self) -> Graph:
        self.store.close()
        self.store = self.opener()
        self.graph = Graph(self.store, "g")
        return self.graph


@pytest.fixture(params=ATTACKED)
def setup(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Setup]:
    """Six goals and a decision, then a checkpoint of them all, signed."""
    with RAW_BACKENDS[request.param](tmp_path) as (opener, raw, _):
        store = opener()
        graph = Graph(store, "g")
        nodes = [graph.add_goal(f"goal {i}").id for i in range(6)]
        nodes.append(graph.record_decision("use sqlite", goal=nodes[0]).id)
        private, public, _ = new_key(tmp_path / "signer")
        checkpoint = graph.checkpoint(private)
        made = Setup(opener, raw, store, graph, private, public, checkpoint, nodes, tmp_path)
        try:
            yield made
        finally:
            made.store.close()


def _events(setup: Setup) -> list[Event]:
    return list(setup.store.events("g"))


def _rechain(setup: Setup, events: list[Event], start: int) -> None:
    """Write ``events`` back from seq ``start`` on with every checksum recomputed, and move
    the head: a rewrite the chain cannot tell from the truth."""
    prev = GENESIS if start == 1 else events[start - 2].checksum
    for event in events[start - 1 :]:
        raw = canonical_bytes(
            event.graph, event.seq, event.kind, event.entity, event.payload, event.at
        )
        checksum = chain_checksum(raw, prev)
        setup.raw(
            "UPDATE ledger SET kind = %s, entity = %s, payload = %s, at = %s, "
            "prev_checksum = %s, checksum = %s WHERE graph = %s AND seq = %s",
            (
                str(event.kind),
                event.entity,
                json.dumps(event.payload, sort_keys=True, separators=(",", ":")),
                format_time(event.at),
                prev,
                checksum,
                "g",
                event.seq,
            ),
        )
        prev = checksum
    setup.raw(
        "UPDATE heads SET seq = %s, checksum = %s WHERE graph = %s", (events[-1].seq, prev, "g")
    )


def _problems(setup: Setup, graph: Graph, checkpoint: Any = None, key: str | None = None) -> str:
    report = graph.verify(checkpoint=checkpoint or setup.checkpoint, key=key or setup.public)
    assert not report.ok
    return " | ".join(report.problems)


def test_an_honest_store_verifies_against_its_checkpoint(setup: Setup) -> None:
    graph = setup.reopen()
    graph.add_goal("later")  # entries after the checkpoint are fine: it signed a prefix
    report = graph.verify(checkpoint=setup.checkpoint, key=setup.public)
    assert report.ok, report.problems
    second = graph.checkpoint(setup.private)
    assert graph.verify(checkpoint=second, key=setup.public).ok


def test_tail_cut_with_the_head_moved(setup: Setup) -> None:
    events = _events(setup)
    last_two = events[-2:]  # the decision's entries (node, edge, ...) or the last goals
    setup.store.close()
    for event in last_two:
        setup.raw("DELETE FROM ledger WHERE graph = %s AND seq = %s", ("g", event.seq))
    keep = events[-3]
    setup.raw(
        "UPDATE heads SET seq = %s, checksum = %s WHERE graph = %s", (keep.seq, keep.checksum, "g")
    )
    _drop_rows_of(setup, last_two)
    setup.store = setup.opener()
    graph = Graph(setup.store, "g")
    assert graph.verify().ok, graph.verify().problems  # the chain alone sees nothing wrong
    problems = _problems(setup, graph)
    assert "dropped from the tail" in problems
    assert f"signed {len(events)} entries, the ledger holds {len(events) - 2}" in problems
    # the kept tree still remembers them: no new checkpoint, no write on top
    with pytest.raises(IntegrityError, match="does not end at the ledger's head"):
        graph.checkpoint(setup.private)
    with pytest.raises(IntegrityError, match="dropped from the tail"):
        graph.add_goal("papering over")


def _drop_rows_of(setup: Setup, events: list[Event]) -> None:
    """Remove what the dropped entries made from the tables, so a replay agrees."""
    for event in events:
        if str(event.kind) == "edge.added":
            setup.raw("DELETE FROM edges WHERE graph = %s AND id = %s", ("g", event.entity))
    for event in events:
        if str(event.kind) == "node.added":
            setup.raw("DELETE FROM nodes WHERE graph = %s AND id = %s", ("g", event.entity))


def test_full_rewrite_with_recomputed_hashes(setup: Setup) -> None:
    events = _events(setup)
    target = events[1]  # goal 1's node.added
    node = dict(target.payload["node"], label="a goal nobody set")
    events[1] = Event(
        target.graph, target.seq, target.kind, target.entity, {"node": node}, target.at, "", ""
    )
    setup.store.close()
    _rechain(setup, events, 1)  # every checksum from GENESIS on, recomputed
    setup.raw(
        "UPDATE nodes SET label = %s WHERE graph = %s AND id = %s",
        (node["label"], "g", target.entity),
    )
    graph = setup.reopen()
    assert graph.verify().ok, graph.verify().problems
    problems = _problems(setup, graph)
    assert "do not have the Merkle root the checkpoint signed" in problems
    assert "seq 2 is the first that differs" in problems
    assert f"seq {len(events)}: its checksum is not the head the checkpoint signed" in problems
    with pytest.raises(IntegrityError, match="seq 2: the ledger's entry is not the one"):
        graph.prove(target.entity, setup.checkpoint)


def test_rewrite_of_the_tree_too_is_still_named(setup: Setup) -> None:
    events = _events(setup)
    setup.store.close()
    _swap(events, 2, 3)
    _rechain(setup, events, 2)
    setup.raw("DELETE FROM merkle_nodes WHERE graph = %s", ("g",))
    graph = setup.reopen()
    problems = _problems(setup, graph)
    assert "the store's own Merkle tree was rewritten too" in problems


def _swap(events: list[Event], a: int, b: int) -> None:
    """Entries at seq ``a`` and ``b`` trade content, keeping their positions' seq."""
    first, second = events[a - 1], events[b - 1]
    events[a - 1] = Event(
        first.graph, a, second.kind, second.entity, second.payload, second.at, "", ""
    )
    events[b - 1] = Event(first.graph, b, first.kind, first.entity, first.payload, first.at, "", "")


def test_reordered_pair(setup: Setup) -> None:
    events = _events(setup)
    setup.store.close()
    _swap(events, 3, 4)  # two goals added: the tables are the same in either order
    _rechain(setup, events, 3)
    graph = setup.reopen()
    assert graph.verify().ok, graph.verify().problems
    problems = _problems(setup, graph)
    assert "rewritten, reordered or replaced" in problems
    assert "seq 3 is the first that differs" in problems


def test_forged_checkpoint(setup: Setup) -> None:
    forged = dict(setup.checkpoint, size=setup.checkpoint["size"] - 2)
    problems = _problems(setup, setup.graph, checkpoint=forged)
    assert "signature does not verify" in problems and "forged or altered" in problems
    unsigned = dict(setup.checkpoint, signature="AAAA")
    assert "forged or altered" in _problems(setup, setup.graph, checkpoint=unsigned)


def test_checkpoint_signed_by_another_key(setup: Setup) -> None:
    other_private, other_public, other_id = new_key(setup.tmp / "intruder")
    theirs = setup.graph.checkpoint(other_private)  # signed with the intruder's own key
    problems = _problems(setup, setup.graph, checkpoint=theirs)
    assert f"signed by another key ({other_id})" in problems
    problems = _problems(setup, setup.graph, key=other_public)  # ours, checked with theirs
    assert "signed by another key" in problems


def _verify_proof(
    proof: dict[str, Any], public: str, tmp: Path
) -> subprocess.CompletedProcess[str]:
    path = tmp / "proof.json"
    path.write_text(json.dumps(proof), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "decisis.proof", "verify", str(path), "--key", public],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_proof_for_a_tombstoned_node(setup: Setup) -> None:
    graph = setup.graph
    gone = setup.nodes[2]
    graph.tombstone(gone, "recorded by mistake")
    later = graph.checkpoint(setup.private)
    proof = graph.prove(gone, later)
    assert proof["tombstoned"]["reason"] == "recorded by mistake"
    assert [json.loads(e["event"])["kind"] for e in proof["entries"]] == [
        "node.added",
        "tombstoned",
    ]
    done = _verify_proof(proof, setup.public, setup.tmp)
    assert done.returncode == 0, done.stderr
    assert f"node {gone} is tombstoned" in done.stdout
    # under the checkpoint from before the tombstone, its addition only, nothing hidden
    before = graph.prove(gone, setup.checkpoint)
    assert before["tombstoned"] is not None and before["not_covered"] == [later["size"]]
    # a proof whose entry was altered fails, named
    bent = json.loads(json.dumps(proof))
    bent["entries"][0]["event"] = bent["entries"][0]["event"].replace("goal 2", "goal 9")
    done = _verify_proof(bent, setup.public, setup.tmp)
    assert done.returncode == 1 and "entry 1 (seq" in done.stderr and "not included" in done.stderr


def test_consistency_between_checkpoints_and_a_forged_new_one(setup: Setup) -> None:
    graph = setup.graph
    graph.add_goal("later")
    newer = graph.checkpoint(setup.private)
    proof = graph.prove_consistency(setup.checkpoint, newer)
    done = _verify_proof(proof, setup.public, setup.tmp)
    assert done.returncode == 0 and "consistent" in done.stdout, done.stderr
    proof["new"] = dict(newer, root="0" * 64)
    done = _verify_proof(proof, setup.public, setup.tmp)
    assert done.returncode == 1 and "new checkpoint" in done.stderr and "forged" in done.stderr
