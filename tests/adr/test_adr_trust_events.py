"""Corrections move trust with one ``rule.trusted`` event per rule, in the correction's own
append; answers walk links fetched from the store and match the walk over the whole view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.adr.answer import DEFAULT_SETTINGS, consider, decide
from decisis.adr.learn.corrections import correct, undo
from decisis.adr.learn.learned import learned
from decisis.adr.link.ingest import ingest
from decisis.adr.link.trust import rule_trust
from decisis.adr.link.view import view_of
from decisis.evaluation import load_questions
from decisis.graph import Graph
from decisis.model import EdgeType, Event, EventDraft, EventKind, LinkState
from decisis.stores import Store
from decisis.stores.memory import MemoryStore

QUESTION = "Does the Puppetmaster use a local PostgreSQL database or an RDS instance?"
KEY = "govuk-aws:0008"  # the record that stands: later database records are rejected as its heirs


class CountingStore:
    """A memory store that counts appends (one append is one transaction)."""

    def __init__(self) -> None:
        self.inner = MemoryStore()
        self.appends: list[list[Event]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def append(
        self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
    ) -> list[Event]:
        events = self.inner.append(graph, drafts, after_seq=after_seq)
        self.appends.append(events)
        return events


@pytest.fixture
def counted(corpus: Path) -> tuple[Graph, CountingStore]:
    store = CountingStore()
    graph = Graph(store)  # the protocol, by delegation
    ingest(graph, corpus)
    store.appends.clear()
    return graph, store


def _unjudged(graph: Graph) -> dict[str, float | None]:
    return {
        e.id: e.confidence
        for e in graph.edges(types=[EdgeType.SUPERSEDES])
        if e.state is LinkState.CANDIDATE and e.metadata.get("rule") is not None
    }


def _agree_with_trust(graph: Graph) -> None:
    trust = rule_trust(graph)
    for edge in graph.edges(types=[EdgeType.SUPERSEDES]):
        rule = edge.metadata.get("rule")
        if edge.state is LinkState.CANDIDATE and isinstance(rule, str):
            assert edge.confidence == pytest.approx(trust[rule].mean, abs=1e-6), rule


def test_a_correction_moves_trust_in_its_own_append(counted: tuple[Graph, CountingStore]) -> None:
    graph, store = counted
    trust_before, unjudged_before = rule_trust(graph), _unjudged(graph)
    done = correct(graph, QUESTION, KEY)
    assert done.rejected and len(store.appends) == 1
    [events] = store.appends
    moved = {e.payload["rule"]: e.payload for e in events if e.kind is EventKind.RULE_TRUSTED}
    trust_after = rule_trust(graph)
    assert moved and set(moved) == {r for r, t in trust_after.items() if trust_before.get(r) != t}
    for rule, payload in moved.items():
        assert (payload["successes"], payload["failures"]) == (
            trust_after[rule].successes,
            trust_after[rule].failures,
        )
        assert payload["confidence"] == round(trust_after[rule].mean, 6)
    assert events[-len(moved) :] == [e for e in events if e.kind is EventKind.RULE_TRUSTED]
    per_link = [e for e in events if e.kind is EventKind.EDGE_UPDATED]
    assert all("state" in e.payload["changes"] for e in per_link)  # no confidence-only writes
    _agree_with_trust(graph)
    assert graph.verify().ok

    store.appends.clear()
    undo(graph, QUESTION)
    assert len(store.appends) == 1
    assert rule_trust(graph) == trust_before
    assert _unjudged(graph) == pytest.approx(unjudged_before, abs=1e-6)
    assert graph.verify().ok


def test_learned_names_the_correction_that_moved_each_trust(
    counted: tuple[Graph, CountingStore],
) -> None:
    graph, _ = counted
    correct(graph, QUESTION, KEY)
    rules = learned(graph)["rules"]
    moved = {name: rule["moves"] for name, rule in rules.items() if rule["moves"]}
    assert moved
    for name, moves in moved.items():
        [move] = moves
        assert move["by"] == QUESTION and not move["undone"]
        assert move["trust"] == rules[name]["trust"]
    undo(graph, QUESTION)
    for name, rule in learned(graph)["rules"].items():
        if name in moved:
            assert [m["undone"] for m in rule["moves"]] == [False, True]
            assert rule["moves"][-1]["by"] == QUESTION


def test_walking_the_store_region_answers_as_the_whole_view(corpus: Path) -> None:
    questions = load_questions(corpus.parent / "questions-dev.jsonl")
    random.Random(3).shuffle(questions)
    with decisis.open("memory://") as graph:
        ingest(graph, corpus)
        walked = 0
        for q in questions[:20]:
            view = view_of(graph)
            found = consider(graph, view, q.question, DEFAULT_SETTINGS)
            from_store = decide(view, found, DEFAULT_SETTINGS, graph=graph)
            assert from_store == decide(view, found, DEFAULT_SETTINGS), q.id
            walked += len(from_store.chain) > 1
            correct(graph, q.question, q.expected)
        assert walked  # some answers did move along links


def test_the_region_holds_the_links_a_walk_may_take(corpus: Path) -> None:
    from decisis.adr.answer.walk import WALK_THRESHOLD, region

    with decisis.open("memory://") as graph:
        ingest(graph, corpus)
        view = view_of(graph)
        store: Store = graph.store
        for key in view.successors:
            links = region(graph, view, key, WALK_THRESHOLD)
            every = store.supersession_region(graph.name, view.records[key].id)
            assert {e.id for es in links.values() for e in es} <= {e.id for e in every}
            for edge in view.successors[key]:
                believable = edge.state in (LinkState.STATED, LinkState.CONFIRMED) or (
                    (edge.confidence or 0.0) >= WALK_THRESHOLD
                    and all(
                        e.state is not LinkState.REJECTED
                        for e in view.successors[key]
                        if e.source == edge.source
                    )
                )
                if believable:
                    assert edge in links.get(key, []), (key, edge.metadata)


def test_two_corrections_at_once_both_move_their_rules_trust(corpus: Path, tmp_path: Path) -> None:
    """Another process corrects a question just before this correction writes: this one's
    trust was worked out from counts that are now stale, so its write is refused (the head
    moved) and it is worked out again. Without the check, it wrote the trust of one move
    onto the rule's unjudged links (0.667 where both moves give 0.714), and walks read it."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with decisis.open(url) as graph:
        ingest(graph, corpus)
        before = rule_trust(graph)["names-replaced"]
    with decisis.open(url) as mine, decisis.open(url) as theirs:
        write = mine.store.append
        raced: list[object] = []

        def another_correction_then_append(graph: str, drafts: Any, **kwargs: Any) -> Any:
            if not raced:  # once: the other process writes right before this write
                logs = "Do we use the AWS hosted Elasticsearch cluster for application logs?"
                raced.append(correct(theirs, logs, "cloud-platform:023"))
            return write(graph, drafts, **kwargs)

        mine.store.append = another_correction_then_append  # type: ignore[method-assign]
        ci = "Should I write our new infrastructure deployment pipeline as a Concourse CI pipeline?"
        done = correct(mine, ci, "cloud-platform:040")
        after = rule_trust(mine)["names-replaced"]
        assert raced and done.confirmed
        assert (after.successes, after.failures) == (before.successes + 2, before.failures)
        _agree_with_trust(mine)  # every unjudged link of the rule carries the trust of both
        assert mine.verify().ok


def test_undo_reports_the_judgements_it_reversed(counted: tuple[Graph, CountingStore]) -> None:
    graph, _ = counted
    done = correct(graph, QUESTION, KEY)
    assert done.rejected
    undone = undo(graph, QUESTION)
    reversed_ = {edge: (was, now) for edge, was, now in undone.restored}
    assert set(reversed_) == set(done.rejected) | set(done.confirmed)
    assert all(was == "rejected" for edge, (was, _) in reversed_.items() if edge in done.rejected)
    assert all(graph.get_edge(edge).state.value == now for edge, (_, now) in reversed_.items())
    assert undone.withdrawn == done.proposed
    shown = undone.to_dict()
    assert len(shown["restored"]) == len(reversed_) and shown["withdrawn"] == undone.withdrawn
