"""Tampering with the DuckDB file behind the store's back is caught by ``verify``.

Each test builds a small graph through the store, closes it, edits the file with
plain SQL as an attacker (or a careless script) would, reopens it, and checks that
``decisis.stores.replay.verify`` fails and names the first bad ``seq`` wherever the
chain itself breaks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decisis.errors import IntegrityError
from decisis.ledger import canonical_bytes, chain_checksum
from decisis.model import EventKind, format_time, utc_now
from decisis.stores.duckdb_store import DuckDBStore
from decisis.stores.replay import VerifyReport, verify
from tests.stores.duckdb.raw import query, raw
from tests.stores.helpers import (
    G,
    add_edge,
    add_node,
    make_node,
    node_updated,
    superseded,
    tombstoned,
)

EVENTS = 7


@pytest.fixture
def built(db_path: Path) -> Path:
    """Seven events: three nodes, an edge, an update, a supersession, a tombstone."""
    with DuckDBStore(db_path) as store:
        a = add_node(store, label="Use JWT")
        b = add_node(store, label="Use sessions")
        c = add_node(store, label="Use mTLS")
        add_edge(store, a, c)
        store.append(G, [node_updated(a, label="Use JWT tokens")])
        store.append(G, [superseded(a, b)])
        store.append(G, [tombstoned(c)])
        assert store.head(G)[0] == EVENTS
        assert verify(store, G).ok
    return db_path


def _verify(path: Path) -> VerifyReport:
    with DuckDBStore(path) as store:
        return verify(store, G)


def _edit(path: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    with raw(path) as conn:
        for sql, params in statements:
            conn.execute(sql, params)


def test_an_untouched_file_verifies(built: Path) -> None:
    report = _verify(built)
    assert report.ok and report.events == EVENTS and report.first_bad_seq is None


def test_edited_ledger_payload(built: Path) -> None:
    (payload,) = query(built, "SELECT payload FROM ledger WHERE graph = ? AND seq = 2", (G,))[0]
    edited = json.loads(payload)
    edited["node"]["label"] = "Use basic auth"
    _edit(
        built,
        ("UPDATE ledger SET payload = ? WHERE graph = ? AND seq = 2", (json.dumps(edited), G)),
    )
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 2


def test_deleted_ledger_row(built: Path) -> None:
    _edit(built, ("DELETE FROM ledger WHERE graph = ? AND seq = 3", (G,)))
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 3


def test_swapped_sequence_numbers(built: Path) -> None:
    _edit(
        built,
        ("UPDATE ledger SET seq = -1 WHERE graph = ? AND seq = 3", (G,)),
        ("UPDATE ledger SET seq = 3 WHERE graph = ? AND seq = 4", (G,)),
        ("UPDATE ledger SET seq = 4 WHERE graph = ? AND seq = -1", (G,)),
    )
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 3


def _forge(path: Path, *, sign: bool, move_head: bool = False) -> None:
    """Append a node.added row after the head; with ``sign`` its checksum is correct."""
    seq, prev = query(path, "SELECT seq, checksum FROM heads WHERE graph = ?", (G,))[0]
    node = make_node("Forged decision")
    payload = {"node": node.to_dict()}
    when = utc_now()
    raw_bytes = canonical_bytes(G, seq + 1, EventKind.NODE_ADDED, node.id, payload, when)
    checksum = chain_checksum(raw_bytes, prev) if sign else "sha256:" + "f" * 64
    row = (G, seq + 1, "node.added", node.id, json.dumps(payload), format_time(when), prev)
    statements = [
        (
            'INSERT INTO ledger (graph, seq, kind, entity, payload, "at", prev_checksum, checksum)'
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (*row, checksum),
        )
    ]
    if move_head:
        statements.append(
            ("UPDATE heads SET seq = ?, checksum = ? WHERE graph = ?", (seq + 1, checksum, G))
        )
    _edit(path, *statements)


def test_forged_row_with_a_bad_checksum(built: Path) -> None:
    _forge(built, sign=False)
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == EVENTS + 1


def test_forged_row_chained_correctly_but_past_the_head(built: Path) -> None:
    _forge(built, sign=True)
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == EVENTS + 1


def test_forged_row_with_head_moved_too(built: Path) -> None:
    """A forger who rewrites the head as well still cannot make the tables agree."""
    _forge(built, sign=True, move_head=True)
    report = _verify(built)
    assert not report.ok
    assert any("missing from the table" in problem for problem in report.problems)


def test_node_label_edited_in_the_table(built: Path) -> None:
    _edit(
        built,
        (
            "UPDATE nodes SET label = 'Use basic auth' WHERE graph = ? AND label = 'Use sessions'",
            (G,),
        ),
    )
    report = _verify(built)
    assert not report.ok and report.first_bad_seq is None  # the ledger is whole; the table lies
    assert any("label" in problem for problem in report.problems)


def test_node_deleted_from_the_table(built: Path) -> None:
    _edit(built, ("DELETE FROM nodes WHERE graph = ? AND label = 'Use sessions'", (G,)))
    assert not _verify(built).ok


def test_last_ledger_row_deleted(built: Path) -> None:
    _edit(built, ("DELETE FROM ledger WHERE graph = ? AND seq = ?", (G, EVENTS)))
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == EVENTS


def test_invalidation_marks_are_outside_the_chain_but_checked(built: Path) -> None:
    """Tombstoning marks earlier entries outside the checksum (the chain stays whole), so
    verify checks the marks against the ledger's tombstones: a rewritten reason is named."""
    marked = query(
        built,
        "SELECT seq FROM ledger WHERE graph = ? AND invalidated_at IS NOT NULL ORDER BY seq",
        (G,),
    )
    assert [seq for (seq,) in marked] == [3]  # the tombstoned node's own node.added
    _edit(built, ("UPDATE ledger SET invalidated_reason = 'rewritten' WHERE graph = ?", (G,)))
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 1  # every row was given a reason
    assert "tombstone mark" in report.problems[0] and "rewritten" in report.problems[0]


@pytest.mark.parametrize(
    ("column", "value"),
    [("payload", "{not json"), ("kind", "node.forged"), ('"at"', "yesterday")],
)
def test_an_unreadable_ledger_row_is_an_integrity_error_naming_it(
    built: Path, column: str, value: str
) -> None:
    assert column in {"payload", "kind", '"at"'}  # a column name, never user data
    _edit(built, (f"UPDATE ledger SET {column} = ? WHERE graph = ? AND seq = 2", (value, G)))
    with DuckDBStore(built) as store, pytest.raises(IntegrityError) as caught:
        list(store.events(G))
    assert caught.value.seq == 2


def test_an_unreadable_node_row_is_an_integrity_error(built: Path) -> None:
    _edit(built, ("UPDATE nodes SET type = 'forged' WHERE graph = ? AND label = 'Use mTLS'", (G,)))
    with DuckDBStore(built) as store, pytest.raises(IntegrityError, match="unreadable"):
        store.nodes(G, include_tombstoned=True)
