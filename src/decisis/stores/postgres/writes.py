"""``append`` in PostgreSQL: the reference fold run on the records a batch touches, then
the whole batch written by one statement.

An append is two round trips and seven statements whatever its size
(``append_committed`` pipelines them):

1. ``BEGIN``; lock the graph's head row; read the ledger's last entry (it must agree
   with the head: ``check_head_agrees``); read every record the batch can touch
   (``_Named``): the nodes and edges its payloads name, the live ``supersedes``
   edges reachable from where it supersedes (the cycle check), and the unjudged
   links of each rule whose trust it moves (``rule.trusted``).
2. The checks are ``decisis.stores.fold.apply`` itself, run on a ``GraphState``
   holding just those records, so this store refuses what the fold refuses, with
   the same errors in the same order. Then one statement writes what changed, each
   table's rows in one JSON parameter: new and changed nodes and edges (``INSERT …
   ON CONFLICT DO UPDATE``), the invalidation marks a tombstone puts on its entity's
   earlier ledger rows, the new ledger rows, the head; ``COMMIT``.

A kind whose fold reads records its payload does not name needs a read here, as
``rule.trusted`` has one; the writing is generic (the records that changed).

Locking: the first statement creates the graph's head row if the graph is new and
locks it in either case (``INSERT … ON CONFLICT DO UPDATE … RETURNING``). Every
append to that graph queues on that one row, so two writers can never read the
same head and fork the chain, while appends to other graphs lock other rows and
run in parallel. The reads follow in the same pipeline as statements of their
own: in READ COMMITTED each takes its snapshot when it starts, after the lock is
granted, so it sees what the writers before committed.

Plans: a graph loaded in bulk has no statistics until autovacuum analyzes it, and
with the default estimates ``graph = …`` alone looks about as selective as a whole
key. On a nearly empty table the two cost the same: the lookups by id of the code
before, prepared (psycopg prepares a statement from its sixth run) and given a
generic plan then, kept a range scan of the graph through an endpoint index as the
graph grew, reading every edge of the graph for each lookup; a bulk load went
quadratic (0.3 ms to 7 ms a lookup within one 10,000-draft append). So the reads
and the ledger marks are sent unprepared, planned for each call with the tables'
real sizes (0.1 ms of server time), and each names whole keys (one per ``LATERAL``
subquery: given ``id = ANY(…)``, the planner read the graph through the primary
key's prefix). The write statement, prepared, reaches rows only through primary
keys (its conflict arbiters and the foreign-key checks).
``tests/stores/postgres/test_batched_append.py`` checks the plans with
``auto_explain`` as a graph grows from empty on one connection.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

import psycopg
from psycopg.pq import TransactionStatus

from decisis.errors import NotFound, StoreError
from decisis.ledger import GENESIS, chain_checksum
from decisis.model import Edge, EdgeType, Event, EventDraft, EventKind, Node, parse_time
from decisis.model.ids import ID_ALPHABET, ID_LENGTH
from decisis.proof import leaf_hash
from decisis.stores.checks import check_head, check_head_agrees
from decisis.stores.fold import GraphState, apply, canonical_draft
from decisis.stores.merkle import SqlTree, paged
from decisis.stores.postgres import queries
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
    records_json,
)

__all__ = ["append", "append_committed", "lock_head", "read_head"]

Conn = psycopg.Connection[tuple[Any, ...]]
TreeHead = tuple[int, list[bytes]] | None
# The Merkle tree's tables (``decisis.stores.merkle``), extended by every append.
TREE = SqlTree("%s", paged(queries.QUERIES.events_page))
R = TypeVar("R", Node, Edge)

_ID_SHAPE = re.compile(f"[{ID_ALPHABET}]{{{ID_LENGTH}}}", re.IGNORECASE).fullmatch

_LOCK_HEAD = """
    INSERT INTO heads (graph, seq, checksum) VALUES (%s, 0, %s)
    ON CONFLICT (graph) DO UPDATE SET seq = heads.seq
    RETURNING seq, checksum
"""
# The ledger entry the (locked) head names, and whether one follows it: both by whole key
# (``check_head_agrees``).
_AT_HEAD = """
    SELECT
        (SELECT l.checksum FROM ledger l WHERE l.graph = %(graph)s AND l.seq = h.seq),
        EXISTS (SELECT 1 FROM ledger n WHERE n.graph = %(graph)s AND n.seq = h.seq + 1)
    FROM heads h WHERE h.graph = %(graph)s
