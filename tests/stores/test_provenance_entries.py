"""``provenance.recorded``: an entry about a node or edge is a ledger event of its own that
every backend keeps, refuses alike and reads back through ``history``; it changes no table,
so verify, replay and a tombstone's marks treat it as any other entry about the record."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.errors import Conflict, InvalidInput, NotFound
from decisis.model import EventKind, Provenance
from decisis.model import events as drafts
from decisis.model.provenance import provenance_payload
from decisis.stores import Store, open_store
from decisis.stores.replay import snapshot, verify
from tests.stores.helpers import (
    G,
    at,
    edge_added,
    fingerprint,
    make_edge,
    make_node,
    node_added,
    raw_draft,
    tombstoned,
)


def _entry(entity: str, minutes: float = 5, **fields: Any) -> Any:
    values: dict[str, Any] = {"agent": "alice", "agent_type": "person", "role": "author"}
    payload = provenance_payload(entity, "review", **(values | fields))
    return drafts.provenance_recorded(payload, at(minutes))


def _two_records(store: Store) -> tuple[str, str]:
    a, b = make_node("a", when=at(0)), make_node("b", when=at(0))
    edge = make_edge(a, b, when=at(0))
    store.append(G, [node_added(a), node_added(b), edge_added(edge)])
    return a.id, edge.id


def test_entries_about_a_node_and_an_edge_are_read_back_and_change_no_table(store: Store) -> None:
    node, edge = _two_records(store)
    tables = (store.nodes(G, include_tombstoned=True), store.edges(G, include_tombstoned=True))
    full = {
        "source": "docs/adr/0001.md",
        "source_blob": "a" * 40,
        "source_commit": "b" * 40,
        "confidence": 0.8,
        "started_at": at(1),
        "ended_at": at(2),
        "outcome": "accepted",
        "error": "none worth naming",
    }
    written = store.append(G, [_entry(node, **full), _entry(edge, agent_type="organization")])
    assert [e.kind for e in written] == [EventKind.PROVENANCE] * 2
    assert [e.entity for e in written] == [node, edge]
    assert (
        store.nodes(G, include_tombstoned=True),
        store.edges(G, include_tombstoned=True),
    ) == tables
    [event] = [e for e in store.history(G, node) if e.kind is EventKind.PROVENANCE]
    entry = Provenance.from_payload(event.payload, event.at, event.seq)
    assert entry.seq == 4 and entry.recorded_at == at(5)
    assert (entry.activity, entry.agent, entry.role) == ("review", "alice", "author")
    assert entry.agent_type is not None and entry.agent_type.value == "person"
    assert (entry.source_blob, entry.source_commit) == ("a" * 40, "b" * 40)
    assert (entry.confidence, entry.started_at, entry.ended_at) == (0.8, at(1), at(2))
    assert entry.outcome == "accepted" and entry.error == "none worth naming"
    assert [e.kind for e in store.history(G, edge)][-1] is EventKind.PROVENANCE
    assert verify(store, G).ok
    view = snapshot(store.events(G), G)
    assert [e.payload for e in view.history(G, node)] == [e.payload for e in store.history(G, node)]
    assert verify(view, G).ok


BAD: list[tuple[str, dict[str, Any], str]] = [
    ("agent_type", {"agent_type": "robot"}, "person, software_agent"),
    ("agent_type", {"agent_type": "Person"}, "organization"),
    ("confidence", {"confidence": 1.5}, "0.0 to 1.0"),
    ("confidence", {"confidence": True}, "0.0 to 1.0"),
    ("confidence", {"confidence": None}, "0.0 to 1.0"),
    ("ended_at", {"started_at": "2026-01-02T00:00:00Z", "ended_at": "2026-01-01T00:00:00Z"}, ""),
    ("started_at", {"started_at": "yesterday"}, ""),
    ("source_blob", {"source_blob": "xyz"}, "hex digits"),
    ("activity", {"activity": "  "}, "1 to 200"),
    ("activity", {"activity": 5}, ""),
    ("role", {"role": "r" * 201}, "at most 200"),
    ("confidance", {"confidance": 0.5}, "confidence"),
]


@pytest.mark.parametrize(("field", "change", "allowed"), BAD)
def test_a_bad_entry_is_refused_alike_and_loses_nothing(
    store: Store, field: str, change: dict[str, Any], allowed: str
) -> None:
    node, _ = _two_records(store)
    before = fingerprint(store)
    payload = {"entity": node, "activity": "review", "agent": "alice"} | change
    with pytest.raises(InvalidInput) as caught:
        store.append(G, [raw_draft(EventKind.PROVENANCE, node, payload)])
    assert caught.value.field == f"payload.{field}"
    assert allowed in str(caught.value)
    assert fingerprint(store) == before


def test_an_entry_about_no_record_or_a_tombstoned_one_or_filed_elsewhere_is_refused(
    store: Store,
) -> None:
    node, edge = _two_records(store)
    other = make_node("other", when=at(0))
    store.append(G, [node_added(other), tombstoned(edge, target="edge")])
    before = fingerprint(store)
    missing = make_node("never stored").id
    with pytest.raises(NotFound, match=missing):
        store.append(G, [_entry(missing)])
    with pytest.raises(Conflict, match="tombstoned"):
        store.append(G, [_entry(edge)])
    payload = provenance_payload(node, "review")
    with pytest.raises(InvalidInput) as caught:  # filed under another record than it names
        store.append(G, [raw_draft(EventKind.PROVENANCE, other.id, payload)])
    assert caught.value.field == "entity"
    assert fingerprint(store) == before


def test_a_tombstone_marks_the_records_entries_and_verify_agrees(store: Store) -> None:
    node, _ = _two_records(store)
    store.append(G, [_entry(node), _entry(node, 6, outcome="again")])
    store.append(G, [tombstoned(node, reason="made up")])
    entries = [e for e in store.history(G, node) if e.kind is EventKind.PROVENANCE]
    assert [e.invalidated_reason for e in entries] == ["made up", "made up"]
    assert verify(store, G).ok


def test_an_entry_in_the_same_append_as_its_record(store: Store) -> None:
    """The recorder and ingest write the record and its entry together."""
    node = make_node("run", when=at(0))
    store.append(G, [node_added(node), _entry(node.id, agent_type="software_agent")])
    assert [e.kind for e in store.history(G, node.id)] == [
        EventKind.NODE_ADDED,
        EventKind.PROVENANCE,
    ]
    assert verify(store, G).ok


def test_a_store_written_before_entries_existed_opens_and_answers(tmp_path: Path) -> None:
    """A SQLite file holding only the kinds decisis wrote before reads as it did: no
    entries, verify passes; then takes entries, and verify still passes on reopening."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with open_store(url) as old:
        node, _ = _two_records(old)
        old.append(G, [tombstoned(make_node_in(old), reason="x")])
    with open_store(url) as reopened:
        kinds = {e.kind for e in reopened.events(G)}
        assert EventKind.PROVENANCE not in kinds
        assert [e for e in reopened.history(G, node) if e.kind is EventKind.PROVENANCE] == []
        assert verify(reopened, G).ok
        reopened.append(G, [_entry(node)])
    with open_store(url) as again:
        assert verify(again, G).ok
        assert [e.kind for e in again.history(G, node)][-1] is EventKind.PROVENANCE


