"""Fixtures for the agent tests: a SQLite graph, its toolbox, and one with two ADRs ingested."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import decisis
from decisis.adr.link.ingest import ingest
from decisis.agent import Toolbox

JENKINS = (
    "# 1. Use Jenkins for builds\n\nDate: 2019-01-01\n\n## Status\n\n"
    "Superseded by [2](002-use-github-actions.md)\n\n## Decision\n\n"
    "We run every build on a Jenkins server that we host.\n"
)
ACTIONS = (
    "# 2. Use GitHub Actions\n\nDate: 2023-05-01\n\n## Status\n\nAccepted\n\n"
    "## Decision\n\nWorkflows run on hosted runners.\n"
)


def write_adrs(folder: Path) -> Path:
    """Two records in ``folder/team``: 002 supersedes 001 (keys team:001, team:002)."""
    team = folder / "team"
    team.mkdir(parents=True, exist_ok=True)
    (team / "001-use-jenkins.md").write_text(JENKINS, encoding="utf-8")
    (team / "002-use-github-actions.md").write_text(ACTIONS, encoding="utf-8")
    return team


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[decisis.Graph]:
    with decisis.open(f"sqlite:///{tmp_path / 'agent.db'}", graph="agent") as g:
        yield g


@pytest.fixture
def box(graph: decisis.Graph) -> Toolbox:
    return Toolbox(graph)


@pytest.fixture
def adr_box(graph: decisis.Graph, tmp_path: Path) -> Toolbox:
    ingest(graph, write_adrs(tmp_path))
    return Toolbox(graph)
