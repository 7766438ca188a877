"""The fold's rules checked against SQL tables, shared by the SQLite and DuckDB backends.

Both reach their tables through a DB-API connection with ``?`` parameters and the row
shape of ``decisis.stores.sqlite.rows``, so they apply an event the same way: records
are built with the model (``Node.from_dict``, ``evolve``), which validates them, and the
checks that need the stored state are made here, raising the same errors, in the same
order, as ``decisis.stores.fold``. What differs comes in a ``Dialect``: the statements
each writes in its own SQL, and what it keeps beside the node rows (DuckDB's search
index). Each backend keeps its own ``append``: how it chains the ledger and moves the
head. The caller holds the transaction and rolls it back on any error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar

from decisis.errors import Conflict, CycleError, InvalidInput, NotFound
from decisis.ledger import GENESIS
from decisis.model import (
    EDGE_MUTABLE_FIELDS,
    NODE_MUTABLE_FIELDS,
    Edge,
    EdgeType,
    EventDraft,
    EventKind,
    Node,
    format_time,
    parse_time,
)
from decisis.model.events import check_payload
from decisis.stores.checks import HEAD_ENTRY_SQL, head_entry_params
from decisis.stores.fold import added_record, checked_changes
from decisis.stores.merkle import SqlTree
from decisis.stores.retire import kept_metadata, release, retire, retires
from decisis.stores.sqlite.rows import (
    EDGE_FIELDS,
    NODE_FIELDS,
    columns,
    edge_from_row,
    edge_values,
    node_from_row,
    node_values,
)

__all__ = [
    "Connection",
    "Dialect",
    "NewIds",
    "apply",
    "new_ids",
    "read_head",
    "read_heads",
    "read_start",
    "rewrite_node",
    "stored_nodes",
]

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
_SELECT_NODE = f"SELECT {columns('n', NODE_FIELDS)} FROM nodes n WHERE n.graph = ? AND n.id = ?"
_SELECT_EDGE = f"SELECT {columns('e', EDGE_FIELDS)} FROM edges e WHERE e.graph = ? AND e.id = ?"
_ALREADY_SUPERSEDES = """
    SELECT 1 FROM edges
    WHERE graph = ? AND source = ? AND type = 'supersedes' AND target = ?
      AND tombstoned_at IS NULL
    LIMIT 1
"""
_TEXT_FIELDS = frozenset({"label", "rationale"})
_MAX_LOOKED_UP = 400  # ids in one ``new_ids`` statement: twice that many parameters
# An edge's two ends, in one lookup (``_check_endpoint`` for both).
_ENDPOINTS = "SELECT id, tombstoned_at FROM nodes WHERE graph = ? AND id IN (?, ?)"


class Rows(Protocol):
    """What ``execute`` returns: a result to fetch from."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Any: ...


class Connection(Protocol):
    """The one method of a DB-API connection these writes use."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Rows: ...


C = TypeVar("C", bound=Connection)


@dataclass(frozen=True)
class Dialect(Generic[C]):
    """What a backend writes in its own SQL, each statement with named parameters.

    ``id_used`` (graph, id): a row whose first column is true when the id is taken.
    ``supersedes_reach`` (graph, old, new): a row when ``old`` already reaches ``new``
    along live supersedes edges. ``trust_rule`` (graph, rule, confidence, at): the
    ``rule.trusted`` update of ``decisis.stores.fold``, as one set-based statement.
    ``index_node(conn, graph, node, replace)``: runs after a node is added
    (``replace=False``) and after its label or rationale changed (``replace=True``).
    """

    id_used: str
    supersedes_reach: str
    trust_rule: str
    index_node: Callable[[C, str, Node, bool], None] | None = None


def stored_nodes(conn: Connection, graph: str) -> list[Node]:
    """Every node row of ``graph``, tombstoned ones included (for ``refold``)."""
    sql = f"SELECT {columns('n', NODE_FIELDS)} FROM nodes n WHERE n.graph = ? ORDER BY n.id"
    return [node_from_row(row) for row in conn.execute(sql, (graph,)).fetchall()]


def rewrite_node(conn: Connection, graph: str, node: Node) -> None:
    """Overwrite a node's row (``refold``)."""
    conn.execute(_UPDATE_NODE, [*node_values(node)[1:], graph, node.id])


