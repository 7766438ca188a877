"""``graph.batch()`` on every backend: many writes, one append, all or nothing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis import EdgeType, EventKind, NodeStatus
from decisis.agent.tools import Toolbox
from decisis.model import Event, EventDraft
from decisis.stores import Store
from tests.stores.helpers import BACKENDS


class CountingStore:
    """A store that counts ``append`` calls and passes everything else through."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.appends: list[int] = []  # drafts per append call

    def append(
        self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
    ) -> list[Event]:
        self.appends.append(len(drafts))
        return self.inner.append(graph, drafts, after_seq=after_seq)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CountingStore]:
    opened = BACKENDS[request.param](tmp_path)
    try:
        yield CountingStore(opened)
    finally:
        opened.close()


@pytest.fixture
def graph(store: CountingStore) -> decisis.Graph:
    return decisis.Graph(store, "g", agent="tester")  # type: ignore[arg-type]


def test_a_block_lands_in_one_append_as_one_ledger_segment(
    graph: decisis.Graph, store: CountingStore
) -> None:
    stored = graph.record_decision("Keep sessions in memory")
    head = list(graph.events())[-1].seq
    store.appends.clear()
    with graph.batch() as batch:
        goal = batch.add_goal("Scale out")
        decision = batch.record_decision("Use Redis", goal=goal.id, rejected=["Sticky LB"])
        batch.link(goal.id, stored.id, EdgeType.INFLUENCED)
        batch.update(decision.id, confidence=0.8)
        batch.supersede(stored.id, decision.id, rationale="several servers")
        assert store.appends == []  # nothing lands before the block ends
        assert graph.nodes() == [stored]
    assert store.appends == [len(batch.written)] == [8]
    assert [e.seq for e in batch.written] == list(range(head + 1, head + 9))
    assert [e.kind for e in batch.written] == [
        EventKind.NODE_ADDED,  # goal
        EventKind.NODE_ADDED,  # decision
        EventKind.EDGE_ADDED,  # goal -> decision
        EventKind.NODE_ADDED,  # rejected option
        EventKind.EDGE_ADDED,  # decision -> option
        EventKind.EDGE_ADDED,  # goal -> stored
        EventKind.NODE_UPDATED,
        EventKind.SUPERSEDED,
    ]
    assert graph.get(decision.id).confidence == 0.8
    assert graph.get(stored.id).status is NodeStatus.SUPERSEDED
    assert graph.verify().ok


def test_an_exception_in_the_block_writes_nothing(
    graph: decisis.Graph, store: CountingStore
) -> None:
    stored = graph.add_goal("Ship")
    before = list(graph.events())
    with pytest.raises(RuntimeError, match="boom"), graph.batch() as batch:
        decision = batch.record_decision("Use OAuth", goal=stored.id)
        batch.update(stored.id, label="Ship it")
        raise RuntimeError("boom")
    assert store.appends == [1]  # only the add_goal above
    assert list(graph.events()) == before
    assert graph.get(stored.id).label == "Ship"
    with pytest.raises(decisis.NotFound):
        graph.get(decision.id)


