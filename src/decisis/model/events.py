"""Ledger events: what changed, as data. A store turns drafts into chained events.

Payloads by kind (every value JSON; times in the canonical text form):

====================  =============================================================
kind                  payload
====================  =============================================================
``node.added``        ``{"node": Node.to_dict()}``
``node.updated``      ``{"id": ID, "changes": {field: value}, "updated_at": T}``
``edge.added``        ``{"edge": Edge.to_dict()}``
``edge.updated``      ``{"id": ID, "changes": {field: value}, "updated_at": T}``
``superseded``        ``{"old": ID, "new": ID, "at": T, "edge": Edge.to_dict()}``
``tombstoned``        ``{"id": ID, "target": "node" | "edge", "reason": str, "at": T}``
====================  =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from decisis.model.enums import EventKind
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
    "superseded",
    "tombstoned",
]


@dataclass(frozen=True, slots=True)
class EventDraft:
    """A change not yet in the ledger: the store gives it ``seq`` and checksums on append."""

    kind: EventKind
    entity: str
    payload: dict[str, Any]
    at: datetime


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
    return EventDraft(EventKind.NODE_ADDED, node.id, {"node": node.to_dict()}, at)


def node_updated(node_id: str, changes: dict[str, Any], at: datetime) -> EventDraft:
    payload = {
        "id": node_id,
        "changes": {k: _json_value(v) for k, v in changes.items()},
        "updated_at": format_time(at),
    }
    return EventDraft(EventKind.NODE_UPDATED, node_id, payload, at)


def edge_added(edge: Edge, at: datetime) -> EventDraft:
    return EventDraft(EventKind.EDGE_ADDED, edge.id, {"edge": edge.to_dict()}, at)


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


_PAYLOAD_SHAPES: dict[EventKind, dict[str, type | tuple[type, ...]]] = {
    EventKind.NODE_ADDED: {"node": dict},
    EventKind.NODE_UPDATED: {"id": str, "changes": dict, "updated_at": str},
    EventKind.EDGE_ADDED: {"edge": dict},
    EventKind.EDGE_UPDATED: {"id": str, "changes": dict, "updated_at": str},
    EventKind.SUPERSEDED: {"old": str, "new": str, "at": str, "edge": dict},
    EventKind.TOMBSTONED: {"id": str, "target": str, "reason": (str, type(None)), "at": str},
}


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
    return payload
