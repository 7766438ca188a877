"""The reference fold: how each ledger event changes the graph, and when it is refused.

The memory store runs this code directly; the other backends implement the same
rules in their own queries, and the conformance suite holds them to it. Replaying
a ledger through ``apply`` is how ``verify`` and ``at(t)`` rebuild a graph.

Rules (each refusal raises and leaves the state unchanged):

* ``node.added`` / ``edge.added``: the id must be new among nodes and edges
  (``Conflict``); an edge's endpoints must exist (``NotFound``) and not be
  tombstoned (``Conflict``).
* ``node.updated`` / ``edge.updated``: the record must exist and not be
  tombstoned; only ``NODE_MUTABLE_FIELDS`` / ``EDGE_MUTABLE_FIELDS`` may change
  (``InvalidInput``).
* ``superseded``: both nodes exist and are not tombstoned; ``old != new``
  (``InvalidInput``); the edge is ``new -supersedes-> old``; ``old`` must not
  already reach ``new`` through supersedes edges (``CycleError``), nor be
  superseded by ``new`` already (``Conflict``). The edge is added; when it is a
  believed full replacement (``decisis.stores.retire``: stated or confirmed, not
  partial), ``old`` becomes ``superseded`` in the same event, its ``valid_until``
  becomes ``at`` (or stays, if earlier), ``updated_at = at``. A candidate leaves
  ``old`` as it was.
* A ``supersedes`` edge that starts or stops retiring its target (``edge.updated``
  of its state or metadata, a tombstone) retires or releases that node in the same
  event (``retire``/``release``); a node update keeps the ``_retired`` record the
  fold keeps in its metadata, and a status set by hand ends it.
* ``tombstoned``: the node or edge must exist and not be tombstoned already;
  it gets ``tombstoned_at`` and ``tombstone_reason``.
* ``rule.trusted``: the payload must hold a Beta trust and its mean
  (``check_payload``) and ``updated_at`` a time (``InvalidInput``). Every edge of
  type ``supersedes``, not tombstoned, in state ``candidate`` (nobody has judged
  it), whose ``metadata["rule"]`` is the text ``rule``, and whose confidence
  differs from ``confidence`` gets that confidence and ``updated_at``; an edge
  already at it keeps its ``updated_at``. Matching no edge is allowed: the event
  still records where the rule's trust moved. SQLite and DuckDB run this as one
  set-based ``UPDATE``; PostgreSQL runs this fold on the rule's unjudged links,
  read in the append's one round of reads.
* ``provenance.recorded``: the payload must be a provenance entry
  (``check_payload``) whose ``entity`` is the event's entity (``InvalidInput``) and
  names a node or edge of the graph (``NotFound``) that is not tombstoned
  (``Conflict``). It changes no table: the entries are read back from the ledger
  (``Store.history``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from decisis.errors import Conflict, CycleError, DecisisError, InvalidInput, NotFound
from decisis.ledger import canonical_event, canonical_text
from decisis.model import (
    EDGE_MUTABLE_FIELDS,
    NODE_MUTABLE_FIELDS,
    Edge,
    EdgeType,
    EventDraft,
    EventKind,
    LinkState,
    Node,
    format_time,
    parse_time,
)
from decisis.model.events import check_payload
from decisis.model.validation import check_enum
from decisis.stores.retire import kept_metadata, release, retire, retires

__all__ = [
    "Canonical",
    "GraphState",
    "added_record",
    "apply",
    "canonical_draft",
    "check_described_entity",
    "checked_changes",
]


@dataclass(frozen=True, slots=True)
class Canonical:
    """A draft as the ledger will hold it, encoded once: ``raw`` is what the chain hashes
    (and the Merkle tree's leaf data), ``payload_text`` the stored payload column (the
    same text ``raw`` holds), ``kind``, ``payload`` and ``at`` what reads back from them;
    ``record``: the draft's own record when the payload is exactly its JSON form
    (``added_record``), else ``None``."""

    raw: bytes
    kind: EventKind
    payload: dict[str, Any]
    at: datetime
    payload_text: str
    record: Node | Edge | None = None


def canonical_draft(graph: str, seq: int, draft: EventDraft) -> Canonical:
    """The draft's canonical bytes, and its kind, payload and time as they read back from
    them: every store folds what the ledger will hold, so all refuse the same drafts alike,
    and returns the time as storage gives it back (UTC)."""
    kind = check_enum(EventKind, draft.kind, "kind")
    if kind is EventKind.PROVENANCE:
        check_described_entity(draft.entity, draft.payload)
    try:
        at_text = format_time(draft.at)
        payload_text = canonical_text(draft.payload)
        raw = canonical_event(graph, seq, kind, draft.entity, payload_text, draft.at)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, DecisisError):
            raise
        raise InvalidInput("payload", f"is not JSON data: {exc}", "JSON values only") from None
    at = parse_time(at_text, "at")
    shape = _RECORD_PAYLOADS.get(kind)
    if shape is not None and draft.record is not None:
        key, cls = shape
        fresh = _as_read_back(cls, key, draft.payload, draft.record)
        if fresh is not None:  # no need to read the text back: it reads back as ``fresh``
            return Canonical(raw, kind, {key: fresh}, at, payload_text, draft.record)
        payload = json.loads(payload_text)
        record = draft.record if _exact(cls, payload.get(key), draft.record) else None
        return Canonical(raw, kind, payload, at, payload_text, record)
    return Canonical(raw, kind, json.loads(payload_text), at, payload_text)


R = TypeVar("R", Node, Edge)
_RECORD_PAYLOADS: dict[EventKind, tuple[str, type[Node] | type[Edge]]] = {
    EventKind.NODE_ADDED: ("node", Node),
    EventKind.EDGE_ADDED: ("edge", Edge),
}


def _as_read_back(
    cls: type[Node] | type[Edge], key: str, payload: Any, record: object
) -> dict[str, Any] | None:
    """The record's JSON form, fresh, when the payload is ``{key: that form}`` exactly and
    holds nothing that reads back otherwise: no metadata (JSON data a caller can still
    change in place), a confidence of the record's type. Then it is what the canonical
    text reads back as, with no ``json.loads``; else ``None``."""
    if type(record) is not cls or record.metadata or type(payload) is not dict or len(payload) != 1:
        return None
    data = payload.get(key)
    if type(data) is not dict or data.get("metadata") != {}:
        return None
    fresh = record.to_dict()
    fresh["metadata"] = {}
    if fresh != data or type(data["confidence"]) is not type(record.confidence):
        return None
    return fresh


def _exact(cls: type[Node] | type[Edge], data: Any, record: object) -> bool:
    """Is ``record`` a ``cls`` whose JSON form is exactly ``data`` (as read back)? Equal
    field by field, the confidence of the same type and the metadata of the same canonical
    text (``==`` alone takes ``True`` for ``1`` and ``1`` for ``1.0``)."""
    return (
        type(record) is cls
        and isinstance(data, dict)
        and record.to_dict() == data
        and type(data["confidence"]) is type(record.confidence)
        and (not record.metadata or _same_text(record.metadata, data["metadata"]))
    )


def added_record(cls: type[R], data: Any, record: object = None) -> R:
    """The record a ``node.added`` / ``edge.added`` payload holds: ``record``, when
    ``canonical_draft`` found the payload to be exactly its JSON form
    (``Canonical.record``: it was validated when it was made, so validation once), else
    one built and validated from the payload, which refuses what is wrong."""
    if type(record) is cls:
        return record
    return cls.from_dict(data)


def _same_text(a: Any, b: Any) -> bool:
    return canonical_text(a) == canonical_text(b)


def check_described_entity(entity: str, payload: object) -> None:
    """A provenance entry is filed under the record it describes, so ``history`` finds it:
    the event's entity must be the payload's."""
    named = payload.get("entity") if isinstance(payload, dict) else None
    if entity != named:
        raise InvalidInput(
            "entity",
            f"the event is about {entity!r:.80} but its entry describes {named!r:.80}",
            "the id the payload's entity names",
        )


@dataclass
class GraphState:
    """One graph held in memory: records plus adjacency (edge ids by endpoint)."""

    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[str, Edge] = field(default_factory=dict)
    out_edges: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    in_edges: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def live_node(self, node_id: str, field_name: str = "id") -> Node:
        node = self.nodes.get(node_id)
        if node is None:
            raise NotFound("node", node_id)
        if node.tombstoned:
            raise Conflict(f"{field_name}: node {node_id} is tombstoned and cannot change")
        return node

    def live_edge(self, edge_id: str) -> Edge:
        edge = self.edges.get(edge_id)
        if edge is None:
            raise NotFound("edge", edge_id)
        if edge.tombstoned:
            raise Conflict(f"edge {edge_id} is tombstoned and cannot change")
        return edge

    def supersedes_reach(self, start: str) -> set[str]:
        """Ids ``start`` reaches along outgoing supersedes edges: what it replaced, transitively."""
        seen: set[str] = set()
        frontier = [start]
        while frontier:
            current = frontier.pop()
            for edge_id in self.out_edges.get(current, ()):
                edge = self.edges[edge_id]
                live = edge.type is EdgeType.SUPERSEDES and not edge.tombstoned
                if live and edge.target not in seen:
                    seen.add(edge.target)
                    frontier.append(edge.target)
        return seen


def _check_new_id(state: GraphState, record_id: str) -> None:
    if record_id in state.nodes or record_id in state.edges:
        raise Conflict(f"id {record_id} is already used in this graph")


def _add_edge(state: GraphState, edge: Edge) -> None:
    _check_new_id(state, edge.id)
    state.live_node(edge.source, "source")
    state.live_node(edge.target, "target")
    state.edges[edge.id] = edge
    state.out_edges[edge.source].append(edge.id)
    state.in_edges[edge.target].append(edge.id)


def checked_changes(payload: dict[str, Any], allowed: frozenset[str], what: str) -> dict[str, Any]:
    """The update's ``changes``, refused when empty or naming a field that cannot change
    (the SQL backends check with this too, so all refuse alike)."""
    changes = payload.get("changes")
    if not isinstance(changes, dict) or not changes:
        raise InvalidInput("changes", f"a {what} update needs at least one change", sorted(allowed))
    unknown = set(changes) - allowed
    if unknown:
        raise InvalidInput("changes", f"{what} fields {sorted(unknown)} cannot change", allowed)
    return dict(changes)


def check_supersede(state: GraphState, old_id: str, new_id: str) -> None:
    if old_id == new_id:
        raise InvalidInput("new", "a node cannot supersede itself", "another node")
    state.live_node(old_id, "old")
    state.live_node(new_id, "new")
    replaced_by_old = state.supersedes_reach(old_id)
    if new_id in replaced_by_old:
        raise CycleError(
            "new",
            f"{old_id} already supersedes {new_id} (directly or through others); "
            "superseding it back would make a cycle",
            "a node that the old one does not already replace",
        )
    for edge_id in state.out_edges.get(new_id, ()):
        edge = state.edges[edge_id]
        if edge.type is EdgeType.SUPERSEDES and edge.target == old_id and not edge.tombstoned:
            raise Conflict(
                f"{new_id} already supersedes {old_id}; judge the pair to confirm or reject it"
            )


def apply(
    state: GraphState, kind: EventKind | str, payload: dict[str, Any], record: object = None
) -> None:
    """Apply one event to ``state``, or raise without changing it (``record``: the draft's,
    see ``added_record``)."""
    kind = check_enum(EventKind, kind, "kind")
    check_payload(kind, payload)
    if kind is EventKind.NODE_ADDED:
        node = added_record(Node, payload["node"], record)
        _check_new_id(state, node.id)
        state.nodes[node.id] = node
    elif kind is EventKind.NODE_UPDATED:
        node = state.live_node(payload["id"])
        changes = kept_metadata(node, checked_changes(payload, NODE_MUTABLE_FIELDS, "node"))
        state.nodes[node.id] = node.evolve(**changes, updated_at=payload["updated_at"])
    elif kind is EventKind.EDGE_ADDED:
        _add_edge(state, added_record(Edge, payload["edge"], record))
    elif kind is EventKind.EDGE_UPDATED:
        edge = state.live_edge(payload["id"])
        changes = checked_changes(payload, EDGE_MUTABLE_FIELDS, "edge")
        updated = edge.evolve(**changes, updated_at=payload["updated_at"])
        state.edges[edge.id] = updated
        _follow_link(state, edge, updated)
    elif kind is EventKind.SUPERSEDED:
        _apply_supersede(state, payload)
    elif kind is EventKind.TOMBSTONED:
        _apply_tombstone(state, payload)
    elif kind is EventKind.RULE_TRUSTED:
        _apply_rule_trusted(state, payload)
    elif kind is EventKind.PROVENANCE:
        _check_described(state, payload["entity"])


def _check_described(state: GraphState, record_id: str) -> None:
    """The record a provenance entry is about: a live node or edge of the graph."""
    if record_id in state.nodes:
        state.live_node(record_id, "entity")
    elif record_id in state.edges:
        state.live_edge(record_id)
    else:
        raise NotFound("node or edge", record_id)


def _apply_supersede(state: GraphState, payload: dict[str, Any]) -> None:
    old_id, new_id = payload["old"], payload["new"]
    check_supersede(state, old_id, new_id)
    edge = Edge.from_dict(payload["edge"])
    if edge.type is not EdgeType.SUPERSEDES or (edge.source, edge.target) != (new_id, old_id):
        raise InvalidInput("edge", "must be new -supersedes-> old", "a supersedes edge new -> old")
    at = parse_time(payload["at"], "at")
    old = state.nodes[old_id]
    _add_edge(state, edge)
    if retires(edge):
        state.nodes[old_id] = retire(old, edge.id, at)


def _follow_link(state: GraphState, before: Edge, after: Edge) -> None:
    """Retire or release the node a supersedes edge replaces when the edge starts or stops
    retiring it; a tombstoned node keeps what it had."""
    if retires(before) == retires(after):
        return
    node = state.nodes.get(after.target)
    if node is None:
        raise NotFound("node", after.target)
    if node.tombstoned:
        return
    follow = retire if retires(after) else release
    state.nodes[node.id] = follow(node, after.id, after.updated_at)


def _apply_tombstone(state: GraphState, payload: dict[str, Any]) -> None:
    target, record_id = payload["target"], payload["id"]
    at = parse_time(payload["at"], "at")
    reason = payload.get("reason")
    if target == "node":
        node = state.live_node(record_id)
        state.nodes[record_id] = node.evolve(tombstoned_at=at, tombstone_reason=reason)
    elif target == "edge":
        edge = state.live_edge(record_id)
        gone = edge.evolve(tombstoned_at=at, tombstone_reason=reason)
        state.edges[record_id] = gone
        _follow_link(state, edge, gone.evolve(updated_at=at))
    else:
        raise InvalidInput("target", f"unknown target {target!r}", ["edge", "node"])


def _apply_rule_trusted(state: GraphState, payload: dict[str, Any]) -> None:
    at = parse_time(payload["updated_at"], "updated_at")
    rule, confidence = payload["rule"], payload["confidence"]
    moved = [
        edge
        for edge in state.edges.values()
        if edge.type is EdgeType.SUPERSEDES
        and edge.state is LinkState.CANDIDATE
        and not edge.tombstoned
        and edge.metadata.get("rule") == rule
        and edge.confidence != confidence
    ]
    for edge in moved:
        state.edges[edge.id] = edge.evolve(confidence=confidence, updated_at=at)
