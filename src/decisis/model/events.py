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
from typing import Any

from decisis.model.enums import EventKind

__all__ = ["Event", "EventDraft"]


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
