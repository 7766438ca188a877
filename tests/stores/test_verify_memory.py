"""``verify`` against tampering, done to a memory store through its internals (the SQLite
tests do the same with raw SQL). Each test damages one thing and checks that the report
names the first bad entry, or the record and field that drifted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from decisis.ledger import canonical_bytes, chain_checksum
from decisis.model import Event
from decisis.stores.memory import MemoryStore
from decisis.stores.replay import VerifyReport, verify
from tests.stores.helpers import G, add_chain, node_updated, superseded, tombstoned


@pytest.fixture
def store() -> MemoryStore:
    """Ten events: a chain of four, an update, a supersession, a tombstone."""
    store = MemoryStore()
    a, b, c, d = add_chain(store, 4)
    store.append(G, [node_updated(a, label="a2")])
    store.append(G, [superseded(b, d)])
    store.append(G, [tombstoned(c)])
    assert len(store._graphs[G].events) == 10
    assert verify(store, G).ok
    return store


def ledger(store: MemoryStore) -> list[Event]:
    return store._graphs[G].events


def rechain(events: list[Event]) -> list[Event]:
    """Recompute every checksum, as a forger who knows the algorithm would."""
    prev = events[0].prev_checksum
    out = []
    for e in events:
        raw = canonical_bytes(e.graph, e.seq, e.kind, e.entity, e.payload, e.at)
        checksum = chain_checksum(raw, prev)
        out.append(replace(e, prev_checksum=prev, checksum=checksum))
        prev = checksum
    return out


def failed(report: VerifyReport, first_bad_seq: int | None, *words: str) -> None:
    assert not report.ok
    assert report.first_bad_seq == first_bad_seq, report.problems
    text = " ".join(report.problems)
    for word in words:
        assert word in text, report.problems


def test_an_edited_payload_is_caught(store: MemoryStore) -> None:
    events = ledger(store)
    node = dict(events[2].payload["node"], label="rewritten")
    events[2] = replace(events[2], payload={"node": node})
    failed(verify(store, G), 3, "checksum")


def test_an_edited_time_is_caught(store: MemoryStore) -> None:
    events = ledger(store)
    events[5] = replace(events[5], at=events[0].at)
    failed(verify(store, G), 6, "checksum")


def test_a_deleted_event_is_caught(store: MemoryStore) -> None:
    del ledger(store)[4]
    failed(verify(store, G), 5, "expected seq 5")


def test_reordered_events_are_caught(store: MemoryStore) -> None:
    events = ledger(store)
    events[6], events[7] = events[7], events[6]
    failed(verify(store, G), 7, "expected seq 7")


def test_an_inserted_event_is_caught(store: MemoryStore) -> None:
    events = ledger(store)
    events.insert(3, events[3])
    failed(verify(store, G), 5, "expected seq 5")


def test_a_truncated_tail_is_caught_by_the_head(store: MemoryStore) -> None:
    del ledger(store)[-2:]
    failed(verify(store, G), 9, "head", "seq 10", "missing at the end")


def test_an_emptied_ledger_is_caught_by_the_head(store: MemoryStore) -> None:
    ledger(store).clear()
    failed(verify(store, G), 1, "head")


def test_a_consistently_forged_chain_is_caught_by_the_head(store: MemoryStore) -> None:
    events = ledger(store)
    node = dict(events[0].payload["node"], label="forged")
    events[0] = replace(events[0], payload={"node": node})
    events[:] = rechain(events)
    failed(verify(store, G), 10, "checksum")


def test_a_forged_chain_and_head_is_caught_by_the_tables(store: MemoryStore) -> None:
    events = ledger(store)
    node = dict(events[1].payload["node"], label="forged")
    events[1] = replace(events[1], payload={"node": node})
    events[:] = rechain(events)
    store._graphs[G].head = (events[-1].seq, events[-1].checksum)
    report = verify(store, G)
    failed(report, None, events[1].entity, "label", "forged")


def test_a_drifted_table_is_named_by_record_and_field(store: MemoryStore) -> None:
    nodes = store._graphs[G].state.nodes
    victim = sorted(nodes)[1]
    nodes[victim] = nodes[victim].evolve(confidence=0.5)
    failed(verify(store, G), None, f"node {victim}", "confidence")


def test_a_record_missing_from_the_table_is_named(store: MemoryStore) -> None:
    edges = store._graphs[G].state.edges
    victim = sorted(edges)[0]
    del edges[victim]
    failed(verify(store, G), None, f"edge {victim}", "missing from the table")


def test_a_record_only_in_the_table_is_named(store: MemoryStore) -> None:
    nodes = store._graphs[G].state.nodes
    template = next(iter(nodes.values()))
    extra = replace(template, id="0" * 25 + "1")
    nodes[extra.id] = extra
    failed(verify(store, G), None, extra.id, "not in the ledger")


def test_an_event_the_fold_refuses_is_named(store: MemoryStore) -> None:
    events = ledger(store)
    # re-add node 1 at the end, re-chained and with the head moved: only the fold objects
    events.append(replace(events[0], seq=11))
    events[:] = rechain(events)
    store._graphs[G].head = (11, events[-1].checksum)
    failed(verify(store, G), 11, "seq 11", "already used")


def test_verify_report_reads_well(store: MemoryStore) -> None:
    assert str(verify(store, G)).startswith("ok: 10 events")
    del ledger(store)[-1]
    assert "FAILED" in str(verify(store, G))
