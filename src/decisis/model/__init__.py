"""Layer 1: the records, vocabularies and validation everything else is built on."""

from decisis.model.enums import (
    CAUSAL_EDGE_TYPES,
    AgentType,
    EdgeType,
    EventKind,
    LinkState,
    NodeStatus,
    NodeType,
)
from decisis.model.events import Event, EventDraft
from decisis.model.ids import new_id
from decisis.model.provenance import Provenance
from decisis.model.records import EDGE_MUTABLE_FIELDS, NODE_MUTABLE_FIELDS, Edge, Node
from decisis.model.times import format_time, parse_time, utc_now

__all__ = [
    "CAUSAL_EDGE_TYPES",
    "EDGE_MUTABLE_FIELDS",
    "NODE_MUTABLE_FIELDS",
    "AgentType",
    "Edge",
    "EdgeType",
    "Event",
    "EventDraft",
    "EventKind",
    "LinkState",
    "Node",
    "NodeStatus",
    "NodeType",
    "Provenance",
    "format_time",
    "new_id",
    "parse_time",
    "utc_now",
]
