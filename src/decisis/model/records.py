"""``Node`` and ``Edge``: the records of the graph, immutable values with a JSON form.

``to_dict``/``from_dict`` give the exact form that goes into ledger payloads and
export files, so a replay rebuilds records equal to the ones stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, ClassVar, Self

from decisis.errors import InvalidInput
from decisis.model.enums import EdgeType, LinkState, NodeStatus, NodeType
from decisis.model.times import format_time, parse_time
from decisis.model.validation import (
    check_agent,
    check_confidence,
    check_enum,
    check_id,
    check_label,
    check_metadata,
    check_rationale,
)

__all__ = ["EDGE_MUTABLE_FIELDS", "NODE_MUTABLE_FIELDS", "Edge", "Node"]

_TIME_FIELDS = frozenset(
    {"valid_from", "valid_until", "recorded_at", "updated_at", "tombstoned_at"}
)

# Fields that ``node.updated`` / ``edge.updated`` events may change.
NODE_MUTABLE_FIELDS = frozenset(
    {"label", "status", "confidence", "rationale", "metadata", "agent", "valid_from", "valid_until"}
)
EDGE_MUTABLE_FIELDS = frozenset(
    {"state", "confidence", "rationale", "metadata", "valid_from", "valid_until"}
)


_ENUM_FIELDS = frozenset({"type", "status", "state"})
# By record class, looked up once: its field names, split into those written as they are,
# the times (written as canonical text) and the enums (written as their values).
_PLANS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    names = tuple(f.name for f in fields(cls))
    plan = (
        names,
        tuple(name for name in names if name in _TIME_FIELDS),
        tuple(name for name in names if name in _ENUM_FIELDS),
    )
    _PLANS[cls] = plan
    return plan


def _dump(record: Any) -> dict[str, Any]:
    """The record's JSON form, its fields in their declared order: the plain ones copied
    at once, then the times and enums written over them."""
    names, times, enums = _PLANS.get(type(record)) or _plan(type(record))
    out = {name: getattr(record, name) for name in names}
    for name in times:
        value = out[name]
        if isinstance(value, datetime):
            out[name] = format_time(value)
    for name in enums:
        value = out[name]
        if hasattr(value, "value"):
            out[name] = value.value
    return out


def _load_times(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    for name in _TIME_FIELDS:
        if out.get(name) is not None:
            out[name] = parse_time(out[name], name)
    return out


def _check_window(valid_from: datetime, valid_until: datetime | None) -> None:
    if valid_until is not None and valid_until < valid_from:
        raise InvalidInput(
            "valid_until",
            f"{format_time(valid_until)} is before valid_from {format_time(valid_from)}",
            "a time at or after valid_from",
        )


class _Record:
    """What nodes and edges share: a tombstone, validity in time, and the JSON form."""

    __slots__ = ()
    _KIND: ClassVar[str]  # the name an error gives the record
    recorded_at: datetime
    valid_from: datetime
    valid_until: datetime | None
    tombstoned_at: datetime | None

    @property
    def tombstoned(self) -> bool:
        return self.tombstoned_at is not None

    def valid_at(self, when: datetime) -> bool:
        """True when the record held in the world at ``when`` and was known by then."""
        return (
            self.recorded_at <= when
            and self.valid_from <= when
            and (self.valid_until is None or when < self.valid_until)
        )

    def to_dict(self) -> dict[str, Any]:
        return _dump(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = set(data) - known
        if unknown:
            raise InvalidInput(cls._KIND, f"unknown fields {sorted(unknown)}", sorted(known))
        return cls(**_load_times(data))

    def evolve(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied and validated (times may be given as text)."""
        return replace(self, **_load_times(changes))  # type: ignore[type-var]


@dataclass(frozen=True, slots=True)
class Node(_Record):
    """A goal, decision, option, action, outcome, observation or revisit."""

    _KIND: ClassVar[str] = "node"

    id: str
    type: NodeType
    label: str
    status: NodeStatus
    recorded_at: datetime
    updated_at: datetime
    valid_from: datetime
    valid_until: datetime | None = None
    confidence: float | None = None
    rationale: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    agent: str | None = None
    tombstoned_at: datetime | None = None
    tombstone_reason: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", check_id(self.id))
        object.__setattr__(self, "type", check_enum(NodeType, self.type, "type"))
        object.__setattr__(self, "status", check_enum(NodeStatus, self.status, "status"))
        object.__setattr__(self, "label", check_label(self.label))
        object.__setattr__(self, "confidence", check_confidence(self.confidence))
        object.__setattr__(self, "rationale", check_rationale(self.rationale))
        object.__setattr__(self, "metadata", check_metadata(self.metadata))
        object.__setattr__(self, "agent", check_agent(self.agent))
        _check_window(self.valid_from, self.valid_until)

    @property
    def created_at(self) -> datetime:
        """When the node entered the graph (the same instant as ``recorded_at``)."""
        return self.recorded_at


@dataclass(frozen=True, slots=True)
class Edge(_Record):
    """A typed, directed link ``source -> target`` (a supersedes edge points from new to old)."""

    _KIND: ClassVar[str] = "edge"

    id: str
    type: EdgeType
    source: str
    target: str
    recorded_at: datetime
    updated_at: datetime
    valid_from: datetime
    valid_until: datetime | None = None
    state: LinkState = LinkState.STATED
    confidence: float | None = None
    rationale: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    agent: str | None = None
    tombstoned_at: datetime | None = None
    tombstone_reason: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", check_id(self.id))
        object.__setattr__(self, "type", check_enum(EdgeType, self.type, "edge type"))
        object.__setattr__(self, "source", check_id(self.source, "source"))
        object.__setattr__(self, "target", check_id(self.target, "target"))
        object.__setattr__(self, "state", check_enum(LinkState, self.state, "state"))
        object.__setattr__(self, "confidence", check_confidence(self.confidence))
        object.__setattr__(self, "rationale", check_rationale(self.rationale))
        object.__setattr__(self, "metadata", check_metadata(self.metadata))
        object.__setattr__(self, "agent", check_agent(self.agent))
        if self.source == self.target:
            raise InvalidInput("target", "an edge cannot join a node to itself", "another node")
        _check_window(self.valid_from, self.valid_until)
