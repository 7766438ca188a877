"""``decisis think`` against a local OpenAI-compatible server: a real process, real HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import decisis
from decisis.cli.app import app
from tests.got.fake_server import Reply, serve, sorting_script


def decisis_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "decisis", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_think_prints_the_best_thought_and_its_path() -> None:
    with serve(sorting_script) as server:
        done = decisis_cli(
            "think", "[5, 2, 9, 1]", "--model", server.openai_url, "--model-name", "tiny",
            "--task", "sort", "--strategy", "synthesis", "--api-key-env", "GOT_TEST_KEY",
            env={"GOT_TEST_KEY": "sk-local"},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "[1, 2, 5, 9]"
    assert any("path (success)" in line for line in lines)
    assert any("generate" in line for line in lines) and any("refine" in line for line in lines)
    assert server.requests[0]["model"] == "tiny" and server.requests[0]["stream"] is True


def test_think_json_and_record_keep_the_run_in_the_ledger(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'think.db'}"
    with serve(sorting_script) as server:
        result = CliRunner().invoke(
            app,
            ["--store", store, "--json", "think", "[3, 1, 2]", "--model", server.openai_url,
             "--task", "sort", "--record", "--no-stream"],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["termination"] == "success" and data["result"]["content"] == "[1, 2, 3]"
    assert (
        data["path"][0]["content"] == "[3, 1, 2]" and data["usage"]["calls"] == 4
    )  # voting merges locally
    with decisis.open(store) as graph:
        assert graph.verify().ok
        recorded = {node.id for node in graph.nodes()}
        assert set(data["recorded"].values()) == recorded


def test_a_failed_run_is_an_error_with_the_reason() -> None:
    with serve(lambda body, n: Reply(status=503)) as server:
        done = decisis_cli(
            "think", "q", "--model", server.openai_url, "--retries", "0", "--timeout", "5"
        )
    assert done.returncode == 2
    assert "the reasoning run failed" in done.stderr and "503" in done.stderr


def test_an_unset_api_key_variable_is_refused() -> None:
    done = decisis_cli("think", "q", "--model", "http://127.0.0.1:9/v1", "--api-key-env", "NOPE_X")
    assert done.returncode == 2 and "NOPE_X is not set" in done.stderr