def read_head(conn: Connection, graph: str) -> tuple[int, str]:
    row = conn.execute("SELECT seq, checksum FROM heads WHERE graph = ?", (graph,)).fetchone()
    return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))


# What an append reads before it writes, in one statement: the head, the ledger at it
# (``checks.HEAD_ENTRY_SQL``: the entry the head names, and whether one follows), and the
# Merkle tree's head (``SqlTree.head_sql``); a graph without a head reads as seq 0.
_HEADS = """
    SELECT h.seq, h.checksum,
        (SELECT l.checksum FROM ledger l WHERE l.graph = g.graph AND l.seq = COALESCE(h.seq, 0)),
        EXISTS (SELECT 1 FROM ledger l WHERE l.graph = g.graph AND l.seq = COALESCE(h.seq, 0) + 1),
        m.size, m.frontier
    FROM (SELECT CAST(? AS VARCHAR) AS graph) g
    LEFT JOIN heads h ON h.graph = g.graph
    LEFT JOIN merkle_heads m ON m.graph = g.graph
"""


def read_heads(
    conn: Connection, graph: str, with_tree: bool = True
) -> tuple[int, str, tuple[Any, Any], tuple[int, list[bytes]] | None]:
    """The head (seq, checksum), what ``check_head_agrees`` checks it against, and the
    Merkle tree's head (``SqlTree.head_of``), in one statement; without ``tree``, no tree
    head (``None``), and no tree tables read (a schema from before them)."""
    if not with_tree:
        seq, checksum = read_head(conn, graph)
        entry = conn.execute(HEAD_ENTRY_SQL.format(p="?"), head_entry_params(graph, seq))
        return seq, checksum, entry.fetchone(), None
    seq, checksum, at_head, beyond, size, frontier = conn.execute(_HEADS, (graph,)).fetchone()
    head = (0, GENESIS) if seq is None else (int(seq), str(checksum))
    tree = SqlTree.head_of(None if size is None else (size, frontier))
    return head[0], head[1], (at_head, beyond), tree


def apply(
    conn: C,
    dialect: Dialect[C],
    graph: str,
    kind: EventKind,
    payload: dict[str, Any],
    entity: str,
    record: object = None,
    ids: NewIds | None = None,
) -> None:
    """Check one event against the tables and write what it changes, or raise (``record``:
    the draft's, see ``fold.added_record``; ``ids``: the append's ``NewIds``)."""
    _Tables(conn, dialect, graph, NewIds() if ids is None else ids).apply(
        kind, payload, entity, record
    )


@dataclass
class NewIds:
    """What one append knows of the ids it adds and the nodes its edges join, so that it
    looks each up once, not once a draft: ``absent``, found in neither table when the
    append began (``new_ids``), ``added``, inserted by the append since, and ``ends``, by
    node id, whether it is tombstoned (``None``: no such node), for the nodes the batch's
    edges may join: read when the append began, and set by the batch's ``node.added``;
    forgotten at a tombstone. Only this transaction writes the tables."""

    absent: set[str] = field(default_factory=set)
    added: set[str] = field(default_factory=set)
    ends: dict[str, bool | None] = field(default_factory=dict)


def _wanted(drafts: Sequence[EventDraft]) -> tuple[list[str], list[str]]:
    """The ids the drafts' own records add (``EventDraft.record``), and the nodes their
    edges join that they do not add; none when there are too many for one statement."""
    records = [d.record for d in drafts if d.record is not None]
    added = {r.id for r in records if isinstance(r.id, str)}
    ends = {
        end
        for r in records
        if isinstance(r, Edge)
        for end in (r.source, r.target)
        if isinstance(end, str) and end not in added
    }
    if len(added) > _MAX_LOOKED_UP or len(ends) > _MAX_LOOKED_UP:
        return [], []
    return sorted(added), sorted(ends)


