"""``append`` in PostgreSQL: the rules of ``decisis.stores.fold``, checked against the tables.

The caller runs this inside one READ COMMITTED transaction and rolls it back on
any error, so a refused draft leaves nothing of its batch behind. The first
thing it does is lock the graph's row in ``heads`` (creating it if the graph is
new): every append to that graph queues on that one row lock, so two writers
can never read the same head and fork the chain, while appends to other graphs
lock other rows and run in parallel. Each statement after the lock sees what
the writers before it committed.

Records are built with the model (``Node.from_dict``, ``evolve``), which
validates them; the checks here are the ones that need the stored state,
raising the same errors, in the same order, as the fold.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import psycopg

from decisis.errors import (
    Conflict,
    CycleError,
    DecisisError,
    InvalidInput,
    NotFound,
    StoreError,
)
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
    parse_time,
)
from decisis.model.events import check_payload
from decisis.model.validation import check_enum
from decisis.stores.postgres.queries import events_page
from decisis.stores.postgres.rows import (
    EDGE_COLUMNS,
    EDGE_FIELDS,
    NODE_COLUMNS,
    NODE_FIELDS,
    canonical_json,
    edge_from_row,
    edge_values,
    node_from_row,
    node_values,
)

__all__ = ["append", "read_head"]

Conn = psycopg.Connection[tuple[Any, ...]]

_PG_TYPES = {"confidence": "double precision"} | dict.fromkeys(
    ("recorded_at", "updated_at", "valid_from", "valid_until", "tombstoned_at"), "timestamptz"
)
# Typed, since a SELECT list (unlike VALUES) does not take its types from the columns.
_PLACEHOLDERS = ", ".join(f"%s::{_PG_TYPES.get(name, 'text')}" for name in ("graph", *NODE_FIELDS))
# A node's id must be new among nodes (the primary key) and edges (the NOT EXISTS).
_INSERT_NODE = (
    f"INSERT INTO nodes (graph, {', '.join(NODE_FIELDS)}) SELECT {_PLACEHOLDERS} "
    "WHERE NOT EXISTS (SELECT 1 FROM edges WHERE graph = %s AND id = %s) "
    "ON CONFLICT (graph, id) DO NOTHING"
)
_INSERT_EDGE = (
    f"INSERT INTO edges (graph, {', '.join(EDGE_FIELDS)}) VALUES (%s{', %s' * len(EDGE_FIELDS)})"
)
_UPDATE_NODE = (
    f"UPDATE nodes SET {', '.join(f'{name} = %s' for name in NODE_FIELDS[1:])} "
    "WHERE graph = %s AND id = %s"
)
_UPDATE_EDGE = (
    f"UPDATE edges SET {', '.join(f'{name} = %s' for name in EDGE_FIELDS[1:])} "
    "WHERE graph = %s AND id = %s"
)
_SELECT_NODE = f"SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = %s AND n.id = %s"
_SELECT_EDGE = f"SELECT {EDGE_COLUMNS} FROM edges e WHERE e.graph = %s AND e.id = %s"
# For a new edge, in one round trip: is its id used, and is each endpoint live
# (true), tombstoned (false) or absent (null)?
_EDGE_CHECKS = """
    SELECT EXISTS (SELECT 1 FROM nodes WHERE graph = %(graph)s AND id = %(id)s)
           OR EXISTS (SELECT 1 FROM edges WHERE graph = %(graph)s AND id = %(id)s),
           (SELECT tombstoned_at IS NULL FROM nodes WHERE graph = %(graph)s AND id = %(source)s),
           (SELECT tombstoned_at IS NULL FROM nodes WHERE graph = %(graph)s AND id = %(target)s)
"""
# Does ``old`` already reach ``new`` along live supersedes edges (old -> what it replaced)?
_SUPERSEDES_REACH = """
    WITH RECURSIVE replaced(id) AS (
        SELECT %(old)s::text COLLATE "C"
        UNION
        SELECT e.target FROM replaced r
        JOIN edges e ON e.graph = %(graph)s AND e.source = r.id AND e.type = 'supersedes'
        WHERE e.tombstoned_at IS NULL
    )
    SELECT 1 FROM replaced WHERE id = %(new)s LIMIT 1
"""
_ALREADY_SUPERSEDES = """
    SELECT 1 FROM edges
    WHERE graph = %s AND source = %s AND type = 'supersedes' AND target = %s
      AND tombstoned_at IS NULL
    LIMIT 1
