"""Helpers for the CLI tests: run ``decisis`` through a CliRunner against one store."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from decisis.cli.app import app

ENV = {"COLUMNS": "250", "NO_COLOR": "1", "DECISIS_STORE": None, "DECISIS_GRAPH": None}


@dataclass
class Cli:
    """Runs ``decisis`` against one store; ``json`` parses the output of ``--json`` calls."""

    runner: CliRunner
    store: str
    path: Path

    def __call__(self, *args: str, graph: str | None = None) -> Result:
        head = ["--store", self.store] + (["--graph", graph] if graph else [])
        return self.runner.invoke(app, [*head, *args], env=ENV)

    def json(self, *args: str, graph: str | None = None, code: int = 0) -> Any:
        result = self("--json", *args, graph=graph)
        assert result.exit_code == code, result.output
        return json.loads(result.stdout)

    def add(self, *args: str, graph: str | None = None) -> str:
        """Add a node and return its full id."""
        node: dict[str, Any] = self.json("add", *args, graph=graph)
        return str(node["id"])

    def event_count(self, graph: str | None = None) -> int:
        report: dict[str, Any] = self.json("verify", graph=graph)
        assert report["ok"], report
        return int(report["events"])
