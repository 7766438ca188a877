"""The ledger hash is a contract: these pins fail if the canonical form ever drifts."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from decisis.ledger import (
    GENESIS,
    canonical_bytes,
    canonical_event,
    canonical_text,
    chain_checksum,
    check_chain,
)
from decisis.model import Event, EventKind

AT = datetime(2026, 11, 1, 12, 0, 0, 123456, tzinfo=UTC)
PAYLOAD = {"node": {"label": "Use JWT — tokens", "confidence": 0.1, "metadata": {"b": 1, "a": [2]}}}


def test_canonical_bytes_are_sorted_compact_utf8() -> None:
    raw = canonical_bytes("default", 1, EventKind.NODE_ADDED, "01abc", PAYLOAD, AT)
    assert (
        raw
        == (
            '{"at":"2026-11-01T12:00:00.123456Z","entity":"01abc","graph":"default",'
            '"kind":"node.added","payload":{"node":{"confidence":0.1,"label":"Use JWT — tokens",'
            '"metadata":{"a":[2],"b":1}}},"seq":1}'
        ).encode()
    )


def test_checksum_of_a_fixed_event_is_pinned() -> None:
    raw = canonical_bytes("default", 1, EventKind.NODE_ADDED, "01abc", PAYLOAD, AT)
    checksum = chain_checksum(raw, GENESIS)
    assert checksum == "sha256:" + hashlib.sha256(raw + GENESIS.encode()).hexdigest()
    assert checksum == "sha256:0215b14b89de3e10eea310ad0edd4a36038b44aae9c8343872de786bd9c34a27"


def _chain(n: int) -> list[Event]:
    events, prev = [], GENESIS
    for seq in range(1, n + 1):
        payload = {"id": f"n{seq}"}
        checksum = chain_checksum(
            canonical_bytes("g", seq, EventKind.NODE_UPDATED, f"n{seq}", payload, AT), prev
        )
        events.append(
            Event("g", seq, EventKind.NODE_UPDATED, f"n{seq}", payload, AT, prev, checksum)
        )
        prev = checksum
    return events


def test_intact_chain_passes() -> None:
    assert check_chain(_chain(5)) == (5, None)


def test_edited_payload_is_named_by_seq() -> None:
    events = _chain(5)
    bad = events[2]
    events[2] = Event(
        bad.graph,
        bad.seq,
        bad.kind,
        bad.entity,
        {"id": "evil"},
        bad.at,
        bad.prev_checksum,
        bad.checksum,
    )
    _, problem = check_chain(events)
    assert problem is not None and problem.seq == 3 and "content" in problem.reason


def test_deleted_and_reordered_entries_are_found() -> None:
    events = _chain(5)
    _, deleted = check_chain(events[:2] + events[3:])
    assert deleted is not None and deleted.seq == 4
    swapped = [events[0], events[2], events[1], *events[3:]]
    _, reordered = check_chain(swapped)
    assert reordered is not None and reordered.seq == 3


def test_invalidation_fields_are_outside_the_checksum() -> None:
    events = _chain(3)
    e = events[1]
    events[1] = Event(
        e.graph,
        e.seq,
        e.kind,
        e.entity,
        e.payload,
        e.at,
        e.prev_checksum,
        e.checksum,
        invalidated_at=AT,
        invalidated_reason="gdpr",
    )
    assert check_chain(events) == (3, None)


@pytest.mark.parametrize(
    ("graph", "entity", "payload"),
    [
        ("default", "01m8y3tqzd98gzb3mb3b33h7sx", {"node": {"label": "plain", "n": 1.5}}),
        ('team "a" \\ b', 'rule:x"y', {"b": [1, None, True], "a": {"z": "é\u2028\x00"}}),
        ("数据", "", {"metadata": {"k": 10**20, "f": 1e-7}, "": "empty key"}),
    ],
)
def test_the_payload_encoded_once_gives_the_contracts_bytes(
    graph: str, entity: str, payload: dict[str, object]
) -> None:
    """Stores encode a payload once and write the event around that text
    (``canonical_event``): the bytes are the contract's, byte for byte."""
    when = datetime(2026, 12, 3, 14, 0, 1, 123456, tzinfo=UTC)
    expected = canonical_bytes(graph, 7, EventKind.NODE_ADDED, entity, payload, when)
    text = canonical_text(payload)
    assert canonical_event(graph, 7, EventKind.NODE_ADDED, entity, text, when) == expected
