"""A view rebuilt from the one before it, reading only what the ledger changed, is the view a
full read gives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import decisis
from decisis.adr.learn.corrections import correct, undo
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import AdrView, build_view
from decisis.search.terms import TermIndex
from tests.stores.postgres.server import drop_schema, new_schema, schema_url

CORPUS = Path(__file__).resolve().parents[2] / "data" / "adr-corpus"

RECORD = """# {n}. {title}

Date: 2021-0{n}-01

## Status

{status}

## Context

{context}

## Decision

{decision}
"""


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def graph(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[decisis.Graph]:
    if request.param != "postgres":
        url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'g.db'}"
        with decisis.open(url) as g:
            yield g
        return
    schema = new_schema()
    try:
        with decisis.open(schema_url(schema)) as g:
            yield g
    finally:
        drop_schema(schema)


def _write(folder: Path, n: int, title: str, status: str, context: str, decision: str) -> None:
    text = RECORD.format(n=n, title=title, status=status, context=context, decision=decision)
    (folder / f"{n:04d}-{title.lower().replace(' ', '-')}.md").write_text(text, encoding="utf-8")


def _same_index(a: TermIndex, b: TermIndex) -> None:
    assert a.docs == b.docs and a.positions == b.positions and a.lengths == b.lengths
    assert [list(v.items()) for v in a.vectors] == [list(v.items()) for v in b.vectors]
    assert dict(a.postings) == dict(b.postings)


def _same(patched: AdrView, full: AdrView) -> None:
    assert patched.head == full.head
    assert list(patched.records.items()) == list(full.records.items())
    assert patched.key_of == full.key_of
    assert patched.links == full.links
    assert patched.trust == full.trust
    assert patched.questions == full.questions
    assert patched.successors == full.successors
    _same_index(patched.index, full.index)
    _same_index(patched.question_index, full.question_index)


def test_each_change_read_from_the_ledger_gives_the_full_view(
    graph: decisis.Graph, tmp_path: Path
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    _write(team, 1, "Use Kafka", "Accepted", "We need a queue.", "We will use Kafka for events.")
    _write(team, 2, "Use Redis", "Accepted", "We need a cache.", "We will run Redis ourselves.")
    ingest(graph, CORPUS, team)
    question = "Should I run my own Redis servers?"
    steps: list[Callable[[], object]] = [
        lambda: correct(graph, question, "team:0002"),
        lambda: correct(graph, "Which message queue do we use?", None),
        lambda: correct(
            graph, "Is each business unit given its own cluster?", "cloud-platform:048"
        ),
        lambda: undo(graph, question),
        lambda: _write(
            team,
            3,
            "Use ElastiCache",
            "Accepted",
            "Redis by hand is toil.",
            "We use ElastiCache instead of running Redis (supersedes [2](0002-use-redis.md)).",
        ),
        lambda: ingest(graph, team),
        (team / "0001-use-kafka.md").unlink,
        lambda: ingest(graph, team),
    ]
    view = build_view(graph)
    patched_once = False
    for step in steps:
        step()
        rebuilt = build_view(graph, view)
        _same(rebuilt, build_view(graph))
        # records nobody changed are the previous view's own nodes, not read again
        kept = [k for k in rebuilt.records if rebuilt.records[k] is view.records.get(k)]
        patched_once |= len(kept) > 100
        view = rebuilt
    assert patched_once


def test_a_correction_is_read_without_reading_every_record(
    graph: decisis.Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest(graph, CORPUS)
    view = build_view(graph)
    correct(graph, "Does each business unit get its own cluster now?", "cloud-platform:048")
    reads: list[object] = []
    nodes = graph.nodes

    def counted(**filters: object) -> list[decisis.Node]:
        reads.append(filters)
        return nodes(**filters)  # type: ignore[arg-type]

    monkeypatch.setattr(graph, "nodes", counted)
    rebuilt = build_view(graph, view)
    assert reads == []
    assert any(q.label.startswith("Does each business unit") for q in rebuilt.questions)
    monkeypatch.undo()
    _same(rebuilt, build_view(graph))


def test_a_ledger_that_does_not_go_on_from_the_view_is_read_in_full(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    _write(team, 1, "Use Kafka", "Accepted", "We need a queue.", "We will use Kafka for events.")
    with decisis.open("memory://") as first:
        ingest(first, team)
        old = build_view(first)
    other = tmp_path / "other"
    other.mkdir()
    _write(other, 1, "Use Redis", "Accepted", "We need a cache.", "We will run Redis ourselves.")
    _write(other, 2, "Use Kafka", "Accepted", "We need a queue.", "We will use Kafka.")
    with decisis.open("memory://") as second:  # another store, its ledger longer than the first
        ingest(second, other)
        correct(second, "Which queue?", "other:0002")
        rebuilt = build_view(second, old)
        _same(rebuilt, build_view(second))
    assert "team:0001" not in rebuilt.records
