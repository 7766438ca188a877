"""``append`` in DuckDB: each draft checked and applied by ``decisis.stores.dbapi_writes``,
then chained onto the ledger.

The caller opens one transaction and rolls it back on any error, so a refused
draft leaves nothing of its batch behind. What is DuckDB's own: the three
statements of its ``Dialect`` (``$name`` parameters, its JSON functions), the
``node_terms`` search index rewritten in the same transaction whenever a node's
label or rationale changes, the quoted ``"at"`` column, and a head moved by
``INSERT`` or ``UPDATE`` (the events are read back only when a tombstone marked
some).
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from decisis.ledger import chain_checksum
from decisis.model import Event, EventDraft, EventKind, Node, format_time
from decisis.proof import leaf_hash
from decisis.stores.checks import check_head, check_head_agrees
from decisis.stores.dbapi_writes import Dialect, apply, new_ids, read_head, read_heads
from decisis.stores.duckdb_store.rows import EVENT_COLUMNS, event_from_row
from decisis.stores.duckdb_store.schema import index_node
from decisis.stores.fold import canonical_draft
from decisis.stores.merkle import SqlTree

__all__ = ["append", "read_head"]

Conn = duckdb.DuckDBPyConnection

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
_INSERT_LEDGER = (
    'INSERT INTO ledger (graph, seq, kind, entity, payload, "at", prev_checksum, checksum) '
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _index(conn: Conn, graph: str, node: Node, replace: bool) -> None:
    """Keep the node's rows in the ``node_terms`` search index in step with its text."""
    if replace:
        conn.execute("DELETE FROM node_terms WHERE graph = ? AND id = ?", (graph, node.id))
    index_node(conn, graph, node.id, node.label, node.rationale)


_DIALECT = Dialect[Conn](_ID_USED, _SUPERSEDES_REACH, _TRUST_RULE, _index)


def append(
    conn: Conn,
    graph: str,
    drafts: Sequence[EventDraft],
    after_seq: int | None = None,
    tree: SqlTree | None = None,
) -> list[Event]:
    """Check, apply and chain each draft; return the events as stored, and extend ``tree``
    with them. Needs an open transaction (``after_seq``: see ``Store.append``)."""
    seq, checksum, agreement, tree_head = read_heads(conn, graph, tree is not None)
    old = seq
    check_head(graph, seq, after_seq)
    check_head_agrees(graph, (seq, checksum), agreement)
    ids = new_ids(conn, graph, drafts)
    events: list[Event] = []
    leaves: list[bytes] = []
    for draft in drafts:
        seq += 1
        c = canonical_draft(graph, seq, draft)
        apply(conn, _DIALECT, graph, c.kind, c.payload, draft.entity, c.record, ids)
        prev, checksum = checksum, chain_checksum(c.raw, checksum)
        row = (graph, seq, c.kind.value, draft.entity, c.payload_text, format_time(c.at))
        conn.execute(_INSERT_LEDGER, (*row, prev, checksum))
        events.append(Event(graph, seq, c.kind, draft.entity, c.payload, c.at, prev, checksum))
        leaves.append(leaf_hash(c.raw))
    _move_head(conn, graph, old, seq, checksum)
    if tree is not None:
        tree.extend(conn, graph, events, tree_head, leaves)
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