def test_errors_raise_at_the_call_and_the_rest_of_the_block_lands(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Auth")
    gone = graph.record_decision("Old idea")
    graph.tombstone(gone.id, "recorded by mistake")
    with graph.batch() as batch:
        kept = batch.record_decision("Use passkeys", goal=goal.id)
        with pytest.raises(decisis.NotFound):
            batch.link(kept.id, "zzzzzzzzzzzz")
        with pytest.raises(decisis.InvalidInput, match="cannot update"):
            batch.update(kept.id, colour="red")
        with pytest.raises(decisis.Conflict, match="tombstoned"):  # a store rule, checked now
            batch.record_decision("Build on the old idea", goal=gone.id, chosen=["A"])
        with pytest.raises(decisis.Conflict, match="tombstoned"):
            batch.link(kept.id, gone.id)
        with pytest.raises(decisis.InvalidInput, match="itself"):
            batch.supersede(kept.id, kept.id)
        batch.link(kept.id, goal.id, EdgeType.INFLUENCED)
    labels = sorted(n.label for n in graph.nodes())
    assert labels == ["Auth", "Use passkeys"]  # the refused record_decision left nothing
    assert len(batch.written) == 3
    assert graph.verify().ok


def test_reads_know_the_batch_and_never_pretend(graph: decisis.Graph) -> None:
    stored = graph.record_decision("Postgres")
    with graph.batch() as batch:
        new = batch.record_decision("Postgres 16")
        batch.update(stored.id, rationale="the one we run")
        assert batch.get(new.id) == new
        assert batch.get(new.id[:-2]).id == new.id  # a prefix of an id made in the batch
        assert batch.get(stored.id).rationale == "the one we run"
        assert graph.get(stored.id).rationale is None  # the store still has the old one
        assert [n.id for n in batch.nodes()] == [stored.id]  # reads run in the store
        for read in (batch.children, batch.why, batch.history, batch.current):
            with pytest.raises(decisis.Conflict, match="added in this batch"):
                read(new.id)
        assert batch.children(stored.id) == []
    assert graph.get(stored.id).rationale == "the one we run"
    assert graph.current(stored.id).standing == [graph.get(stored.id)]


def test_short_ids_in_a_batch_are_the_ones_after_it_lands(graph: decisis.Graph) -> None:
    graph.add_goal("Stored")
    with graph.batch() as batch:
        made = [batch.add_goal(f"Goal {i}").id for i in range(5)]  # mostly in one millisecond
        short = batch.short_ids(made)
    assert short == graph.short_ids(made)
    for record_id, prefix in short.items():
        assert graph.resolve(prefix) == record_id


def test_a_nested_block_that_raises_drops_only_its_own_writes(graph: decisis.Graph) -> None:
    with graph.batch() as batch:
        kept = batch.add_goal("Kept")
        with pytest.raises(ValueError, match="inner"), batch.batch() as inner:
            dropped = inner.add_goal("Dropped")
            inner.link(kept.id, dropped.id)
            raise ValueError("inner")
        with pytest.raises(decisis.NotFound):
            batch.get(dropped.id)
        batch.record_decision("After", goal=kept.id)
    assert sorted(n.label for n in graph.nodes()) == ["After", "Kept"]
    assert len(batch.written) == 3


def test_a_batch_writes_only_inside_its_block(graph: decisis.Graph) -> None:
    batch = graph.batch()
    with pytest.raises(decisis.Conflict, match="not open"):
        batch.add_goal("Too early")
    with batch:
        batch.add_goal("In time")
    with pytest.raises(decisis.Conflict, match="ended"):
        batch.add_goal("Too late")
    with pytest.raises(decisis.Conflict, match="ended"), batch:
        pass
    assert [n.label for n in graph.nodes()] == ["In time"]


def test_an_empty_block_appends_nothing(graph: decisis.Graph, store: CountingStore) -> None:
    with graph.batch() as batch:
        pass
    assert store.appends == [] and batch.written == [] and list(graph.events()) == []


def test_a_read_only_view_opens_no_batch(graph: decisis.Graph) -> None:
    graph.add_goal("Ship")
    with pytest.raises(decisis.Conflict, match="read-only"):
        graph.at(decisis.model.utc_now()).batch()


def test_the_store_checks_again_when_the_batch_lands(graph: decisis.Graph) -> None:
    a = graph.record_decision("A")
    b = graph.record_decision("B")
    graph.supersede(a.id, b.id)
    before = list(graph.events())
    # b already replaced a through a stored link the batch never read: the store refuses
    with pytest.raises(decisis.CycleError), graph.batch() as batch:
        batch.add_goal("Lost with the batch")
        batch.supersede(b.id, a.id)
    assert list(graph.events()) == before
    assert batch.written == []


def test_an_import_in_a_batch_lands_with_the_other_writes(graph: decisis.Graph) -> None:
    source = decisis.open("memory://", graph="source")
    goal = source.add_goal("Imported")
    source.record_decision("Imported too", goal=goal.id)
    with graph.batch() as batch:
        assert batch.import_(source.export()) == 3
        batch.record_decision("Local", goal=goal.id)  # links to a node the import added
    assert sorted(n.label for n in graph.nodes()) == ["Imported", "Imported too", "Local"]
    assert graph.verify().ok


def test_batch_is_a_graph_so_graph_code_writes_into_it(graph: decisis.Graph) -> None:
    with graph.batch() as batch:
        assert type(batch) is decisis.Graph  # over a buffered writer, not a subclass
        assert batch.batch() is batch
        assert "0 changes" in repr(batch)


def test_a_failed_supersede_tool_call_records_no_orphan_decision(graph: decisis.Graph) -> None:
    box = Toolbox(graph)
    old = graph.record_decision("Use MySQL")
    graph.tombstone(old.id, "wrong graph")
    result = box.call("supersede_decision", {"old_id": old.id, "new_label": "Use Postgres"})
    assert result.is_error and "tombstoned" in result.text
    assert [n.label for n in graph.nodes()] == []  # the new decision did not land alone
    live = graph.record_decision("Use SQLite")
    result = box.call("supersede_decision", {"old_id": live.id, "new_label": "Use Postgres"})
    assert not result.is_error, result.text
    assert result.data["superseded"]["status"] == "superseded"
    assert graph.current(live.id).standing[0].label == "Use Postgres"
