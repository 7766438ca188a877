"""``append`` in SQLite: each draft checked and applied by ``decisis.stores.dbapi_writes``,
then chained onto the ledger.

The caller opens a ``BEGIN IMMEDIATE`` transaction and rolls it back on any
error, so a refused draft leaves nothing of its batch behind. What is SQLite's
own: the three statements of its ``Dialect`` (``:name`` parameters, its JSON
functions), the head moved by an upsert, and the events read back as stored.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from decisis.ledger import chain_checksum
from decisis.model import Event, EventDraft, format_time
from decisis.stores.checks import (
    HEAD_ENTRY_SQL,
    check_head,
    check_head_agrees,
    head_entry_params,
)
from decisis.stores.dbapi_writes import Dialect, apply, read_head
from decisis.stores.fold import canonical_draft
from decisis.stores.sqlite.rows import EVENT_COLUMNS, canonical_json, event_from_row

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


def append(
    conn: sqlite3.Connection,
    graph: str,
    drafts: Sequence[EventDraft],
    after_seq: int | None = None,
) -> list[Event]:
    """Check, apply and chain each draft; return the events as stored. Needs an open
    transaction (``after_seq``: see ``Store.append``)."""
    seq, checksum = read_head(conn, graph)
    check_head(graph, seq, after_seq)
    ledger = conn.execute(HEAD_ENTRY_SQL.format(p="?"), head_entry_params(graph, seq))
    check_head_agrees(graph, (seq, checksum), ledger.fetchone())
    first = seq + 1
    for draft in drafts:
        seq += 1
        raw, kind, payload, at = canonical_draft(graph, seq, draft)
        apply(conn, _DIALECT, graph, kind, payload, draft.entity)
        prev, checksum = checksum, chain_checksum(raw, checksum)
        conn.execute(
            "INSERT INTO ledger (graph, seq, kind, entity, payload, at, prev_checksum, checksum) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                graph,
                seq,
                kind,
                draft.entity,
                canonical_json(payload),
                format_time(at),
                prev,
                checksum,
            ),
        )
    conn.execute(
        "INSERT INTO heads (graph, seq, checksum) VALUES (?, ?, ?) "
        "ON CONFLICT (graph) DO UPDATE SET seq = excluded.seq, checksum = excluded.checksum",
        (graph, seq, checksum),
    )
    rows = conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM ledger WHERE graph = ? AND seq >= ? ORDER BY seq",
        (graph, first),
    ).fetchall()
    return [event_from_row(row) for row in rows]
