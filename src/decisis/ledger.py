"""The ledger hash: a documented contract, the same on every backend.

Canonical form of an event: the JSON object

    {"at": T, "entity": ID, "graph": NAME, "kind": KIND, "payload": {...}, "seq": N}

written with sorted keys, no spaces (``separators=(",", ":")``), UTF-8 without
ASCII escaping, timestamps as ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (UTC) and floats as
Python's ``repr`` writes them. Then

    checksum = "sha256:" + hex(sha256(canonical bytes + prev_checksum as UTF-8))

The first event of a graph chains from ``GENESIS``. ``invalidated_at`` and
``invalidated_reason`` (set by a tombstone) are not part of the canonical form.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.model.events import Event
from decisis.model.times import format_time

__all__ = [
    "GENESIS",
    "ChainBreak",
    "canonical_bytes",
    "canonical_event",
    "canonical_text",
    "chain_checksum",
    "check_chain",
]

_encode_text = json.encoder.encode_basestring  # the writer json.dumps uses for str
ALGORITHM = "sha256"
GENESIS = f"{ALGORITHM}:" + "0" * 64


def canonical_text(value: Any) -> str:
    """One JSON value as the canonical form writes it (sorted keys, compact, no NaN)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def canonical_bytes(
    graph: str, seq: int, kind: str, entity: str, payload: dict[str, Any], at: datetime
) -> bytes:
    document = {
        "at": format_time(at),
        "entity": entity,
        "graph": graph,
        "kind": str(kind),
        "payload": payload,
        "seq": seq,
    }
    return canonical_text(document).encode("utf-8")


def canonical_event(
    graph: str, seq: int, kind: str, entity: str, payload_text: str, at: datetime
) -> bytes:
    """``canonical_bytes`` around a payload already written as ``canonical_text``, so a
    store encodes each payload once, for the checksum and for the row it stores: the
    members in the same sorted order, each written as the whole document would write it."""
    head = (
        f'{{"at":"{format_time(at)}","entity":{_text(entity)},"graph":{_text(graph)},'
        f'"kind":{_text(str(kind))},"payload":{payload_text},"seq":{_text(seq)}}}'
    )
    return head.encode("utf-8")


def _text(value: Any) -> str:
    """``canonical_text`` of one member: JSON's own string writer for text (what
    ``json.dumps`` calls with ``ensure_ascii=False``), ``repr`` for a whole number."""
    if type(value) is str:
        return _encode_text(value)
    if type(value) is int:
        return repr(value)
    return canonical_text(value)


def chain_checksum(canonical: bytes, prev_checksum: str) -> str:
    digest = hashlib.sha256(canonical + prev_checksum.encode("utf-8")).hexdigest()
    return f"{ALGORITHM}:{digest}"


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first entry at which the chain fails, and why."""

    seq: int
    reason: str


def check_chain(
    events: Iterable[Event], *, after: tuple[int, str] = (0, GENESIS)
) -> tuple[int, ChainBreak | None]:
    """Walk events in storage order; return how many were read and the first break, if any.
    ``after``: the (seq, checksum) of the entry the walk starts behind (a trusted prefix)."""
    expected_seq = after[0] + 1
    prev = after[1]
    count = 0
    for event in events:
        count += 1
        if event.seq != expected_seq:
            return count, ChainBreak(
                event.seq, f"expected seq {expected_seq}, found {event.seq} (missing or reordered)"
            )
        if event.prev_checksum != prev:
            return count, ChainBreak(event.seq, "prev_checksum does not match the entry before")
        canonical = canonical_bytes(
            event.graph, event.seq, event.kind, event.entity, event.payload, event.at
        )
        if chain_checksum(canonical, prev) != event.checksum:
            return count, ChainBreak(event.seq, "checksum does not match the entry's content")
        prev = event.checksum
        expected_seq += 1
    return count, None