"""
_INSERT_LEDGER = (
    "INSERT INTO ledger (graph, seq, kind, entity, payload, at, prev_checksum, checksum) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)


def read_head(conn: Conn, graph: str) -> tuple[int, str]:
    row = conn.execute("SELECT seq, checksum FROM heads WHERE graph = %s", (graph,)).fetchone()
    return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))


def _lock_head(conn: Conn, graph: str) -> tuple[int, str]:
    """Take the graph's head row lock (waiting for earlier writers), then read the head.

    A new graph first gets its row at seq 0; two first writers racing to insert it
    queue on the primary key, and the loser then queues on the row lock."""
    lock = "SELECT seq, checksum FROM heads WHERE graph = %s FOR UPDATE"
    row = conn.execute(lock, (graph,)).fetchone()
    if row is None:
        conn.execute(
            "INSERT INTO heads (graph, seq, checksum) VALUES (%s, 0, %s) ON CONFLICT DO NOTHING",
            (graph, GENESIS),
        )
        row = conn.execute(lock, (graph,)).fetchone()
    if row is None:  # pragma: no cover - the row was inserted or already there
        raise StoreError(f"graph {graph!r}: cannot lock its head row")
    return int(row[0]), str(row[1])


class _Batch:
    """Ledger rows of one append not yet written, flushed together (one pipelined call)."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.rows: list[tuple[Any, ...]] = []
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        payload = canonical_json(event.payload)
        self.rows.append(
            (
                event.graph,
                event.seq,
                event.kind.value,
                event.entity,
                payload,
                event.at,
                event.prev_checksum,
                event.checksum,
            )
        )

    def flush(self) -> None:
        if self.rows:
            with self.conn.cursor() as cur:
                cur.executemany(_INSERT_LEDGER, self.rows)
            self.rows = []


def append(conn: Conn, graph: str, drafts: Sequence[EventDraft]) -> list[Event]:
    """Check, apply and chain each draft; return the events as stored. Needs an open transaction."""
    seq, checksum = _lock_head(conn, graph)
    batch = _Batch(conn)
    for draft in drafts:
        seq += 1
        raw, kind, payload = _canonical(graph, seq, draft)
        if kind is EventKind.TOMBSTONED:
            batch.flush()  # the tombstone marks earlier entries, this batch's included
        _apply(conn, graph, kind, payload, draft.entity)
        prev, checksum = checksum, chain_checksum(raw, checksum)
        at = parse_time(json.loads(raw)["at"], "at")
        batch.add(Event(graph, seq, kind, draft.entity, payload, at, prev, checksum))
    batch.flush()
    conn.execute(
        "UPDATE heads SET seq = %s, checksum = %s WHERE graph = %s", (seq, checksum, graph)
    )
    return _marked(conn, graph, batch.events)


def _marked(conn: Conn, graph: str, events: list[Event]) -> list[Event]:
    """The batch's events with the invalidation marks a later tombstone of the batch set."""
    if not any(e.kind is EventKind.TOMBSTONED for e in events):
        return events
    return events_page(conn, graph, events[0].seq - 1, None, len(events))


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
        values = [graph, *node_values(node), graph, node.id]
        if conn.execute(_INSERT_NODE, values).rowcount == 0:
            raise Conflict(f"id {node.id} is already used in this graph")
    elif kind is EventKind.NODE_UPDATED:
        node = _live_node(conn, graph, payload["id"])
        changes = _changes(payload, NODE_MUTABLE_FIELDS, "node")
        _write_node(conn, graph, node.evolve(**changes, updated_at=payload["updated_at"]))
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


def _write_node(conn: Conn, graph: str, node: Node) -> None:
    conn.execute(_UPDATE_NODE, [*node_values(node)[1:], graph, node.id])


def _write_edge(conn: Conn, graph: str, edge: Edge) -> None:
    conn.execute(_UPDATE_EDGE, [*edge_values(edge)[1:], graph, edge.id])


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


def _endpoint(live: bool | None, graph: str, node_id: str, field: str) -> None:
    """Raise as the fold does for an endpoint that is absent (``None``) or tombstoned."""
    if live is None:
        raise NotFound("node", node_id, graph)
    if not live:
        raise Conflict(f"{field}: node {node_id} is tombstoned and cannot change")


def _add_edge(conn: Conn, graph: str, edge: Edge) -> None:
    params = {"graph": graph, "id": edge.id, "source": edge.source, "target": edge.target}
    row = conn.execute(_EDGE_CHECKS, params).fetchone()
    assert row is not None
    used, source_live, target_live = row
    if used:
        raise Conflict(f"id {edge.id} is already used in this graph")
    _endpoint(source_live, graph, edge.source, "source")
    _endpoint(target_live, graph, edge.target, "target")
    conn.execute(_INSERT_EDGE, [graph, *edge_values(edge)])


def _changes(payload: dict[str, Any], allowed: frozenset[str], what: str) -> dict[str, Any]:
    changes = payload.get("changes")
    if not isinstance(changes, dict) or not changes:
        raise InvalidInput("changes", f"a {what} update needs at least one change", sorted(allowed))
    unknown = set(changes) - allowed
    if unknown:
        raise InvalidInput("changes", f"{what} fields {sorted(unknown)} cannot change", allowed)
    return dict(changes)


def _node_state(conn: Conn, graph: str, node_id: str) -> bool | None:
    row = conn.execute(
        "SELECT tombstoned_at IS NULL FROM nodes WHERE graph = %s AND id = %s", (graph, node_id)
    ).fetchone()
    return None if row is None else bool(row[0])


def _check_supersede(conn: Conn, graph: str, old_id: str, new_id: str) -> None:
    if old_id == new_id:
        raise InvalidInput("new", "a node cannot supersede itself", "another node")
    _endpoint(_node_state(conn, graph, old_id), graph, old_id, "old")
    _endpoint(_node_state(conn, graph, new_id), graph, new_id, "new")
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
        "UPDATE ledger SET invalidated_at = %s, invalidated_reason = %s "
        "WHERE graph = %s AND entity = %s",
        (at, reason, graph, entity),
    )
