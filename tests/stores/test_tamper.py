"""Tampering with the tables behind the store's back is caught by ``verify``, on every SQL
backend.

Each test builds a small graph through the store, closes it, edits the tables with plain
SQL as an attacker (or a careless script) would (``raw_stores``: its own connection, the
store closed, as DuckDB's one-writer lock needs), reopens the store, and checks that
``decisis.stores.replay.verify`` fails and names the first bad ``seq`` wherever the chain
itself breaks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from decisis.errors import IntegrityError
from decisis.ledger import canonical_bytes, chain_checksum
from decisis.model import EventKind, format_time, utc_now
from decisis.stores.replay import VerifyReport, verify
from tests.stores.helpers import (
    G,
    add_edge,
    add_node,
    make_node,
    node_updated,
    superseded,
    tombstoned,
)
from tests.stores.raw_stores import RAW_BACKENDS, Opener, Raw

EVENTS = 7


@dataclass(frozen=True)
class Built:
    """A store holding the seven events, closed, and the raw SQL to edit it with."""

    name: str
    open: Opener
    raw: Raw

    def verify(self) -> VerifyReport:
        with self.open() as store:
            return verify(store, G)


@pytest.fixture(params=sorted(RAW_BACKENDS))
def built(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Built]:
    """Seven events: three nodes, an edge, an update, a supersession, a tombstone."""
    with RAW_BACKENDS[request.param](tmp_path) as (opener, raw, _):
        with opener() as store:
            a = add_node(store, label="Use JWT")
            b = add_node(store, label="Use sessions")
            c = add_node(store, label="Use mTLS")
            add_edge(store, a, c)
            store.append(G, [node_updated(a, label="Use JWT tokens")])
            store.append(G, [superseded(a, b)])
            store.append(G, [tombstoned(c)])
            assert store.head(G)[0] == EVENTS
            assert verify(store, G).ok
        yield Built(request.param, opener, raw)


def test_an_untouched_store_verifies(built: Built) -> None:
    report = built.verify()
    assert report.ok and report.events == EVENTS and report.first_bad_seq is None


def test_edited_ledger_payload(built: Built) -> None:
    [(payload,)] = built.raw("SELECT payload FROM ledger WHERE graph = %s AND seq = 2", (G,))
    edited = json.loads(payload)
    edited["node"]["label"] = "Use basic auth"
    built.raw(
        "UPDATE ledger SET payload = %s WHERE graph = %s AND seq = 2", (json.dumps(edited), G)
    )
    report = built.verify()
    assert not report.ok and report.first_bad_seq == 2


def test_deleted_ledger_row(built: Built) -> None:
    built.raw("DELETE FROM ledger WHERE graph = %s AND seq = 3", (G,))
    report = built.verify()
    assert not report.ok and report.first_bad_seq == 3  # the seq that went missing


def test_swapped_sequence_numbers(built: Built) -> None:
    built.raw("UPDATE ledger SET seq = -1 WHERE graph = %s AND seq = 3", (G,))
    built.raw("UPDATE ledger SET seq = 3 WHERE graph = %s AND seq = 4", (G,))
    built.raw("UPDATE ledger SET seq = 4 WHERE graph = %s AND seq = -1", (G,))
    report = built.verify()
    assert not report.ok and report.first_bad_seq == 3


def _forge(built: Built, *, sign: bool, move_head: bool = False) -> None:
    """Append a node.added row after the head; with ``sign`` its checksum is correct."""
    [(seq, prev)] = built.raw("SELECT seq, checksum FROM heads WHERE graph = %s", (G,))
    node = make_node("Forged decision")
    payload = {"node": node.to_dict()}
    when = utc_now()
    raw_bytes = canonical_bytes(G, seq + 1, EventKind.NODE_ADDED, node.id, payload, when)
    checksum = chain_checksum(raw_bytes, prev) if sign else "sha256:" + "f" * 64
    built.raw(
        'INSERT INTO ledger (graph, seq, kind, entity, payload, "at", prev_checksum, checksum)'
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (G, seq + 1, "node.added", node.id, json.dumps(payload), format_time(when), prev, checksum),
    )
    if move_head:
        built.raw(
            "UPDATE heads SET seq = %s, checksum = %s WHERE graph = %s", (seq + 1, checksum, G)
        )


def test_forged_row_with_a_bad_checksum(built: Built) -> None:
    _forge(built, sign=False)
    report = built.verify()
    assert not report.ok and report.first_bad_seq == EVENTS + 1


def test_forged_row_chained_correctly_but_past_the_head(built: Built) -> None:
    _forge(built, sign=True)
    report = built.verify()
    assert not report.ok and report.first_bad_seq == EVENTS + 1


def test_forged_row_with_head_moved_too(built: Built) -> None:
    """A forger who rewrites the head as well still cannot make the tables agree."""
    _forge(built, sign=True, move_head=True)
    report = built.verify()
    assert not report.ok
    assert any("missing from the table" in problem for problem in report.problems)


def test_node_label_edited_in_the_table(built: Built) -> None:
    built.raw(
        "UPDATE nodes SET label = 'Use basic auth' WHERE graph = %s AND label = 'Use sessions'",
        (G,),
    )
    report = built.verify()
    assert not report.ok and report.first_bad_seq is None  # the ledger is whole; the table lies
    assert any("label" in problem for problem in report.problems)


def test_node_deleted_from_the_table(built: Built) -> None:
    if built.name == "pg":  # its foreign keys refuse to delete a node an edge names
        import psycopg

        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            built.raw("DELETE FROM nodes WHERE graph = %s AND label = 'Use sessions'", (G,))
        assert built.verify().ok  # and nothing changed
        return
    built.raw("DELETE FROM nodes WHERE graph = %s AND label = 'Use sessions'", (G,))
    assert not built.verify().ok


def test_last_ledger_row_deleted(built: Built) -> None:
    built.raw("DELETE FROM ledger WHERE graph = %s AND seq = %s", (G, EVENTS))
    report = built.verify()
    assert not report.ok and report.first_bad_seq == EVENTS


def test_invalidation_marks_are_outside_the_chain_but_checked(built: Built) -> None:
    """Tombstoning marks earlier entries outside the checksum (the chain stays whole), so
    verify checks the marks against the ledger's tombstones: a rewritten reason is named."""
    marked = built.raw(
        "SELECT seq FROM ledger WHERE graph = %s AND invalidated_at IS NOT NULL ORDER BY seq", (G,)
    )
    assert [seq for (seq,) in marked] == [3]  # the tombstoned node's own node.added
    built.raw("UPDATE ledger SET invalidated_reason = 'rewritten' WHERE graph = %s", (G,))
    report = built.verify()
    assert not report.ok and report.first_bad_seq == 1  # every row was given a reason
    assert "tombstone mark" in report.problems[0] and "rewritten" in report.problems[0]


