"""Ingest: records into nodes, proposed links into supersedes edges, idempotent, on both stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.adr.link.ingest import adr_links, ingest, record_nodes
from decisis.model import LinkState, Node, NodeStatus
from tests.stores.helpers import BACKENDS


@pytest.fixture(params=["memory", "sqlite"])
def graph(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[decisis.Graph]:
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'g.db'}"
    with decisis.open(url) as g:
        yield g


RECORD = """# {n}. {title}

Date: 2020-0{n}-01

## Status

{status}

## Context

{context}

## Decision

{decision}
"""


def _write(
    folder: Path,
    n: int,
    title: str,
    decision: str,
    status: str = "Accepted",
    context: str = "We need to choose.",
) -> Path:
    path = folder / f"{n:03d}-{title.lower().replace(' ', '-')}.md"
    path.write_text(
        RECORD.format(n=n, title=title, status=status, context=context, decision=decision),
        encoding="utf-8",
    )
    return path


def test_corpus_ingests_with_stated_links_and_is_idempotent(
    graph: decisis.Graph, corpus: Path
) -> None:
    report = ingest(graph, corpus)
    assert len(report.added) == 132 and report.problems == []
    nodes = record_nodes(graph)
    assert nodes["cloud-platform:012"].metadata["date"] == "2019-06-01"
    links = {
        (e.metadata["old"], e.metadata["new"], e.metadata["rule"]): e for e in adr_links(graph)
    }
    stated = links[("cloud-platform:021", "cloud-platform:036", "status-line")]
    assert stated.state is LinkState.STATED
    seq, _ = graph.store.head(graph.name)
    again = ingest(graph, corpus)
    assert again.added == [] and again.links_added == 0 and len(again.unchanged) == 132
    assert graph.store.head(graph.name)[0] == seq
    assert graph.verify().ok


def test_a_link_stored_without_what_it_replaced_gets_it_once(
    graph: decisis.Graph, tmp_path: Path
) -> None:
    """Stores from before links kept their ``named`` subject: the next ingest adds it, in one
    event a link, and the one after adds nothing."""
    team = tmp_path / "team"
    team.mkdir()
    for n in range(1, 13):
        _write(team, n, f"Note {n}", f"Nothing about tools in note {n}.")
    _write(team, 20, "Use Jenkins", "Jenkins runs builds. Jenkins agents. Jenkins jobs.")
    _write(team, 21, "Hosted runners", "We will decommission our Jenkins servers next year.")
    ingest(graph, team)
    link = next(e for e in adr_links(graph) if e.metadata["rule"] == "names-replaced")
    assert link.metadata["named"] == ["jenkin"]
    old = {k: v for k, v in link.metadata.items() if k != "named"}
    graph.update_edge(link.id, metadata=old)
    seq, _ = graph.store.head(graph.name)
    ingest(graph, team)
    assert graph.store.head(graph.name)[0] == seq + 1
    assert graph.get_edge(link.id).metadata["named"] == ["jenkin"]
    ingest(graph, team)
    assert graph.store.head(graph.name)[0] == seq + 1
    assert graph.verify().ok


def test_changed_record_is_one_update_and_bad_file_is_skipped(
    graph: decisis.Graph, tmp_path: Path
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    _write(team, 1, "Use Postgres", "We will use Postgres for storage.")
    path = _write(team, 2, "Use Redis", "We will use Redis for caching.")
    (team / "003-broken.md").write_bytes(b"\x00\x01\x02binary")
    first = ingest(graph, team)
    assert sorted(first.added) == ["team:001", "team:002"]
    assert [p.path.name for p in first.problems] == ["003-broken.md"]
    seq = graph.store.head(graph.name)[0]
    path.write_text(path.read_text().replace("caching", "sessions"), encoding="utf-8")
    second = ingest(graph, team)
    assert second.updated == ["team:002"]
    # the update and its provenance entry
    kinds = [e.kind.value for e in graph.events(after_seq=seq)]
    assert kinds == ["node.updated", "provenance.recorded"]


def test_a_record_read_differently_is_updated_once_and_a_moved_folder_is_not(
    graph: decisis.Graph, tmp_path: Path
) -> None:
    """A file that did not change but that a newer decisis reads differently (a better
    summary) is one update, so the stored record matches its file again; the same folder
    ingested from another path changes nothing."""
    team = tmp_path / "team"
    team.mkdir()
    _write(team, 1, "Use Postgres", "We will use Postgres for storage.")
    ingest(graph, team)
    node = record_nodes(graph)["team:001"]
    older = {**node.metadata, "summary": "What an older reader took for the decision."}
    graph.update(node.id, metadata=older, rationale="An older reading.")
    seq = graph.store.head(graph.name)[0]
    again = ingest(graph, team)
    assert again.updated == ["team:001"] and graph.store.head(graph.name)[0] == seq + 2
    assert [p.outcome for p in graph.provenance(node.id)] == ["added", "updated"]
    node = record_nodes(graph)["team:001"]
    assert node.metadata["summary"] == "We will use Postgres for storage."
    assert node.rationale == "We will use Postgres for storage."
    moved = tmp_path / "elsewhere" / "team"
    moved.parent.mkdir()
    team.rename(moved)
    third = ingest(graph, moved)
    assert third.updated == [] and len(third.unchanged) == 1
    assert graph.store.head(graph.name)[0] == seq + 2


def test_proposed_links_keep_status_and_may_form_cycles(
    graph: decisis.Graph, tmp_path: Path
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    _write(
        team,
        1,
        "Queue with RabbitMQ",
        "We will run RabbitMQ. See ADR 2.",
        context="Messaging between services with RabbitMQ queues, RabbitMQ brokers.",
    )
    _write(
        team,
        2,
        "Queue with Kafka",
        "We replace RabbitMQ with Kafka; ADR 1 is superseded.",
        status="Accepted (replaces ADR 1)",
    )
    ingest(graph, team)
    nodes = record_nodes(graph)
    assert all(n.status is NodeStatus.ACTIVE for n in nodes.values())
    assert any(
        e.metadata["old"] == "team:001" and e.metadata["new"] == "team:002"
        for e in adr_links(graph)
    )


def test_two_ingests_of_one_folder_at_once_add_each_record_once(tmp_path: Path) -> None:
    """Another process ingests the same folder into the same SQLite file after this ingest
    read the graph and before it writes: the write is refused (the head moved), the graph
    is read again, and every record is in it once, not twice."""
    team = tmp_path / "team"
    team.mkdir()
    _write(team, 1, "Use Postgres", "We will use Postgres for storage.")
    _write(team, 2, "Use Redis", "We will use Redis for caching.")
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with decisis.open(url) as mine, decisis.open(url) as theirs:
        read_nodes = mine.store.nodes
        raced = []

        def nodes_then_another_ingest(graph: str, **kwargs: Any) -> list[Node]:
            found = read_nodes(graph, **kwargs)
            if not raced:  # once: the other process writes right after this read
                raced.append(ingest(theirs, team))
            return found

        mine.store.nodes = nodes_then_another_ingest  # type: ignore[method-assign]
        report = ingest(mine, team)
        assert sorted(raced[0].added) == ["team:001", "team:002"]
        keys = [n.metadata["key"] for n in read_nodes(mine.name) if n.metadata.get("kind") == "adr"]
        assert sorted(keys) == ["team:001", "team:002"] and mine.verify().ok
        assert report.added == [] and sorted(report.unchanged) == ["team:001", "team:002"]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_the_corpus_ingests_once_on_every_backend(
    backend: str, corpus: Path, tmp_path: Path
) -> None:
    """A second ingest of the same records adds, updates and links nothing on every store:
    the records' fields read back from each backend compare equal to a new reading (a
    backend returning metadata in another shape would update every record every time)."""
    graph = decisis.Graph(BACKENDS[backend](tmp_path), "adr")
    try:
        first = ingest(graph, corpus)
        again = ingest(graph, corpus)
    finally:
        graph.store.close()
    assert len(first.added) == 132
    assert (again.added, again.updated, again.links_added, len(again.unchanged)) == (
        [],
        [],
        0,
        132,
    )
