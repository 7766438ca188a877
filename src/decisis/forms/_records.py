"""The forms of the records themselves: a node, an edge, a ledger event, and a node or an
edge with its history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import Field

from decisis.forms._base import Form, Metadata, Time
from decisis.model import EdgeType, EventKind, LinkState, NodeStatus, NodeType, format_time

if TYPE_CHECKING:
    from decisis.model import Edge, Event, Node

__all__ = ["EdgeDetail", "EdgeOut", "EventOut", "NodeDetail", "NodeOut", "event_data"]


# Nodes and edges share their last ten fields, written out in each model: a model sends its
# fields in its own order, and a base model's fields would come first ("recorded_at" before
# "id" in every answer a person reads).
class NodeOut(Form):
    """A goal, decision, option, action, outcome, observation or revisit."""

    id: str
    type: NodeType
    label: str
    status: NodeStatus
    recorded_at: Time = Field(description="When decisis learnt it.")
    updated_at: Time
    valid_from: Time = Field(description="When it began to hold in the world.")
    valid_until: Time | None
    confidence: float | None
    rationale: str | None
    metadata: Metadata
    agent: str | None
    tombstoned_at: Time | None
    tombstone_reason: str | None

    @classmethod
    def of(cls, node: Node) -> NodeOut:
        return cls.model_validate(node.to_dict())

    @classmethod
    def all_of(cls, nodes: Sequence[Node]) -> list[dict[str, Any]]:
        """Nodes as JSON data, in their order."""
        return [cls.of(node).dump() for node in nodes]


class EdgeOut(Form):
    """A typed link ``source -type-> target``; a rule's link carries its state."""

    id: str
    type: EdgeType
    source: str
    target: str
    recorded_at: Time
    updated_at: Time
    valid_from: Time
    valid_until: Time | None
    state: LinkState
    confidence: float | None
    rationale: str | None
    metadata: Metadata
    agent: str | None
    tombstoned_at: Time | None
    tombstone_reason: str | None

    @classmethod
    def of(cls, edge: Edge) -> EdgeOut:
        return cls.model_validate(edge.to_dict())


def event_data(event: Event) -> dict[str, Any]:
    """A ledger event as plain data, the form ``EventOut`` describes."""
    return {
        "seq": event.seq,
        "kind": event.kind.value,
        "entity": event.entity,
        "at": format_time(event.at),
        "payload": event.payload,
        "prev_checksum": event.prev_checksum,
        "checksum": event.checksum,
        "invalidated_at": format_time(event.invalidated_at) if event.invalidated_at else None,
        "invalidated_reason": event.invalidated_reason,
    }


class EventOut(Form):
    """One ledger entry: its checksum covers the previous one's."""

    seq: int
    kind: EventKind
    entity: str
    at: Time
    payload: dict[str, Any]
    prev_checksum: str
    checksum: str
    invalidated_at: Time | None
    invalidated_reason: str | None

    @classmethod
    def of(cls, event: Event) -> EventOut:
        return cls.model_validate(event_data(event))

    @classmethod
    def all_of(cls, events: Sequence[Event]) -> list[dict[str, Any]]:
        return [cls.of(event).dump() for event in events]


class NodeDetail(Form):
    node: NodeOut
    out: list[EdgeOut] = Field(description="Edges from the node.")
    in_: list[EdgeOut] = Field(alias="in", description="Edges to the node.")
    history: list[EventOut]

    @classmethod
    def of(cls, node: Node, edges: Sequence[Edge], history: Sequence[Event]) -> NodeDetail:
        """``node`` with its ``edges`` (in and out, as ``Graph.edges`` gives them)."""
        return cls.model_validate(
            {
                "node": node.to_dict(),
                "out": [e.to_dict() for e in edges if e.source == node.id],
                "in": [e.to_dict() for e in edges if e.target == node.id],
                "history": [event_data(e) for e in history],
            }
        )


class EdgeDetail(Form):
    edge: EdgeOut
    history: list[EventOut]

    @classmethod
    def of(cls, edge: Edge, history: Sequence[Event]) -> EdgeDetail:
        return cls.model_validate(
            {"edge": edge.to_dict(), "history": [event_data(e) for e in history]}
        )
