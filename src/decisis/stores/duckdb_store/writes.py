"""``append`` in DuckDB: the rules of ``decisis.stores.fold``, checked against the tables.

The caller opens one transaction and rolls it back on any error, so a refused
draft leaves nothing of its batch behind. Records are built with the model
(``Node.from_dict``, ``evolve``), which validates them; the checks here are the
ones that need the stored state, raising the same errors, in the same order, as
the fold. Every change to a node's label or rationale rewrites its rows in the
``node_terms`` search index in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import duckdb

from decisis.errors import Conflict, CycleError, DecisisError, InvalidInput, NotFound
from decisis.ledger import GENESIS, canonical_bytes, chain_checksum
from decisis.model import (
    EDGE_MUTABLE_FIELDS,
    NODE_MUTABLE_FIELDS,
    Edge,
    EdgeType,
    Event,
    EventDraft,
    EventKind,
    Node,
    NodeStatus,
    format_time,
    parse_time,
)
from decisis.model.events import check_payload
from decisis.model.validation import check_enum
from decisis.stores.duckdb_store.rows import (
    EDGE_COLUMNS,
    EDGE_FIELDS,
    EVENT_COLUMNS,
    NODE_COLUMNS,
    NODE_FIELDS,
    canonical_json,
    edge_from_row,
    edge_values,
    event_from_row,
    node_from_row,
    node_values,
)
from decisis.stores.duckdb_store.schema import index_node

__all__ = ["append", "read_head"]

Conn = duckdb.DuckDBPyConnection

_INSERT_NODE = (
    f"INSERT INTO nodes (graph, {', '.join(NODE_FIELDS)}) VALUES (?{', ?' * len(NODE_FIELDS)})"
)
_INSERT_EDGE = (
    f"INSERT INTO edges (graph, {', '.join(EDGE_FIELDS)}) VALUES (?{', ?' * len(EDGE_FIELDS)})"
)
_UPDATE_NODE = (
    f"UPDATE nodes SET {', '.join(f'{name} = ?' for name in NODE_FIELDS[1:])} "
    "WHERE graph = ? AND id = ?"
)
_UPDATE_EDGE = (
    f"UPDATE edges SET {', '.join(f'{name} = ?' for name in EDGE_FIELDS[1:])} "
    "WHERE graph = ? AND id = ?"
)
_SELECT_NODE = f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = ? AND n.id = ?"
_SELECT_EDGE = f"SELECT {EDGE_COLUMNS} FROM edges e WHERE e.graph = ? AND e.id = ?"
_ID_USED = """
    SELECT EXISTS (SELECT 1 FROM nodes WHERE graph = $graph AND id = $id)
        OR EXISTS (SELECT 1 FROM edges WHERE graph = $graph AND id = $id)
"""
# Does ``old`` already reach ``new`` along live supersedes edges (old -> what it replaced)?
_SUPERSEDES_REACH = """
    WITH RECURSIVE replaced(id) AS (
        SELECT $old::VARCHAR
        UNION
        SELECT e.target FROM replaced r
        JOIN edges e ON e.graph = $graph AND e.source = r.id AND e.type = 'supersedes'
        WHERE e.tombstoned_at IS NULL
    )
    SELECT 1 FROM replaced WHERE id = $new LIMIT 1
"""
# ``rule.trusted`` (see ``decisis.stores.fold``): every unjudged link of the rule at once.
_TRUST_RULE = """
    UPDATE edges SET confidence = $confidence, updated_at = $at
    WHERE graph = $graph AND type = 'supersedes' AND state = 'candidate'
      AND tombstoned_at IS NULL
      AND json_type(metadata, '$.rule') = 'VARCHAR'
      AND json_extract_string(metadata, '$.rule') = $rule
      AND confidence IS DISTINCT FROM $confidence
"""
_ALREADY_SUPERSEDES = """
    SELECT 1 FROM edges
    WHERE graph = ? AND source = ? AND type = 'supersedes' AND target = ?
      AND tombstoned_at IS NULL
    LIMIT 1