def new_ids(conn: Connection, graph: str, drafts: Sequence[EventDraft]) -> NewIds:
    """The ids the drafts' own records add (``EventDraft.record``) that no node or edge of
    the graph has yet, found in one statement; any other id is looked up when it comes."""
    wanted, _ = _wanted(drafts)
    if not wanted:
        return NewIds()
    marks = ", ".join("?" * len(wanted))
    sql = (
        f"SELECT id FROM nodes WHERE graph = ? AND id IN ({marks}) "
        f"UNION ALL SELECT id FROM edges WHERE graph = ? AND id IN ({marks})"
    )
    used = {row[0] for row in conn.execute(sql, (graph, *wanted, graph, *wanted)).fetchall()}
    return NewIds(absent=set(wanted) - used)


# ``_HEADS`` and, in the same statement, the ids of ``new_ids`` already used and the
# state of the nodes the batch's edges join, each as one text of ids apart by spaces (ids
# are base32: no spaces), an end's id followed by ``+`` (live) or ``-`` (tombstoned).
_USED = """(SELECT group_concat(u.id, ' ') FROM (
        SELECT id FROM nodes WHERE graph = g.graph AND id IN ({marks})
        UNION ALL SELECT id FROM edges WHERE graph = g.graph AND id IN ({marks})) u)"""
_ENDS = """(SELECT group_concat(
            n.id || (CASE WHEN n.tombstoned_at IS NULL THEN '+' ELSE '-' END), ' ')
        FROM nodes n WHERE n.graph = g.graph AND n.id IN ({marks}))"""


@lru_cache(maxsize=64)  # the sizes batches come in: few
def _start_sql(added: int, ends: int) -> str:
    used = _USED.format(marks=", ".join("?" * added)) if added else "NULL"
    known = _ENDS.format(marks=", ".join("?" * ends)) if ends else "NULL"
    return _HEADS.replace("m.size, m.frontier", f"m.size, m.frontier, {used}, {known}", 1)


def read_start(
    conn: Connection, graph: str, drafts: Sequence[EventDraft]
) -> tuple[int, str, tuple[Any, Any], tuple[int, list[bytes]] | None, NewIds]:
    """``read_heads`` and ``new_ids`` in one statement, with the state of the nodes the
    drafts' edges join (``NewIds.ends``): an append's reads before it writes."""
    added, ends = _wanted(drafts)
    params = (*added, *added, *ends, graph)
    row = conn.execute(_start_sql(len(added), len(ends)), params).fetchone()
    seq, checksum, at_head, beyond, size, frontier, used, known = row
    head = (0, GENESIS) if seq is None else (int(seq), str(checksum))
    tree = SqlTree.head_of(None if size is None else (size, frontier))
    ids = NewIds(absent=set(added) - set((used or "").split()))
    ids.ends = dict.fromkeys(ends)
    for mark in (known or "").split():
        ids.ends[mark[:-1]] = mark[-1] == "-"
    return head[0], head[1], (at_head, beyond), tree, ids


