"""Ledger events: what changed, as data. A store turns drafts into chained events.

Payloads by kind (every value JSON; times in the canonical text form):

=========================  =============================================================
kind                       payload
=========================  =============================================================
``node.added``             ``{"node": Node.to_dict()}``
``node.updated``           ``{"id": ID, "changes": {field: value}, "updated_at": T}``
``edge.added``             ``{"edge": Edge.to_dict()}``
``edge.updated``           ``{"id": ID, "changes": {field: value}, "updated_at": T}``
``superseded``             ``{"old": ID, "new": ID, "at": T, "edge": Edge.to_dict()}``
``tombstoned``             ``{"id": ID, "target": "node" | "edge", "reason": str, "at": T}``
``rule.trusted``           ``{"rule": str, "successes": S, "failures": F, "confidence": C,
                           "updated_at": T}``: a link rule's Beta trust moved to (S, F);
                           every live candidate ``supersedes`` edge whose
                           ``metadata.rule`` is ``rule`` gets confidence ``C``, the mean
                           S / (S + F) to six decimals (entity ``rule:<name>``)
``provenance.recorded``    ``{"entity": ID, "activity": str, "agent": str,
                           "agent_type": "person" | "software_agent" | "organization",
                           "role": str, "source": str, "source_blob": SHA,
                           "source_commit": SHA, "confidence": C, "started_at": T,
                           "ended_at": T, "outcome": str, "error": str}``: who or what
                           made the node or edge ``entity`` (the event's entity too), how
                           and from what; only ``entity`` and ``activity`` are required,
                           an absent key is left out (``decisis.model.provenance``). The
                           fold changes no table: the record must exist and not be
                           tombstoned; ``Graph.provenance`` reads the entries back
=========================  =============================================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from decisis.model.enums import EventKind
from decisis.model.provenance import check_provenance
from decisis.model.records import Edge, Node
from decisis.model.times import format_time

__all__ = [
    "Event",
    "EventDraft",
    "check_payload",
    "edge_added",
    "edge_updated",
    "node_added",
    "node_updated",
    "provenance_recorded",
    "rule_trusted",
    "superseded",
    "tombstoned",
]


@dataclass(frozen=True, slots=True)
class EventDraft:
    """A change not yet in the ledger: the store gives it ``seq`` and checksums on append.

    ``record``: the ``Node`` or ``Edge`` a ``node.added`` / ``edge.added`` draft was made
    from (``node_added``, ``edge_added``). It was validated when it was made, so a store
    folds it as it is, without building and checking it again from the payload, as long as
    the payload still is its JSON form (``fold.added_record``); any other draft is checked
    from its payload alone. Not part of the event.
    """

    kind: EventKind
    entity: str
    payload: dict[str, Any]
    at: datetime
    record: Node | Edge | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Event:
    """One ledger entry, as read back from storage.

    ``invalidated_at``/``invalidated_reason`` are set when the entity is tombstoned;
    they are outside the checksum, so tombstoning never breaks the chain.
    """

    graph: str
    seq: int
    kind: EventKind
    entity: str
    payload: dict[str, Any]
    at: datetime
    prev_checksum: str
    checksum: str
    invalidated_at: datetime | None = None
    invalidated_reason: str | None = None


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, StrEnum):
        return value.value
    return value


def node_added(node: Node, at: datetime) -> EventDraft:
    return EventDraft(EventKind.NODE_ADDED, node.id, {"node": node.to_dict()}, at, node)


def node_updated(node_id: str, changes: dict[str, Any], at: datetime) -> EventDraft:
    payload = {
        "id": node_id,
        "changes": {k: _json_value(v) for k, v in changes.items()},
        "updated_at": format_time(at),
    }
    return EventDraft(EventKind.NODE_UPDATED, node_id, payload, at)


def edge_added(edge: Edge, at: datetime) -> EventDraft:
    return EventDraft(EventKind.EDGE_ADDED, edge.id, {"edge": edge.to_dict()}, at, edge)


def edge_updated(edge_id: str, changes: dict[str, Any], at: datetime) -> EventDraft:
    payload = {
        "id": edge_id,
        "changes": {k: _json_value(v) for k, v in changes.items()},
        "updated_at": format_time(at),
    }
    return EventDraft(EventKind.EDGE_UPDATED, edge_id, payload, at)


def superseded(old_id: str, new_id: str, edge: Edge, at: datetime) -> EventDraft:
    payload = {"old": old_id, "new": new_id, "at": format_time(at), "edge": edge.to_dict()}
    return EventDraft(EventKind.SUPERSEDED, old_id, payload, at)


def tombstoned(record_id: str, target: str, reason: str | None, at: datetime) -> EventDraft:
    payload = {"id": record_id, "target": target, "reason": reason, "at": format_time(at)}
    return EventDraft(EventKind.TOMBSTONED, record_id, payload, at)


def rule_trusted(
    rule: str, successes: float, failures: float, confidence: float, at: datetime
) -> EventDraft:
    """A rule's trust moved: one event carries the new confidence to all its unjudged links,
    so a correction writes one entry per rule instead of one per link."""
    payload = {
        "rule": rule,
        "successes": successes,
        "failures": failures,
        "confidence": confidence,
        "updated_at": format_time(at),
    }
    return EventDraft(EventKind.RULE_TRUSTED, f"rule:{rule}", payload, at)


def provenance_recorded(payload: dict[str, Any], at: datetime) -> EventDraft:
    """A provenance entry (a payload from ``provenance_payload``) about its ``entity``."""
    return EventDraft(EventKind.PROVENANCE, payload["entity"], payload, at)


_NUMBER = (int, float)
_PAYLOAD_SHAPES: dict[EventKind, dict[str, type | tuple[type, ...]]] = {
    EventKind.NODE_ADDED: {"node": dict},
    EventKind.NODE_UPDATED: {"id": str, "changes": dict, "updated_at": str},
    EventKind.EDGE_ADDED: {"edge": dict},
    EventKind.EDGE_UPDATED: {"id": str, "changes": dict, "updated_at": str},
    EventKind.SUPERSEDED: {"old": str, "new": str, "at": str, "edge": dict},
    EventKind.TOMBSTONED: {"id": str, "target": str, "reason": (str, type(None)), "at": str},
    EventKind.RULE_TRUSTED: {
        "rule": str,
        "successes": _NUMBER,
        "failures": _NUMBER,
        "confidence": _NUMBER,
        "updated_at": str,
    },
    EventKind.PROVENANCE: {"entity": str, "activity": str},
}
_MAX_RULE_NAME = 200
_MEAN_TOLERANCE = 1e-6  # the confidence is the Beta mean rounded to six decimals


def check_payload(kind: EventKind, payload: object) -> dict[str, Any]:
    """Refuse a payload that lacks a key its kind needs, so a store never sees a KeyError."""
    from decisis.errors import InvalidInput

    shape = _PAYLOAD_SHAPES[kind]
    if not isinstance(payload, dict):
        raise InvalidInput("payload", f"a {kind.value} payload must be an object", sorted(shape))
    for key, expected in shape.items():
        if not isinstance(payload.get(key), expected):
            raise InvalidInput(
                f"payload.{key}",
                f"missing or of the wrong type in a {kind.value} event",
                ", ".join(sorted(shape)),
            )
    if kind is EventKind.RULE_TRUSTED:
        _check_rule_trusted(payload)
    elif kind is EventKind.PROVENANCE:
        check_provenance(payload)
    return payload


def _check_rule_trusted(payload: dict[str, Any]) -> None:
    """Refuse a trust no Beta belief can have, so no backend writes a confidence it cannot
    explain. Rule names are plain names (no backslash, no control character), so finding
    them in the JSON text of edge metadata is the same on every backend."""
    from decisis.errors import InvalidInput

    rule = payload["rule"]
    if not rule.strip() or len(rule) > _MAX_RULE_NAME:
        raise InvalidInput("payload.rule", f"{rule!r} is not a rule name", "1 to 200 characters")
    if "\\" in rule or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in rule):
        raise InvalidInput(
            "payload.rule",
            f"{rule!r} holds a backslash or a control character",
            "a rule name as registered, e.g. same-question",
        )
    counts: dict[str, float] = {}
    for key in ("successes", "failures"):
        value = payload[key]
        number = float(value) if abs(value) < 1e300 else math.inf  # no OverflowError
        if isinstance(value, bool) or not math.isfinite(number) or number < 0:
            raise InvalidInput(f"payload.{key}", f"{value!r} is not a finite count >= 0", ">= 0")
        counts[key] = number
    total = counts["successes"] + counts["failures"]
    if total <= 0:
        raise InvalidInput("payload.failures", "successes and failures are both 0", "a sum > 0")
    confidence = payload["confidence"]
    if isinstance(confidence, bool) or not 0.0 <= confidence <= 1.0:  # NaN fails too
        raise InvalidInput("payload.confidence", f"{confidence!r} is out of range", "0.0 to 1.0")
    mean = counts["successes"] / total
    if abs(confidence - mean) > _MEAN_TOLERANCE:
        raise InvalidInput(
            "payload.confidence",
            f"{confidence!r} is not the Beta mean {mean:.6f} of the counts",
            "successes / (successes + failures), to six decimals",
        )