"""
_INSERT_LEDGER = (
    'INSERT INTO ledger (graph, seq, kind, entity, payload, "at", prev_checksum, checksum) '
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_TEXT_FIELDS = frozenset({"label", "rationale"})


def read_head(conn: Conn, graph: str) -> tuple[int, str]:
    row = conn.execute("SELECT seq, checksum FROM heads WHERE graph = ?", (graph,)).fetchone()
    return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))


def append(conn: Conn, graph: str, drafts: Sequence[EventDraft]) -> list[Event]:
    """Check, apply and chain each draft; return the events as stored. Needs an open transaction."""
    head = read_head(conn, graph)
    seq, checksum = head
    events: list[Event] = []
    for draft in drafts:
        seq += 1
        raw, kind, payload = _canonical(graph, seq, draft)
        _apply(conn, graph, kind, payload, draft.entity)
        prev, checksum = checksum, chain_checksum(raw, checksum)
        at = parse_time(json.loads(raw)["at"], "at")
        row = (graph, seq, kind.value, draft.entity, canonical_json(payload), format_time(at))
        conn.execute(_INSERT_LEDGER, (*row, prev, checksum))
        events.append(Event(graph, seq, kind, draft.entity, payload, at, prev, checksum))
    _move_head(conn, graph, head[0], seq, checksum)
    if any(event.kind is EventKind.TOMBSTONED for event in events):
        return _read_back(conn, graph, events[0].seq)  # with the marks the tombstone set
    return events


def _move_head(conn: Conn, graph: str, old: int, seq: int, checksum: str) -> None:
    if old == 0:
        conn.execute(
            "INSERT INTO heads (graph, seq, checksum) VALUES (?, ?, ?)", (graph, seq, checksum)
        )
    else:
        conn.execute(
            "UPDATE heads SET seq = ?, checksum = ? WHERE graph = ?", (seq, checksum, graph)
        )


def _read_back(conn: Conn, graph: str, first: int) -> list[Event]:
    rows = conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM ledger WHERE graph = ? AND seq >= ? ORDER BY seq",
        (graph, first),
    ).fetchall()
    return [event_from_row(row) for row in rows]


def _canonical(graph: str, seq: int, draft: EventDraft) -> tuple[bytes, EventKind, dict[str, Any]]:
    """The draft's canonical bytes, and its kind and payload as they read back from them
    (the memory store does the same, so both refuse the same drafts the same way)."""
    kind = check_enum(EventKind, draft.kind, "kind")
    try:
        raw = canonical_bytes(graph, seq, kind, draft.entity, draft.payload, draft.at)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, DecisisError):
            raise
        raise InvalidInput("payload", f"is not JSON data: {exc}", "JSON values only") from None
    payload: dict[str, Any] = json.loads(raw)["payload"]
    return raw, kind, payload


def _apply(conn: Conn, graph: str, kind: EventKind, payload: dict[str, Any], entity: str) -> None:
    check_payload(kind, payload)  # the fold's first check: every key the kind needs is there
    if kind is EventKind.NODE_ADDED:
        node = Node.from_dict(payload["node"])
        _check_new_id(conn, graph, node.id)
        conn.execute(_INSERT_NODE, [graph, *node_values(node)])
        index_node(conn, graph, node.id, node.label, node.rationale)
    elif kind is EventKind.NODE_UPDATED:
        node = _live_node(conn, graph, payload["id"])
        changes = _changes(payload, NODE_MUTABLE_FIELDS, "node")
        updated = node.evolve(**changes, updated_at=payload["updated_at"])
        _write_node(conn, graph, updated, reindex=not _TEXT_FIELDS.isdisjoint(changes))
    elif kind is EventKind.EDGE_ADDED:
        _add_edge(conn, graph, Edge.from_dict(payload["edge"]))
    elif kind is EventKind.EDGE_UPDATED:
        edge = _live_edge(conn, graph, payload["id"])
        changes = _changes(payload, EDGE_MUTABLE_FIELDS, "edge")
        _write_edge(conn, graph, edge.evolve(**changes, updated_at=payload["updated_at"]))
    elif kind is EventKind.SUPERSEDED:
        _supersede(conn, graph, payload)
    elif kind is EventKind.TOMBSTONED:
        _tombstone(conn, graph, payload, entity)
    elif kind is EventKind.RULE_TRUSTED:
        _trust_rule(conn, graph, payload)


def _write_node(conn: Conn, graph: str, node: Node, *, reindex: bool = False) -> None:
    conn.execute(_UPDATE_NODE, [*node_values(node)[1:], graph, node.id])
    if reindex:
        conn.execute("DELETE FROM node_terms WHERE graph = ? AND id = ?", (graph, node.id))
        index_node(conn, graph, node.id, node.label, node.rationale)


def _write_edge(conn: Conn, graph: str, edge: Edge) -> None:
    conn.execute(_UPDATE_EDGE, [*edge_values(edge)[1:], graph, edge.id])


def _check_new_id(conn: Conn, graph: str, record_id: str) -> None:
    row = conn.execute(_ID_USED, {"graph": graph, "id": record_id}).fetchone()
    if row is not None and row[0]:
        raise Conflict(f"id {record_id} is already used in this graph")


def _live_node(conn: Conn, graph: str, node_id: str, field: str = "id") -> Node:
    row = conn.execute(_SELECT_NODE, (graph, node_id)).fetchone()
    if row is None:
        raise NotFound("node", node_id, graph)
    node = node_from_row(row)
    if node.tombstoned:
        raise Conflict(f"{field}: node {node_id} is tombstoned and cannot change")
    return node


def _live_edge(conn: Conn, graph: str, edge_id: str) -> Edge:
    row = conn.execute(_SELECT_EDGE, (graph, edge_id)).fetchone()
    if row is None:
        raise NotFound("edge", edge_id, graph)
    edge = edge_from_row(row)
    if edge.tombstoned:
        raise Conflict(f"edge {edge_id} is tombstoned and cannot change")
    return edge


def _check_endpoint(conn: Conn, graph: str, node_id: str, field: str) -> None:
    row = conn.execute(
        "SELECT tombstoned_at FROM nodes WHERE graph = ? AND id = ?", (graph, node_id)
    ).fetchone()
    if row is None:
        raise NotFound("node", node_id, graph)
    if row[0] is not None:
        raise Conflict(f"{field}: node {node_id} is tombstoned and cannot change")


def _add_edge(conn: Conn, graph: str, edge: Edge) -> None:
    _check_new_id(conn, graph, edge.id)
    _check_endpoint(conn, graph, edge.source, "source")
    _check_endpoint(conn, graph, edge.target, "target")
    conn.execute(_INSERT_EDGE, [graph, *edge_values(edge)])


def _changes(payload: dict[str, Any], allowed: frozenset[str], what: str) -> dict[str, Any]:
    changes = payload.get("changes")
    if not isinstance(changes, dict) or not changes:
        raise InvalidInput("changes", f"a {what} update needs at least one change", sorted(allowed))
    unknown = set(changes) - allowed
    if unknown:
        raise InvalidInput("changes", f"{what} fields {sorted(unknown)} cannot change", allowed)
    return dict(changes)


def _check_supersede(conn: Conn, graph: str, old_id: str, new_id: str) -> None:
    if old_id == new_id:
        raise InvalidInput("new", "a node cannot supersede itself", "another node")
    _check_endpoint(conn, graph, old_id, "old")
    _check_endpoint(conn, graph, new_id, "new")
    reach = {"graph": graph, "old": old_id, "new": new_id}
    if conn.execute(_SUPERSEDES_REACH, reach).fetchone() is not None:
        raise CycleError(
            "new",
            f"{old_id} already supersedes {new_id} (directly or through others); "
            "superseding it back would make a cycle",
            "a node that the old one does not already replace",
        )
    if conn.execute(_ALREADY_SUPERSEDES, (graph, new_id, old_id)).fetchone() is not None:
        raise Conflict(f"{new_id} already supersedes {old_id}")


def _supersede(conn: Conn, graph: str, payload: dict[str, Any]) -> None:
    old_id, new_id = payload["old"], payload["new"]
    _check_supersede(conn, graph, old_id, new_id)
    edge = Edge.from_dict(payload["edge"])
    if edge.type is not EdgeType.SUPERSEDES or (edge.source, edge.target) != (new_id, old_id):
        raise InvalidInput("edge", "must be new -supersedes-> old", "a supersedes edge new -> old")
    at = parse_time(payload["at"], "at")
    old = _live_node(conn, graph, old_id, "old")
    until = old.valid_until if old.valid_until is not None and old.valid_until < at else at
    until = max(until, old.valid_from)
    _add_edge(conn, graph, edge)
    _write_node(
        conn, graph, old.evolve(status=NodeStatus.SUPERSEDED, valid_until=until, updated_at=at)
    )


def _trust_rule(conn: Conn, graph: str, payload: dict[str, Any]) -> None:
    """A rule's new trust onto its unjudged links: one set-based statement."""
    at = parse_time(payload["updated_at"], "updated_at")
    params = {"graph": graph, "rule": payload["rule"], "confidence": float(payload["confidence"])}
    conn.execute(_TRUST_RULE, params | {"at": format_time(at)})


def _tombstone(conn: Conn, graph: str, payload: dict[str, Any], entity: str) -> None:
    """Tombstone a record and mark the earlier ledger entries of the event's entity
    invalidated (those fields are outside the checksum, so the chain stays whole)."""
    target, record_id = payload["target"], payload["id"]
    at = parse_time(payload["at"], "at")
    reason = payload.get("reason")
    if target == "node":
        node = _live_node(conn, graph, record_id)
        _write_node(conn, graph, node.evolve(tombstoned_at=at, tombstone_reason=reason))
    elif target == "edge":
        edge = _live_edge(conn, graph, record_id)
        _write_edge(conn, graph, edge.evolve(tombstoned_at=at, tombstone_reason=reason))
    else:
        raise InvalidInput("target", f"unknown target {target!r}", ["edge", "node"])
    conn.execute(
        "UPDATE ledger SET invalidated_at = ?, invalidated_reason = ? "
        "WHERE graph = ? AND entity = ?",
        (format_time(at), reason, graph, entity),
    )
