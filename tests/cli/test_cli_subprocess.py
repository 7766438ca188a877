"""The installed command through a real process: exit codes, streams, and no tracebacks."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECISIS_")}
    return env | {"COLUMNS": "250", "NO_COLOR": "1"}


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "decisis", *args],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_json(cwd: Path, *args: str) -> Any:
    result = run(cwd, "--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    result = run(tmp_path, "init")
    assert result.returncode == 0, result.stderr
    assert "Initialised" in result.stdout
    return tmp_path


def test_help_and_version(tmp_path: Path) -> None:
    result = run(tmp_path, "--help")
    assert result.returncode == 0
    assert "supersede" in result.stdout and "verify" in result.stdout
    assert run(tmp_path, "--version").stdout.startswith("decisis ")
    # the extra to install keeps its brackets: Rich would read "[web]" as markup and drop it
    assert "pip install 'decisis[web]'" in run(tmp_path, "serve", "--help").stdout


def test_help_is_plain_text_to_a_pipe_and_rich_panels_on_a_terminal(tmp_path: Path) -> None:
    piped = run(tmp_path, "--help").stdout
    assert piped.startswith("Usage: decisis") and "╭" not in piped
    # each command with its first sentence, wrapped, not cut short with "..."
    assert "init         Create a store in .decisis/decisis.db in this directory (or at" in piped
    assert "..." not in piped.split("Commands:")[1]
    terminal = subprocess.run(
        [sys.executable, "-m", "decisis", "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env=_env() | {"TTY_COMPATIBLE": "1"},
    ).stdout
    assert "╭─" in terminal and "Commands" in terminal and ".decisis/decisis.db" in terminal


def test_init_add_supersede_current_round_trip(project: Path) -> None:
    added = run(project, "add", "goal", "Implement auth", "--confidence", "0.9")
    assert added.returncode == 0, added.stderr
    verb, short, kind = added.stdout.split()[:3]  # "added <short id> goal: Implement auth ..."
    assert (verb, kind) == ("added", "goal:") and 8 <= len(short) < 26
    goal = run_json(project, "show", short)["node"]["id"]
    assert goal.startswith(short)
    first = run_json(project, "add", "decision", "Use JWT tokens", "--parent", short)["id"]
    # full ids from here: time-ordered ids made moments apart share their first characters
    second = run_json(project, "add", "decision", "Use server sessions", "--parent", goal)["id"]
    superseded = run(project, "supersede", first, second, "--rationale", "Revocation")
    assert superseded.returncode == 0, superseded.stderr
    assert superseded.stdout.startswith("superseded ")
    current = run(project, "current", first)
    assert current.returncode == 0
    assert "Use JWT tokens (superseded" in current.stdout
    assert "Use server sessions (stands)" in current.stdout
    assert run_json(project, "current", first)["standing"][0]["id"] == second
    assert "ok: ledger intact, 6 events checked" in run(project, "verify").stdout


def test_errors_exit_2_on_stderr_without_traceback(project: Path) -> None:
    result = run(project, "add", "gaol", "Implement auth")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: type: unknown value 'gaol'")
    assert "goal" in result.stderr and "Traceback" not in result.stderr
    as_json = run(project, "--json", "add", "goal", "x", "--confidence", "1.5")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout)["error"]["field"] == "confidence"


def test_no_store_found_is_a_clear_error(tmp_path: Path) -> None:
    result = run(tmp_path, "goals")
    assert result.returncode == 2
    assert "run 'decisis init'" in result.stderr and "Traceback" not in result.stderr


def test_verify_fails_on_a_tampered_file_and_names_the_seq(project: Path) -> None:
    goal = run_json(project, "add", "goal", "Implement auth")["id"]
    run_json(project, "add", "decision", "Use JWT tokens", "--parent", goal)
    with sqlite3.connect(project / ".decisis" / "decisis.db") as conn:
        conn.execute("UPDATE ledger SET at = '2001-01-01T00:00:00.000000Z' WHERE seq = 1")
    result = run(project, "verify")
    assert result.returncode == 1
    assert "seq 1" in result.stdout


def test_importing_the_cli_loads_no_store_or_rich_rendering(tmp_path: Path) -> None:
    """Startup speed: heavy modules load inside the commands that need them."""
    code = (
        "import sys; import decisis.cli.app; "
        "heavy = ['sqlite3', 'decisis.stores.sqlite', 'decisis.exchange', 'decisis.stores.replay',"
        " 'rich.table', 'rich.tree']; "
        "print([m for m in heavy if m in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("args", "unwanted"),
    [
        # Help to a pipe is plain text: no Rich, no markdown-it (on a terminal, Rich panels).
        (["--help"], ["numpy", "pydantic", "decisis.stores.sqlite", "rich"]),
        (["ask", "--help"], ["numpy", "pydantic", "decisis.adr", "rich"]),
        (["--version"], ["numpy", "pydantic", "decisis.stores.sqlite", "rich"]),
        # A command that reads the graph and no vectors opens the store without numpy.
        (["goals"], ["numpy", "pydantic", "decisis.adr", "decisis.search.embed_static"]),
    ],
)
def test_a_command_imports_only_what_it_needs(
    tmp_path: Path, args: list[str], unwanted: list[str]
) -> None:
    """The import budget of #26: what a short-lived hook process pays for at start."""
    run(tmp_path, "init")
    code = (
        "import sys\n"
        f"sys.argv = ['decisis', *{args!r}]\n"
        "from decisis.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print('LOADED', [m for m in {unwanted!r} if m in sys.modules])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
        cwd=tmp_path,
    )
    assert "LOADED []" in result.stdout, result.stdout[-400:]


@pytest.mark.parametrize(
    ("args", "collecting"), [(["ask", "what CI"], False), (["ingest", "."], True)]
)
def test_a_one_shot_command_runs_without_the_cyclic_collector(
    tmp_path: Path, args: list[str], collecting: bool
) -> None:
    """``ask`` reads, answers and exits with the collector off; a command that is not one
    shot (``ingest``) runs with it on; either way ``main`` leaves it as it found it."""
    code = (
        "import gc, sys\n"
        "import decisis.adr\n"
        "seen = []\n"
        "def spy(real):\n"
        "    def call(*a, **k):\n"
        "        seen.append(gc.isenabled())\n"
        "        return real(*a, **k)\n"
        "    return call\n"
        "decisis.adr.ask, decisis.adr.ingest = spy(decisis.adr.ask), spy(decisis.adr.ingest)\n"
        f"sys.argv = ['decisis', '--store', 'sqlite:///{tmp_path / 'g.db'}', *{args!r}]\n"
        "from decisis.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('SEEN', seen, gc.isenabled())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
        cwd=tmp_path,
    )
    assert f"SEEN [{collecting}] True" in result.stdout, result.stdout[-400:]
