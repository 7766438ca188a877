"""``append`` in SQLite: each draft checked and applied by ``decisis.stores.dbapi_writes``,
then chained onto the ledger.

The caller opens a ``BEGIN IMMEDIATE`` transaction and rolls it back on any
error, so a refused draft leaves nothing of its batch behind. What is SQLite's
own: the three statements of its ``Dialect`` (``:name`` parameters, its JSON
functions) and the head moved by an upsert.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import lru_cache

from decisis.ledger import chain_checksum
from decisis.model import Event, EventDraft, EventKind, format_time
from decisis.proof import leaf_hash
from decisis.stores.checks import check_head, check_head_agrees
from decisis.stores.dbapi_writes import (
    Dialect,
    apply,
    new_ids,
    read_head,
    read_heads,
    read_start,
)
from decisis.stores.fold import canonical_draft
from decisis.stores.merkle import SqlTree
from decisis.stores.sqlite.rows import EVENT_COLUMNS, event_from_row

__all__ = ["append", "read_head"]

_ID_USED = """
    SELECT 1 FROM nodes WHERE graph = :graph AND id = :id
    UNION ALL
    SELECT 1 FROM edges WHERE graph = :graph AND id = :id
    LIMIT 1
"""
# Does ``old`` already reach ``new`` along live supersedes edges (old -> what it replaced)?
_SUPERSEDES_REACH = """
    WITH RECURSIVE replaced(id) AS (
        SELECT :old
        UNION
        SELECT e.target FROM replaced r
        JOIN edges e ON e.graph = :graph AND e.source = r.id AND e.type = 'supersedes'
        WHERE e.tombstoned_at IS NULL
    )
    SELECT 1 FROM replaced WHERE id = :new LIMIT 1
"""
# ``rule.trusted`` (see ``decisis.stores.fold``): every unjudged link of the rule at once.
_TRUST_RULE = """
    UPDATE edges SET confidence = :confidence, updated_at = :at
    WHERE graph = :graph AND type = 'supersedes' AND state = 'candidate'
      AND tombstoned_at IS NULL
      AND json_extract(metadata, '$.rule') = :rule AND json_type(metadata, '$.rule') = 'text'
      AND (confidence IS NULL OR confidence <> :confidence)
"""
_DIALECT = Dialect[sqlite3.Connection](_ID_USED, _SUPERSEDES_REACH, _TRUST_RULE)
_INSERT_LEDGER = (
    "INSERT INTO ledger (graph, seq, kind, entity, payload, at, prev_checksum, checksum) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
# 8 parameters a row: 4,000 a statement, well under SQLite's limit (32,766 since 3.32).
_LEDGER_ROWS_A_STATEMENT = 500
_MOVE_HEAD = (
    "INSERT INTO heads (graph, seq, checksum) VALUES (?, ?, ?) "
    "ON CONFLICT (graph) DO UPDATE SET seq = excluded.seq, checksum = excluded.checksum"
)


def append(
    conn: sqlite3.Connection,
    graph: str,
    drafts: Sequence[EventDraft],
    after_seq: int | None = None,
    tree: SqlTree | None = None,
) -> list[Event]:
    """Check, apply and chain each draft; return the events as stored, and extend ``tree``
    with them. Needs an open transaction (``after_seq``: see ``Store.append``). The heads,
    the ids the batch adds and the nodes its edges join are read in one statement; the
    ledger rows are written together (before a tombstone, which marks the rows before
    it); the events come from what was written (read back only when a tombstone of the
    batch marked some of them)."""
    if tree is None:
        seq, checksum, agreement, tree_head = read_heads(conn, graph, False)
        ids = new_ids(conn, graph, drafts)
    else:
        seq, checksum, agreement, tree_head, ids = read_start(conn, graph, drafts)
    check_head(graph, seq, after_seq)
    check_head_agrees(graph, (seq, checksum), agreement)
    events: list[Event] = []
    leaves: list[bytes] = []
    rows: list[tuple[object, ...]] = []
    for draft in drafts:
        seq += 1
        c = canonical_draft(graph, seq, draft)
        if c.kind is EventKind.TOMBSTONED:
            _insert_ledger(conn, rows)  # the rows it marks are in the table first
        apply(conn, _DIALECT, graph, c.kind, c.payload, draft.entity, c.record, ids)
        prev, checksum = checksum, chain_checksum(c.raw, checksum)
        at = format_time(c.at)
        rows.append((graph, seq, c.kind.value, draft.entity, c.payload_text, at, prev, checksum))
        events.append(Event(graph, seq, c.kind, draft.entity, c.payload, c.at, prev, checksum))
        leaves.append(leaf_hash(c.raw))
    _insert_ledger(conn, rows)
    conn.execute(_MOVE_HEAD, (graph, seq, checksum))
    if tree is not None:
        tree.extend(conn, graph, events, tree_head, leaves)
    if any(event.kind is EventKind.TOMBSTONED for event in events):
        return _read_back(conn, graph, events[0].seq)  # with the marks the tombstone set
    return events


@lru_cache(maxsize=64)  # the sizes batches come in: few
def _insert_ledger_sql(count: int) -> str:
    return _INSERT_LEDGER + ", (?, ?, ?, ?, ?, ?, ?, ?)" * (count - 1)


def _insert_ledger(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    """Insert the ledger ``rows`` in as few statements as SQLite's parameter limit allows,
    and empty the list."""
    for start in range(0, len(rows), _LEDGER_ROWS_A_STATEMENT):
        chunk = rows[start : start + _LEDGER_ROWS_A_STATEMENT]
        conn.execute(_insert_ledger_sql(len(chunk)), [value for row in chunk for value in row])
    rows.clear()


def _read_back(conn: sqlite3.Connection, graph: str, first: int) -> list[Event]:
    rows = conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM ledger WHERE graph = ? AND seq >= ? ORDER BY seq",
        (graph, first),
    ).fetchall()
    return [event_from_row(row) for row in rows]
