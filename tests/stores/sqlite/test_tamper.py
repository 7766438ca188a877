"""Tampering with the file behind the store's back is caught by ``verify``.

Each test builds a small graph through the store, edits the SQLite file with
plain SQL as an attacker (or a careless script) would, reopens it, and checks
that ``decisis.stores.replay.verify`` fails and names the first bad ``seq``
wherever the chain itself breaks.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.errors import IntegrityError
from decisis.ledger import canonical_bytes, chain_checksum
from decisis.model import EventKind, format_time, utc_now
from decisis.stores.replay import VerifyReport, verify
from decisis.stores.sqlite import SQLiteStore
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
    with SQLiteStore(db_path) as store:
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


@pytest.fixture
def tamper(built: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(built, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def _verify(path: Path) -> VerifyReport:
    with SQLiteStore(path) as store:
        return verify(store, G)


def test_an_untouched_file_verifies(built: Path) -> None:
    report = _verify(built)
    assert report.ok and report.events == EVENTS and report.first_bad_seq is None


def test_edited_ledger_payload(built: Path, tamper: sqlite3.Connection) -> None:
    tamper.execute(
        "UPDATE ledger SET payload = json_set(payload, '$.node.label', 'Use basic auth') "
        "WHERE graph = ? AND seq = 2",
        (G,),
    )
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 2


def test_deleted_ledger_row(built: Path, tamper: sqlite3.Connection) -> None:
    tamper.execute("DELETE FROM ledger WHERE graph = ? AND seq = 3", (G,))
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 3  # the seq that went missing


def test_swapped_sequence_numbers(built: Path, tamper: sqlite3.Connection) -> None:
    tamper.execute("BEGIN")
    tamper.execute("UPDATE ledger SET seq = -1 WHERE graph = ? AND seq = 3", (G,))
    tamper.execute("UPDATE ledger SET seq = 3 WHERE graph = ? AND seq = 4", (G,))
    tamper.execute("UPDATE ledger SET seq = 4 WHERE graph = ? AND seq = -1", (G,))
    tamper.execute("COMMIT")
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 3


def _forge(conn: sqlite3.Connection, seq: int, prev: str, *, sign: bool) -> str:
    """Insert a node.added row at ``seq``; with ``sign`` its checksum is computed correctly."""
    node = make_node("Forged decision")
    payload = {"node": node.to_dict()}
    at = utc_now()
    raw = canonical_bytes(G, seq, EventKind.NODE_ADDED, node.id, payload, at)
    checksum = chain_checksum(raw, prev) if sign else "sha256:" + "f" * 64
    conn.execute(
        "INSERT INTO ledger (graph, seq, kind, entity, payload, at, prev_checksum, checksum) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (G, seq, "node.added", node.id, json.dumps(payload), format_time(at), prev, checksum),
    )
    return checksum


def _head(conn: sqlite3.Connection) -> tuple[int, str]:
    seq, checksum = conn.execute("SELECT seq, checksum FROM heads WHERE graph = ?", (G,)).fetchone()
    return int(seq), str(checksum)


def test_forged_row_with_a_bad_checksum(built: Path, tamper: sqlite3.Connection) -> None:
    seq, checksum = _head(tamper)
    _forge(tamper, seq + 1, checksum, sign=False)
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == EVENTS + 1


def test_forged_row_chained_correctly_but_past_the_head(
    built: Path, tamper: sqlite3.Connection
) -> None:
    seq, checksum = _head(tamper)
    _forge(tamper, seq + 1, checksum, sign=True)
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == EVENTS + 1


def test_forged_row_with_head_moved_too(built: Path, tamper: sqlite3.Connection) -> None:
    """A forger who rewrites the head as well still cannot make the tables agree."""
    seq, checksum = _head(tamper)
    forged = _forge(tamper, seq + 1, checksum, sign=True)
    tamper.execute("UPDATE heads SET seq = ?, checksum = ? WHERE graph = ?", (seq + 1, forged, G))
    report = _verify(built)
    assert not report.ok
    assert any("missing from the table" in problem for problem in report.problems)


def test_node_label_edited_in_the_table(built: Path, tamper: sqlite3.Connection) -> None:
    tamper.execute(
        "UPDATE nodes SET label = 'Use basic auth' WHERE graph = ? AND label = 'Use sessions'",
        (G,),
    )
    report = _verify(built)
    assert not report.ok and report.first_bad_seq is None  # the ledger is whole; the table lies
    assert any("label" in problem for problem in report.problems)


def test_node_deleted_from_the_table(built: Path, tamper: sqlite3.Connection) -> None:
    tamper.execute("PRAGMA foreign_keys = OFF")
    tamper.execute("DELETE FROM nodes WHERE graph = ? AND label = 'Use sessions'", (G,))
    report = _verify(built)
    assert not report.ok


def test_last_ledger_row_deleted(built: Path, tamper: sqlite3.Connection) -> None:
    tamper.execute("DELETE FROM ledger WHERE graph = ? AND seq = ?", (G, EVENTS))
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == EVENTS


def test_invalidation_marks_are_outside_the_chain_but_checked(
    built: Path, tamper: sqlite3.Connection
) -> None:
    """Tombstoning marks earlier entries outside the checksum (the chain stays whole), so
    verify checks the marks against the ledger's tombstones: a rewritten reason is named."""
    marked = tamper.execute(
        "SELECT seq FROM ledger WHERE graph = ? AND invalidated_at IS NOT NULL ORDER BY seq", (G,)
    ).fetchall()
    assert [seq for (seq,) in marked] == [3]  # the tombstoned node's own node.added
    tamper.execute("UPDATE ledger SET invalidated_reason = 'rewritten' WHERE graph = ?", (G,))
    report = _verify(built)
    assert not report.ok and report.first_bad_seq == 1  # every row was given a reason
    assert "tombstone mark" in report.problems[0] and "rewritten" in report.problems[0]


@pytest.mark.parametrize(
    ("column", "value"),
    [("payload", "{not json"), ("kind", "node.forged"), ("at", "yesterday")],
)
def test_an_unreadable_ledger_row_is_an_integrity_error_naming_it(
    built: Path, tamper: sqlite3.Connection, column: str, value: str
) -> None:
    assert column in {"payload", "kind", "at"}  # a column name, never user data
    tamper.execute(f"UPDATE ledger SET {column} = ? WHERE graph = ? AND seq = 2", (value, G))
    with SQLiteStore(built) as store, pytest.raises(IntegrityError) as caught:
        list(store.events(G))
    assert caught.value.seq == 2


def test_an_unreadable_node_row_is_an_integrity_error(
    built: Path, tamper: sqlite3.Connection
) -> None:
    tamper.execute("UPDATE nodes SET type = 'forged' WHERE graph = ? AND label = 'Use mTLS'", (G,))
    with SQLiteStore(built) as store, pytest.raises(IntegrityError, match="unreadable"):
        store.nodes(G, include_tombstoned=True)