@pytest.mark.parametrize(
    ("column", "value"),
    [("payload", "{not json"), ("kind", "node.forged"), ('"at"', "not a time")],
)
def test_an_unreadable_ledger_row_is_an_integrity_error_naming_it(
    built: Built, column: str, value: str
) -> None:
    assert column in {"payload", "kind", '"at"'}  # a column name, never user data
    if built.name == "pg" and column != "kind":  # times are timestamptz, payloads JSON
        import psycopg

        with pytest.raises(psycopg.DataError):
            built.raw(f"UPDATE ledger SET {column} = %s WHERE graph = %s AND seq = 2", (value, G))
        assert built.verify().ok  # the column's type refused the text: nothing changed
        return
    built.raw(f"UPDATE ledger SET {column} = %s WHERE graph = %s AND seq = 2", (value, G))
    with built.open() as store, pytest.raises(IntegrityError) as caught:
        list(store.events(G))
    assert caught.value.seq == 2


def test_an_unreadable_node_row_is_an_integrity_error(built: Built) -> None:
    built.raw("UPDATE nodes SET type = 'forged' WHERE graph = %s AND label = 'Use mTLS'", (G,))
    with built.open() as store, pytest.raises(IntegrityError, match="unreadable"):
        store.nodes(G, include_tombstoned=True)