@dataclass(frozen=True)
class _Tables(Generic[C]):
    """One graph's tables on one connection, for the length of one event."""

    conn: C
    dialect: Dialect[C]
    graph: str
    ids: NewIds

    def apply(
        self, kind: EventKind, payload: dict[str, Any], entity: str, record: object = None
    ) -> None:
        check_payload(kind, payload)  # the fold's first check: every key the kind needs is there
        if kind is EventKind.NODE_ADDED:
            data = payload["node"]
            node = added_record(Node, data, record)
            self._check_new_id(node.id)
            # the draft's own record is exactly its payload: the row from that, not again
            values = node_values(node, data if node is record else None)
            self.conn.execute(_INSERT_NODE, [self.graph, *values])
            self.ids.ends[node.id] = node.tombstoned
            self._index(node, replace=False)
        elif kind is EventKind.NODE_UPDATED:
            node = self._live_node(payload["id"])
            changes = kept_metadata(node, checked_changes(payload, NODE_MUTABLE_FIELDS, "node"))
            updated = node.evolve(**changes, updated_at=payload["updated_at"])
            self._write_node(updated)
            if not _TEXT_FIELDS.isdisjoint(changes):
                self._index(updated, replace=True)
        elif kind is EventKind.EDGE_ADDED:
            data = payload["edge"]
            edge = added_record(Edge, data, record)
            self._add_edge(edge, data if edge is record else None)
        elif kind is EventKind.EDGE_UPDATED:
            edge = self._live_edge(payload["id"])
            changes = checked_changes(payload, EDGE_MUTABLE_FIELDS, "edge")
            judged = edge.evolve(**changes, updated_at=payload["updated_at"])
            self._write_edge(judged)
            self._follow_link(edge, judged)
        elif kind is EventKind.SUPERSEDED:
            self._supersede(payload)
        elif kind is EventKind.TOMBSTONED:
            self._tombstone(payload, entity)
        elif kind is EventKind.RULE_TRUSTED:
            self._trust_rule(payload)
        elif kind is EventKind.PROVENANCE:
            self._check_described(payload["entity"])

    def _index(self, node: Node, *, replace: bool) -> None:
        if self.dialect.index_node is not None:
            self.dialect.index_node(self.conn, self.graph, node, replace)

    def _write_node(self, node: Node) -> None:
        self.conn.execute(_UPDATE_NODE, [*node_values(node)[1:], self.graph, node.id])

    def _write_edge(self, edge: Edge) -> None:
        self.conn.execute(_UPDATE_EDGE, [*edge_values(edge)[1:], self.graph, edge.id])

    def _check_new_id(self, record_id: str) -> None:
        ids = self.ids
        if record_id in ids.added:
            raise Conflict(f"id {record_id} is already used in this graph")
        if record_id not in ids.absent:
            row = self.conn.execute(self.dialect.id_used, {"graph": self.graph, "id": record_id})
            used = row.fetchone()
            if used is not None and used[0]:
                raise Conflict(f"id {record_id} is already used in this graph")
        ids.added.add(record_id)  # the caller inserts it next, or the append fails

    def _live_node(self, node_id: str, field: str = "id") -> Node:
        row = self.conn.execute(_SELECT_NODE, (self.graph, node_id)).fetchone()
        if row is None:
            raise NotFound("node", node_id, self.graph)
        node = node_from_row(row)
        if node.tombstoned:
            raise Conflict(f"{field}: node {node_id} is tombstoned and cannot change")
        return node

    def _live_edge(self, edge_id: str) -> Edge:
        row = self.conn.execute(_SELECT_EDGE, (self.graph, edge_id)).fetchone()
        if row is None:
            raise NotFound("edge", edge_id, self.graph)
        edge = edge_from_row(row)
        if edge.tombstoned:
            raise Conflict(f"edge {edge_id} is tombstoned and cannot change")
        return edge

    def _check_described(self, record_id: str) -> None:
        """``fold._check_described``: a provenance entry's record is a live node or edge."""
        row = self.conn.execute(_SELECT_NODE, (self.graph, record_id)).fetchone()
        if row is not None:
            if node_from_row(row).tombstoned:
                raise Conflict(f"entity: node {record_id} is tombstoned and cannot change")
            return
        row = self.conn.execute(_SELECT_EDGE, (self.graph, record_id)).fetchone()
        if row is None:
            raise NotFound("node or edge", record_id, self.graph)
        if edge_from_row(row).tombstoned:
            raise Conflict(f"edge {record_id} is tombstoned and cannot change")

    def _check_endpoint(self, node_id: str, field: str) -> None:
        row = self.conn.execute(
            "SELECT tombstoned_at FROM nodes WHERE graph = ? AND id = ?", (self.graph, node_id)
        ).fetchone()
        if row is None:
            raise NotFound("node", node_id, self.graph)
        if row[0] is not None:
            raise Conflict(f"{field}: node {node_id} is tombstoned and cannot change")

    def _add_edge(self, edge: Edge, data: dict[str, Any] | None = None) -> None:
        self._check_new_id(edge.id)
        known = self.ids.ends
        if edge.source in known and edge.target in known:
            found = {key: known[key] for key in (edge.source, edge.target)}
        else:
            rows = self.conn.execute(_ENDPOINTS, (self.graph, edge.source, edge.target))
            found = {row[0]: row[1] is not None for row in rows.fetchall()}
        for node_id, end in ((edge.source, "source"), (edge.target, "target")):
            tombstoned = found.get(node_id)
            if tombstoned is None:
                raise NotFound("node", node_id, self.graph)
            if tombstoned:
                raise Conflict(f"{end}: node {node_id} is tombstoned and cannot change")
        self.conn.execute(_INSERT_EDGE, [self.graph, *edge_values(edge, data)])

    def _check_supersede(self, old_id: str, new_id: str) -> None:
        if old_id == new_id:
            raise InvalidInput("new", "a node cannot supersede itself", "another node")
        self._check_endpoint(old_id, "old")
        self._check_endpoint(new_id, "new")
        reach = {"graph": self.graph, "old": old_id, "new": new_id}
        if self.conn.execute(self.dialect.supersedes_reach, reach).fetchone() is not None:
            raise CycleError(
                "new",
                f"{old_id} already supersedes {new_id} (directly or through others); "
                "superseding it back would make a cycle",
                "a node that the old one does not already replace",
            )
        already = self.conn.execute(_ALREADY_SUPERSEDES, (self.graph, new_id, old_id))
        if already.fetchone() is not None:
            raise Conflict(
                f"{new_id} already supersedes {old_id}; judge the pair to confirm or reject it"
            )

    def _supersede(self, payload: dict[str, Any]) -> None:
        old_id, new_id = payload["old"], payload["new"]
        self._check_supersede(old_id, new_id)
        edge = Edge.from_dict(payload["edge"])
        if edge.type is not EdgeType.SUPERSEDES or (edge.source, edge.target) != (new_id, old_id):
            raise InvalidInput(
                "edge", "must be new -supersedes-> old", "a supersedes edge new -> old"
            )
        at = parse_time(payload["at"], "at")
        old = self._live_node(old_id, "old")
        self._add_edge(edge)
        if retires(edge):
            self._write_node(retire(old, edge.id, at))

    def _follow_link(self, before: Edge, after: Edge) -> None:
        """``fold._follow_link``: retire or release the node the edge replaces."""
        if retires(before) == retires(after):
            return
        row = self.conn.execute(_SELECT_NODE, (self.graph, after.target)).fetchone()
        if row is None:
            raise NotFound("node", after.target, self.graph)
        node = node_from_row(row)
        if not node.tombstoned:
            follow = retire if retires(after) else release
            self._write_node(follow(node, after.id, after.updated_at))

    def _trust_rule(self, payload: dict[str, Any]) -> None:
        """A rule's new trust onto its unjudged links: one set-based statement. The
        confidence is bound as a float (``check_payload`` made it a number in [0, 1]),
        as the REAL and DOUBLE columns hold it."""
        at = parse_time(payload["updated_at"], "updated_at")
        params = {
            "graph": self.graph,
            "rule": payload["rule"],
            "confidence": float(payload["confidence"]),
            "at": format_time(at),
        }
        self.conn.execute(self.dialect.trust_rule, params)

    def _tombstone(self, payload: dict[str, Any], entity: str) -> None:
        """Tombstone a record and mark the earlier ledger entries of the event's entity
        invalidated (those fields are outside the checksum, so the chain stays whole)."""
        target, record_id = payload["target"], payload["id"]
        at = parse_time(payload["at"], "at")
        reason = payload.get("reason")
        self.ids.ends.clear()  # what was known of the nodes may change now
        if target == "node":
            node = self._live_node(record_id)
            self._write_node(node.evolve(tombstoned_at=at, tombstone_reason=reason))
        elif target == "edge":
            edge = self._live_edge(record_id)
            gone = edge.evolve(tombstoned_at=at, tombstone_reason=reason)
            self._write_edge(gone)
            self._follow_link(edge, gone.evolve(updated_at=at))
        else:
            raise InvalidInput("target", f"unknown target {target!r}", ["edge", "node"])
        self.conn.execute(
            "UPDATE ledger SET invalidated_at = ?, invalidated_reason = ? "
            "WHERE graph = ? AND entity = ?",
            (format_time(at), reason, self.graph, entity),
        )
