"""Fixtures for the CLI tests: a CliRunner over the real app and a SQLite file in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import Cli
from typer.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli(runner: CliRunner, tmp_path: Path) -> Cli:
    path = tmp_path / "cli.db"
    return Cli(runner, f"sqlite:///{path}", path)


@pytest.fixture
def story(cli: Cli) -> dict[str, str]:
    """A goal, a decision with options, an outcome, and a second decision superseding the first."""
    goal = cli.add("goal", "Implement auth", "--confidence", "0.9")
    first = cli.add(
        "decision",
        "Use JWT tokens",
        "--parent",
        goal,
        "--rationale",
        "Stateless",
        "--chosen",
        "JWT",
        "--rejected",
        "API keys",
    )
    outcome = cli.add("outcome", "Tokens could not be revoked", "--parent", first)
    second = cli.add("decision", "Use server sessions", "--parent", goal)
    result = cli("supersede", first, second, "--rationale", "Sessions fit better")
    assert result.exit_code == 0, result.output
    return {"goal": goal, "first": first, "outcome": outcome, "second": second}