"""
# One key per lookup (``LATERAL … OFFSET 0``, as in the traversal functions of schema
# migration 3): given ``id = ANY(…)`` on a graph not analyzed yet, the planner read the
# whole graph through the primary key's prefix rather than look each id up.
# The nodes named, and the node each named supersedes edge replaces: an edge's update or
# tombstone can retire or release it (``decisis.stores.retire``).
_NODES_BY_ID = f"""
    SELECT n.* FROM (
        SELECT k.id COLLATE "C" AS id FROM unnest(%(ids)s::text[]) AS k(id)
        UNION
        SELECT t.target FROM unnest(%(ids)s::text[]) AS k(id) CROSS JOIN LATERAL (
            SELECT e.target FROM edges e
            WHERE e.graph = %(graph)s AND e.id = k.id AND e.type = 'supersedes' OFFSET 0
        ) t
    ) k CROSS JOIN LATERAL (
        SELECT {NODE_COLUMNS} FROM nodes n WHERE n.graph = %(graph)s AND n.id = k.id OFFSET 0
    ) n
"""
_EDGES_BY_ID = f"""
    SELECT {EDGE_COLUMNS} FROM unnest(%(ids)s::text[]) AS k(id) CROSS JOIN LATERAL (
        SELECT e.* FROM edges e WHERE e.graph = %(graph)s AND e.id = k.id OFFSET 0
    ) e
"""
# The live supersedes edges out of the starts and out of every node they reach: all
# that ``GraphState.supersedes_reach`` can walk, with the batch's own edges added. Each
# step looks up one node's edges, in the order of the ``(graph, source, type, target)``
# index.
_SUPERSEDES_OUT = """CROSS JOIN LATERAL (
        SELECT e.* FROM edges e
        WHERE e.graph = %(graph)s AND e.source = r.id AND e.type = 'supersedes'
          AND e.tombstoned_at IS NULL
        ORDER BY e.type, e.target OFFSET 0
    ) e"""
_REPLACED = f"""
    WITH RECURSIVE replaced(id) AS (
        SELECT s.id COLLATE "C" FROM unnest(%(starts)s::text[]) AS s(id)
        UNION
        SELECT e.target FROM replaced r {_SUPERSEDES_OUT}
    )
"""
_EDGES_REPLACED = f"""
    UNION ALL
    SELECT {EDGE_COLUMNS} FROM replaced r {_SUPERSEDES_OUT}
"""
# Every unjudged link whose metadata may name one of the rules: metadata is canonical
# JSON, so ``"rule":<the rule as canonical JSON>`` is in its text when it names it. A
# superset is enough: the fold picks the links it moves.
_EDGES_OF_RULES = f"""
    UNION ALL
    SELECT {EDGE_COLUMNS} FROM edges e
    WHERE e.graph = %(graph)s AND e.type = 'supersedes' AND e.state = 'candidate'
      AND e.tombstoned_at IS NULL
      AND EXISTS (SELECT 1 FROM unnest(%(rules)s::text[]) AS r(needle)
                  WHERE strpos(e.metadata, r.needle) > 0)
"""


def _upsert(table: str, fields: Sequence[str]) -> str:
    """Insert the batch's rows of ``table``, overwriting those whose id is there already."""
    columns = ", ".join(fields)
    sets = ", ".join(f"{column} = EXCLUDED.{column}" for column in fields[1:])
    return (
        f"INSERT INTO {table} (graph, {columns}) "
        f"SELECT %(graph)s, {columns} FROM json_populate_recordset(NULL::{table}, %({table})s)"
        f" ON CONFLICT (graph, id) DO UPDATE SET {sets}"
    )


_LEDGER_FIELDS = (
    "seq",
    "kind",
    "entity",
    "payload",
    "at",
    "prev_checksum",
    "checksum",
    "invalidated_at",
    "invalidated_reason",
)
# The whole batch in one statement, each table's rows in one JSON parameter. The
# data-modifying parts all see the snapshot the statement starts with, so the marks
# reach only the ledger rows from before the batch (its own rows carry their marks
# already), and the foreign keys of new edges are checked at its end, new nodes in.
_WRITE = """
    WITH nodes_written AS ({nodes}),
    edges_written AS ({edges}),{marks}
    entries AS (
        INSERT INTO ledger (graph, {ledger})
        SELECT %(graph)s, {ledger} FROM json_populate_recordset(NULL::ledger, %(ledger)s)
    )
    INSERT INTO heads (graph, seq, checksum) VALUES (%(graph)s, %(seq)s, %(checksum)s)
    ON CONFLICT (graph) DO UPDATE SET seq = EXCLUDED.seq, checksum = EXCLUDED.checksum
"""
# The ledger rows alone, found through ``(graph, entity)``, each entity's mark picked by
# its position in the arrays: as a join, this was planned as a scan of the whole ledger.
_MARKS = """
    marked AS (
        UPDATE ledger SET
            invalidated_at = (%(mark_ats)s::timestamptz[])[
                array_position(%(marked)s::text[], entity)],
            invalidated_reason = (%(mark_reasons)s::text[])[
                array_position(%(marked)s::text[], entity)]
        WHERE graph = %(graph)s AND entity = ANY(%(marked)s::text[])
    ),"""
