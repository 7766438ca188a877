"""A record's sections as passages: a record that decides many things is also scored by the
section a question is about (``decisis.adr.answer.passages``, the ``passage`` feature of
``decisis.adr.answer.features``)."""

from __future__ import annotations

from pathlib import Path

import decisis
from decisis.adr.answer import DEFAULT_SETTINGS
from decisis.adr.answer.passages import best_passages, passage_index
from decisis.adr.learn.corrections import correct
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from tests.adr.conftest import WriteFn, best_start

TOPICS = ("networking", "authentication", "logging")


def _write_team(write: WriteFn) -> None:
    """A record of several sections, each deciding something else, and a short one."""
    sections = "\n".join(f"### {t.title()}\n\nChosen: {t} as before.\n" for t in TOPICS)
    write(
        "0001-kubernetes-cluster.md",
        "# 1. Kubernetes cluster\n\nDate: 2021-03-01\n\n## Status\n\nAccepted\n\n"
        f"## Decisions\n\n{sections}\n### Node scaling\n\n"
        "Chosen: worker nodes are scaled by hand when capacity alerts fire.\n",
    )
    write(
        "0002-on-call-alerts.md",
        "# 2. On-call alerts\n\nDate: 2021-04-01\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        "When capacity alerts fire, the on-call engineer checks the worker nodes.\n",
    )


def test_a_record_deciding_many_things_is_found_by_its_section(write: WriteFn, team: Path) -> None:
    """The cluster record's one section on node scaling answers a question about scaling as
    well as the short record on alerts: the section feature sees it."""
    _write_team(write)
    with decisis.open("memory://") as g:
        ingest(g, team)
        from decisis.adr.answer import consider

        found = consider(g, view_of(g), "How are worker nodes scaled?", DEFAULT_SETTINGS)
        assert found.value("team:0001", "passage") == 1.0
        assert found.value("team:0002", "passage") < 1.0
        heavy = DEFAULT_SETTINGS.with_weights(passage=5.0)
        assert best_start(g, "How are worker nodes scaled?", heavy) == "team:0001"


def test_passages_are_the_sections_of_a_record_or_the_whole_record(
    write: WriteFn, team: Path
) -> None:
    _write_team(write)
    write("0009-no-sections.md", "# 9. Plain\n\nDate: 2021-06-01\n\nWe keep it plain.\n")
    graph = decisis.open("memory://")
    ingest(graph, team)
    index = passage_index(view_of(graph))
    own = [d for d in index.docs if d.startswith("team:0001#")]
    # Status, Decisions (with all that is under it), each topic and node scaling
    assert len(own) == 2 + len(TOPICS) + 1
    assert [d for d in index.docs if d.startswith("team:0009#")] == ["team:0009#0"]
    best = best_passages(view_of(graph), "scaled by hand", limit=10)
    assert next(iter(best)) == "team:0001"


def test_a_view_of_the_same_records_takes_the_passage_index_over(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    _write_team(write)
    with decisis.open(f"sqlite:///{tmp_path / 'p.db'}") as graph:
        ingest(graph, team)
        before = view_of(graph)
        index = passage_index(before)
        # a correction adds a remembered question: the records stay the same
        correct(graph, "Do we scale worker nodes by hand?", "team:0001")
        after = view_of(graph)
        assert after is not before
        assert passage_index(after) is index
        write("0002-on-call-alerts.md", (team / "0002-on-call-alerts.md").read_text() + "\nMore.\n")
        ingest(graph, team)  # a record changed: its passages are read again
        changed = view_of(graph)
        assert passage_index(changed) is not index
