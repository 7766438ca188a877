"""What the tables hold: every model field has a column, ledger payloads are the canonical
JSON that was hashed, and times are fixed-width text that sorts like time."""

from __future__ import annotations

import sqlite3
from dataclasses import fields

from decisis.ledger import canonical_bytes
from decisis.model import Edge, Node
from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.rows import EDGE_FIELDS, NODE_FIELDS
from tests.stores.helpers import G, add_chain


def test_every_model_field_has_a_column(raw: sqlite3.Connection, sqlite_store: SQLiteStore) -> None:
    assert tuple(f.name for f in fields(Node)) == NODE_FIELDS
    assert tuple(f.name for f in fields(Edge)) == EDGE_FIELDS
    node_columns = {row[1] for row in raw.execute("PRAGMA table_info(nodes)")}
    edge_columns = {row[1] for row in raw.execute("PRAGMA table_info(edges)")}
    assert set(NODE_FIELDS) <= node_columns
    assert set(EDGE_FIELDS) <= edge_columns


def test_ledger_rows_hold_the_hashed_canonical_form(
    raw: sqlite3.Connection, sqlite_store: SQLiteStore
) -> None:
    add_chain(sqlite_store, 3)
    for event in sqlite_store.events(G):
        payload, stored_at = raw.execute(
            "SELECT payload, at FROM ledger WHERE graph = ? AND seq = ?", (G, event.seq)
        ).fetchone()
        document = canonical_bytes(G, event.seq, event.kind, event.entity, event.payload, event.at)
        assert f'"payload":{payload},'.encode() in document
        assert f'"at":"{stored_at}"'.encode() in document


def test_times_are_fixed_width_text(raw: sqlite3.Connection, sqlite_store: SQLiteStore) -> None:
    add_chain(sqlite_store, 2)
    widths = {
        len(value)
        for (value,) in raw.execute(
            "SELECT recorded_at FROM nodes UNION SELECT valid_from FROM edges"
            " UNION SELECT at FROM ledger"
        )
    }
    assert widths == {len("2026-01-01T00:00:00.000000Z")}