_WRITES = {
    marked: _WRITE.format(
        nodes=_upsert("nodes", NODE_FIELDS),
        edges=_upsert("edges", EDGE_FIELDS),
        marks=_MARKS if marked else "",
        ledger=", ".join(_LEDGER_FIELDS),
    )
    for marked in (False, True)
}


def read_head(conn: Conn, graph: str) -> tuple[int, str]:
    row = conn.execute("SELECT seq, checksum FROM heads WHERE graph = %s", (graph,)).fetchone()
    return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))


def append_committed(
    conn: Conn, graph: str, drafts: Sequence[EventDraft], after_seq: int | None = None
) -> list[Event]:
    """``append`` in its own transaction on an autocommit connection, pipelined: two
    round trips. A refused batch costs a third (its ``ROLLBACK``)."""
    try:
        with conn.pipeline():
            conn.execute("BEGIN")
            events = append(conn, graph, drafts, after_seq)
            conn.execute("COMMIT")
    finally:
        if conn.info.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR):
            conn.execute("ROLLBACK")
    return events


def lock_head(conn: Conn, graph: str) -> None:
    """Lock the graph's head row (made if the graph is new) until the open transaction
    ends: every append to the graph waits for it meanwhile (``Store.write_lock``)."""
    conn.execute(_LOCK_HEAD, (graph, GENESIS))


def append(
    conn: Conn, graph: str, drafts: Sequence[EventDraft], after_seq: int | None = None
) -> list[Event]:
    """Check, apply and chain each draft; return the events as stored. Needs an open
    transaction; in pipeline mode the reads are one round trip and the writes none
    (``after_seq``: see ``Store.append``)."""
    seq, checksum, state, tree = _read(conn, graph, _Named.of(drafts))
    check_head(graph, seq, after_seq)
    loaded = (dict(state.nodes), dict(state.edges))
    events: list[Event] = []
    texts: list[str] = []
    leaves: list[bytes] = []
    for draft in drafts:
        seq += 1
        c = canonical_draft(graph, seq, draft)
        _fold(state, c.kind, c.payload, graph, c.record)
        prev, checksum = checksum, chain_checksum(c.raw, checksum)
        events.append(Event(graph, seq, c.kind, draft.entity, c.payload, c.at, prev, checksum))
        texts.append(c.payload_text)
        leaves.append(leaf_hash(c.raw))
    events, marks = _marked(events)
    params = {
        "graph": graph,
        "seq": seq,
        "checksum": checksum,
        "nodes": records_json(NODE_FIELDS, map(node_values, _changed(state.nodes, loaded[0]))),
        "edges": records_json(EDGE_FIELDS, map(edge_values, _changed(state.edges, loaded[1]))),
        "ledger": records_json(_LEDGER_FIELDS, map(_ledger_row, events, texts)),
        "marked": list(marks),
        "mark_ats": [at for at, _ in marks.values()],
        "mark_reasons": [reason for _, reason in marks.values()],
    }
    # With marks, the statement also updates ledger rows found by entity: planned each time.
    conn.execute(_WRITES[bool(marks)], params, prepare=False if marks else None)
    TREE.extend(conn, graph, events, tree, leaves)  # queued too: no round trip of its own
    return events


