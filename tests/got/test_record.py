"""A reasoning run kept on record: thoughts in a real SQLite ledger that verifies."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.got import CallModel, EdgeKind, Machine
from decisis.got.record import EDGE_TYPES, record_thoughts
from decisis.got.scripted import drive, sorting_answer
from decisis.model import Event, EventDraft
from decisis.stores import Store, open_store


def test_a_run_is_in_the_ledger_and_the_ledger_verifies(tmp_path: Path) -> None:
    machine = drive(
        Machine(task="sort", aggregation_strategy="synthesis"), "[5, 3, 9, 1]", sorting_answer()
    )
    url = f"sqlite:///{tmp_path / 'thoughts.db'}"
    with decisis.open(url, graph="reasoning") as graph:
        ids = record_thoughts(graph, machine)
    with decisis.open(url, graph="reasoning") as graph:
        report = graph.verify()
        assert report.ok
        nodes = {n.id: n for n in graph.nodes()}
        assert set(nodes) == set(ids.values())
        root = nodes[ids[0]]
        assert root.type == "goal" and root.label == "[5, 3, 9, 1]"
        summary = root.metadata["got"]["run_summary"]
        assert summary["termination"] == "success" and summary["usage"]["calls"] == 5
        assert machine.result is not None
        best = nodes[ids[machine.result.id]]
        assert best.metadata["got"]["best"] is True and best.label == "[1, 3, 5, 9]"
        edges = graph.edges()
        assert len(edges) == len(machine.get_edges())
        kinds = sorted((e.type, e.metadata["got_kind"]) for e in edges)
        expected = sorted((EDGE_TYPES[e.kind].value, e.kind.value) for e in machine.get_edges())
        assert kinds == expected
        why = {reached.node.id for reached in graph.ancestors(best.id)}
        assert ids[0] in why  # the path from the prompt to the answer is walkable


def test_connections_and_long_thoughts_are_kept(tmp_path: Path) -> None:
    long_idea = "x" * 800

    def answer(call: CallModel) -> str:
        if call.purpose == "connect":
            return "[[0, 1]]"
        return "7" if call.purpose == "score" else long_idea + call.call_id

    machine = drive(Machine(), "q", answer)
    assert any(e.kind is EdgeKind.CONNECTS for e in machine.get_edges())
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as graph:
        ids = record_thoughts(graph, machine)
        node = graph.get(ids[1])
        assert len(node.label) == 500 and node.rationale == long_idea + "run/0"
        assert node.confidence == 0.7
        assert graph.verify().ok
        influenced = [e for e in graph.edges() if e.metadata["got_kind"] == "connects"]
        assert [e.type for e in influenced] == ["influenced"]


def test_a_failed_run_is_recorded_with_its_reason() -> None:
    machine = drive(Machine(), "q", lambda call: "not a score" if call.purpose == "score" else "t")
    assert machine.status() == "error"
    with decisis.open("memory://") as graph:
        ids = record_thoughts(graph, machine)
        summary = graph.get(ids[0]).metadata["got"]["run_summary"]
        assert summary["status"] == "error" and "malformed score reply" in summary["error"]


def test_a_run_lands_in_one_append_as_one_stretch_of_the_ledger(tmp_path: Path) -> None:
    machine = drive(Machine(), "q", lambda call: "7" if call.purpose == "score" else "t")
    appends: list[int] = []

    class Counting:  # the store, counting its appends
        def __init__(self, inner: Store) -> None:
            self.inner = inner

        def append(
            self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
        ) -> list[Event]:
            appends.append(len(drafts))
            return self.inner.append(graph, drafts, after_seq=after_seq)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    with open_store(f"sqlite:///{tmp_path / 'g.db'}") as store:
        graph = decisis.Graph(Counting(store), "g")  # type: ignore[arg-type]
        graph.add_goal("already there")
        record_thoughts(graph, machine)
        records = len(machine.get_nodes()) + len(machine.get_edges())
        assert appends == [1, records]
        assert [e.seq for e in graph.events()] == list(range(1, 2 + records))
        assert graph.verify().ok


def test_a_run_refused_part_way_writes_nothing(tmp_path: Path) -> None:
    data = drive(Machine(), "q", lambda call: "7" if call.purpose == "score" else "t").to_map()
    data["nodes"][3]["metadata"] = {"bad": float("nan")}  # not JSON: refused as a node
    machine = Machine.from_map(data)
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as graph:
        graph.add_goal("already there")
        before = list(graph.events())
        with pytest.raises(decisis.InvalidInput, match="metadata"):
            record_thoughts(graph, machine)
        assert list(graph.events()) == before
        assert [n.label for n in graph.nodes()] == ["already there"]
        assert graph.verify().ok
