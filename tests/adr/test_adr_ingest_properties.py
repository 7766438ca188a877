"""Folders of odd files (record fragments in any order, unclosed fences and comments, status
lines naming records that are not there, lettered lists, bytes that are not text) ingest
without a Python error: each file is a record, a skipped file or a reported problem; asking
works; a second ingest of the same folder changes nothing; the ledger verifies."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import decisis
from decisis.adr.answer import ask
from decisis.adr.link.ingest import ingest
from decisis.adr.read.reader import read_folder

LINES = st.sampled_from(
    [
        "# 1. Use Kafka", "# Use Postgres", "## Status", "Accepted", "✅ Accepted", "Rejected",
        "~~Accepted~~ Superseded", "Superseded by [2](002-b.md)", "Superseded by ADR-9",
        "## Decision", "We will use Kafka.", "## Context", "Date: 2020-01-01",
        "Date: 01/02/2019", "date: June 2020", "---", "status: accepted", "title: Queues",
        "```", "~~~", "* item", "1. first", "a) lettered", "| a | b |", "|---|---|", "> quote",
        "<!--", "-->", "[one](001-a.md)", "This replaces ADR 1.", "We move on from [1](001-a.md).",
        "", "\t",
    ]
)  # fmt: skip
TEXT = st.one_of(
    st.lists(st.one_of(LINES, st.text(max_size=30)), max_size=25).map("\n".join),
    st.binary(max_size=200),
)
NAMES = st.sampled_from(
    ["001-a.md", "002-b.md", "0003-use-c.md", "README.md", "template.md", "4-d.md", "x.txt"]
)


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.dictionaries(NAMES, TEXT, min_size=1, max_size=5))
def test_any_folder_ingests_once_and_for_all(
    tmp_path_factory: pytest.TempPathFactory, files: dict[str, str | bytes]
) -> None:
    team = tmp_path_factory.mktemp("odd") / "team"
    team.mkdir()
    for name, text in files.items():
        data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        (team / name).write_bytes(data)
    read = read_folder(team.parent)
    with decisis.open("memory://") as graph:
        first = ingest(graph, team.parent)
        assert len(first.added) == len(read.records)
        assert len(first.problems) == len(read.problems)
        if first.added:
            ask(graph, "Which queue do we use?")
        again = ingest(graph, team.parent)
        assert (again.added, again.updated, again.links_added) == ([], [], 0)
        assert graph.verify().ok