@dataclass
class _Named:
    """What a batch can touch, found in its drafts before the lock: every id-shaped text
    in a payload (lower-cased, as ``check_id`` stores ids), where a supersession reach
    starts, and the rules whose trust moves (as the text their links' metadata holds)."""

    ids: set[str] = field(default_factory=set)
    starts: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, drafts: Sequence[EventDraft]) -> _Named:
        named = cls()
        for draft in drafts:
            if isinstance(draft.payload, dict):
                named._add(str(draft.kind).strip().lower(), draft.payload)
        return named

    def _add(self, kind: str, payload: dict[str, Any]) -> None:
        self.ids.update(_ids_in(payload))
        if kind == EventKind.SUPERSEDED:
            self.starts.update(_ids_in([payload.get("old"), payload.get("new")]))
        edge = payload.get("edge")
        if isinstance(edge, dict) and str(edge.get("type")).strip().lower() == EdgeType.SUPERSEDES:
            self.starts.update(_ids_in([edge.get("target")]))
        rule = payload.get("rule")
        if kind == EventKind.RULE_TRUSTED and isinstance(rule, str):
            needle = f'"rule":{canonical_json(rule)}'
            try:  # a lone surrogate cannot travel (and the fold refuses the draft anyway)
                needle.encode("utf-8")
            except UnicodeEncodeError:
                return
            self.rules.add(needle)


def _ids_in(value: object) -> Iterator[str]:
    """Every text in ``value`` (nested lists and dict values) that could be an id."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) == ID_LENGTH and _ID_SHAPE(item):
                yield item.lower()
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def _read(conn: Conn, graph: str, named: _Named) -> tuple[int, str, GraphState, TreeHead]:
    """Lock the head, then read what the batch touches and the Merkle tree's head: one
    round trip in pipeline mode."""
    head = conn.execute(_LOCK_HEAD, (graph, GENESIS))
    at_head = conn.execute(_AT_HEAD, {"graph": graph}, prepare=False)
    params = {
        "graph": graph,
        "ids": sorted(named.ids),
        "starts": sorted(named.starts),
        "rules": sorted(named.rules),
    }
    nodes = conn.execute(_NODES_BY_ID, params, prepare=False)  # see "Plans" above
    edges_query = "".join(
        (
            _REPLACED if named.starts else "",
            _EDGES_BY_ID,
            _EDGES_REPLACED if named.starts else "",
            _EDGES_OF_RULES if named.rules else "",
        )
    )
    edges = conn.execute(edges_query, params, prepare=False)
    tree = conn.execute(TREE.head_sql, (graph,))
    row = head.fetchone()
    if row is None:  # pragma: no cover - the upsert returns the row it made or locked
        raise StoreError(f"graph {graph!r}: cannot lock its head row")
    check_head_agrees(graph, (int(row[0]), str(row[1])), at_head.fetchone())
    state = GraphState()
    for node in map(node_from_row, nodes.fetchall()):
        state.nodes[node.id] = node
    for edge in map(edge_from_row, edges.fetchall()):
        if edge.id not in state.edges:
            state.edges[edge.id] = edge
            state.out_edges[edge.source].append(edge.id)
            state.in_edges[edge.target].append(edge.id)
    return int(row[0]), str(row[1]), state, TREE.head_of(tree.fetchone())


def _fold(
    state: GraphState, kind: EventKind, payload: dict[str, Any], graph: str, record: object
) -> None:
    """``fold.apply``, naming the graph in ``NotFound`` as this store's reads do."""
    try:
        apply(state, kind, payload, record)
    except NotFound as exc:
        if exc.graph is not None:
            raise
        raise NotFound(exc.kind, exc.key, graph) from None


def _changed(now: dict[str, R], before: dict[str, R]) -> list[R]:
    """The records that are new or changed (records are immutable: a changed one is
    another object)."""
    return [record for key, record in now.items() if before.get(key) is not record]


def _marked(events: list[Event]) -> tuple[list[Event], dict[str, tuple[datetime, str | None]]]:
    """The batch's events with the marks its tombstones set, and by entity the mark for
    the earlier ledger rows. Each tombstone marks every earlier entry of its entity, so
    an entry ends up marked by the last tombstone after it."""
    last = {e.entity: i for i, e in enumerate(events) if e.kind is EventKind.TOMBSTONED}
    if not last:
        return events, {}
    marks = {
        entity: (parse_time(events[i].payload["at"], "at"), events[i].payload.get("reason"))
        for entity, i in last.items()
    }
    marked = [
        replace(e, invalidated_at=marks[e.entity][0], invalidated_reason=marks[e.entity][1])
        if last.get(e.entity, -1) > position
        else e
        for position, e in enumerate(events)
    ]
    return marked, marks


def _ledger_row(event: Event, payload_text: str) -> tuple[Any, ...]:
    """The ledger row of ``event``, its payload as the one canonical text it was hashed as."""
    return (
        event.seq,
        event.kind.value,
        event.entity,
        payload_text,
        event.at,
        event.prev_checksum,
        event.checksum,
        event.invalidated_at,
        event.invalidated_reason,
    )
