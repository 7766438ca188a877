"""The plan check on recorded decisions and on a team's ADR records, and its benchmark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.adr import ingest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def graph(tmp_path: Path) -> decisis.Graph:
    g = decisis.open(f"sqlite:///{tmp_path / 'plans.db'}")
    old = g.record_decision("Use Jenkins for CI", chosen=["Jenkins"])
    new = g.record_decision("Use GitHub Actions for CI", rejected=["CircleCI"])
    g.supersede(old.id, new.id)
    g.record_decision("Store sessions in Redis")
    return g


def _found(g: decisis.Graph, plan: str) -> list[list[tuple[str, str]]]:
    return [[(f.kind, f.premise.label) for f in s.findings] for s in g.check_plan(plan).steps]


def test_replaced_and_rejected_are_found_and_what_stands_is_not(graph: decisis.Graph) -> None:
    plan = (
        "1. Add a Jenkins job for the nightly build\n"
        "2. Write a GitHub Actions workflow\n"
        "3. Move the pipeline to CircleCI\n"
        "4. Cache the sessions in Redis\n"
        "5. Fix the CI config"
    )
    assert _found(graph, plan) == [
        [("replaced", "Use Jenkins for CI")],
        [],
        [("rejected", "CircleCI")],
        [],
        [],
    ]
    [jenkins] = graph.check_plan(plan).steps[0].findings
    assert [n.label for n in jenkins.standing] == ["Use GitHub Actions for CI"]
    assert jenkins.words == ("Jenkins",)
    assert "replaced by" in jenkins.reason and "GitHub Actions" in jenkins.reason


def test_a_graph_with_nothing_replaced_finds_nothing(tmp_path: Path) -> None:
    g = decisis.open("memory://")
    g.record_decision("Use Jenkins for CI")
    assert _found(g, "Add a Jenkins job") == [[]]


def test_a_compound_is_not_its_first_part(graph: decisis.Graph) -> None:
    assert _found(graph, "Install the jenkins-lint tool") == [[]]


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> decisis.Graph:
    g = decisis.open(f"sqlite:///{tmp_path_factory.mktemp('team') / 'team.db'}")
    ingest(g, ROOT / "data" / "adr-corpus" / "cloud-platform")
    return g


def _keys(team: decisis.Graph, step: str) -> list[tuple[str | None, tuple[str | None, ...]]]:
    [checked] = team.check_plan(step).steps
    return [(f.premise_key, f.standing_keys) for f in checked.findings]


def test_a_teams_replaced_records_are_named_with_what_stands(team: decisis.Graph) -> None:
    assert ("cloud-platform:003", ("cloud-platform:040",)) in _keys(
        team, "Add a Jenkins job that runs the smoke tests"
    )
    assert ("cloud-platform:001", ("cloud-platform:023",)) in _keys(
        team, "Ship the logs to the AWS hosted Elasticsearch domain"
    )
    assert _keys(team, "Push the image to ECR") == []
    assert _keys(team, "Deploy from a GitHub Actions workflow") == []


def test_the_measurement_runs_and_reports_its_figures() -> None:
    import json

    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "plan_check.py"), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures: dict[str, Any] = json.loads(done.stdout)
    check, base = figures["check"], figures["baseline"]
    assert check["steps"] >= 40 and check["plans_split_wrong"] == 0
    assert 0.0 <= check["recall"] <= 1.0 and check["findings"] > 0
    assert check["precision"] > base["precision"]
