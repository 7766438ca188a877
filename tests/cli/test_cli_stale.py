"""decisis stale, reaffirm, check and current's stale list, through real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def run(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECISIS_")}
    return subprocess.run(
        [sys.executable, "-m", "decisis", *args],
        cwd=cwd,
        env=env | {"COLUMNS": "250", "NO_COLOR": "1"},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_json(cwd: Path, *args: str, stdin: str | None = None) -> Any:
    result = run(cwd, "--json", *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def story(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A decision with an action under it, superseded by another."""
    assert run(tmp_path, "init").returncode == 0
    ids = {
        "old": run_json(tmp_path, "add", "decision", "Use Jenkins for CI")["id"],
        "new": run_json(tmp_path, "add", "decision", "Use GitHub Actions")["id"],
    }
    ids["action"] = run_json(
        tmp_path, "add", "action", "Write a Jenkinsfile", "--parent", ids["old"]
    )["id"]
    assert run(tmp_path, "supersede", ids["old"], ids["new"]).returncode == 0
    return tmp_path, ids


def test_supersede_says_what_rested_on_it(tmp_path: Path) -> None:
    assert run(tmp_path, "init").returncode == 0
    old = run_json(tmp_path, "add", "decision", "Host artefacts on Nexus")["id"]
    run_json(tmp_path, "add", "action", "Publish the jars", "--parent", old)
    new = run_json(tmp_path, "add", "decision", "Host artefacts on S3")["id"]
    said = run(tmp_path, "supersede", old, new).stdout
    assert "1 record rested on it: see `decisis stale --premise" in said


def test_stale_lists_the_action_until_it_is_reaffirmed(story: tuple[Path, dict[str, str]]) -> None:
    cwd, ids = story
    [item] = run_json(cwd, "stale")
    assert item["node"]["id"] == ids["action"]
    assert item["premise"]["id"] == ids["old"]
    assert item["edge_type"] == "leads_to"
    assert [n["id"] for n in item["standing"]] == [ids["new"]]
    text = run(cwd, "stale").stdout
    assert "Write a Jenkinsfile" in text and "rests on" in text and "Use GitHub Actions" in text

    current = run_json(cwd, "current", ids["old"])
    assert [s["node"]["id"] for s in current["stale"]] == [ids["action"]]
    assert "Write a Jenkinsfile" in run(cwd, "current", ids["old"]).stdout

    events = run_json(cwd, "verify")["events"]
    done = run_json(cwd, "reaffirm", ids["action"], "--note", "a workflow does it now")
    assert done["metadata"]["reaffirmed"][ids["old"]]["standing"] == [ids["new"]]
    assert run_json(cwd, "verify")["events"] == events + 1
    assert run_json(cwd, "stale") == []
    assert "nothing rests on a replaced decision" in run(cwd, "stale").stdout
    assert run_json(cwd, "current", ids["old"])["stale"] == []


def test_reaffirm_of_what_rests_on_nothing_replaced_is_an_error(
    story: tuple[Path, dict[str, str]],
) -> None:
    cwd, ids = story
    refused = run(cwd, "reaffirm", ids["new"])
    assert refused.returncode == 2
    assert "rests on no replaced premise" in refused.stderr
    assert "Traceback" not in refused.stderr
    body = json.loads(run(cwd, "--json", "reaffirm", ids["action"], "--premise", ids["new"]).stdout)
    assert body["error"]["field"] == "premise"


def test_check_names_the_replaced_step_and_passes_the_others(
    story: tuple[Path, dict[str, str]],
) -> None:
    cwd, ids = story
    plan = "1. Add a Jenkins job for the nightly build\n2. Write a GitHub Actions workflow"
    checked = run_json(cwd, "check", plan)
    first, second = checked["steps"]
    assert [f["premise"]["id"] for f in first["findings"]] == [ids["old"]]
    assert [n["id"] for n in first["findings"][0]["standing"]] == [ids["new"]]
    assert second["findings"] == []
    text = run(cwd, "check", plan).stdout
    assert "replaced by" in text and "1 of 2 steps" in text
    from_stdin = run_json(cwd, "check", "-", stdin="Write a GitHub Actions workflow.")
    assert from_stdin["findings"] == 0
    empty = run(cwd, "check", "  ")
    assert empty.returncode == 2 and "plan" in empty.stderr