def make_node_in(store: Store) -> str:
    node = make_node("to be tombstoned", when=at(0))
    store.append(G, [node_added(node)])
    return node.id


FIXTURE = Path(__file__).parent / "data" / "before-provenance.db"


def test_a_sqlite_file_made_by_decisis_before_entries_reads_unchanged(tmp_path: Path) -> None:
    """``data/before-provenance.db`` was written by decisis main at 54d6da4, before this
    event kind: a goal, a supersession, a tombstone and a recorded run. It opens, verifies,
    has no entries, exports its old run as a PROV activity, and takes entries after."""
    path = tmp_path / "old.db"
    shutil.copyfile(FIXTURE, path)
    with decisis.open(f"sqlite:///{path}") as graph:
        assert graph.verify().ok
        assert {e.kind for e in graph.events()} <= {
            EventKind.NODE_ADDED,
            EventKind.EDGE_ADDED,
            EventKind.SUPERSEDED,
            EventKind.TOMBSTONED,
        }
        nodes = graph.nodes(include_tombstoned=True)
        assert len(nodes) == 5 and all(graph.provenance(n.id) == [] for n in nodes)
        [run] = [n for n in nodes if n.metadata.get("kind") == "agent-run"]
        assert f"urn:decisis:default:run:{run.id}" in graph.export("prov-turtle")
        graph.record_provenance(run.id, "review", agent="alice", agent_type="person")
        assert [e.agent for e in graph.provenance(run.id)] == ["alice"]
        assert graph.verify().ok
