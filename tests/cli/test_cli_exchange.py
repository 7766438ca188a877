"""export and import: a JSON round trip into another graph, and the DOT and Mermaid pictures."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_support import Cli


def _labels(cli: Cli, graph: str | None = None) -> list[tuple[str, str, str]]:
    listed = cli.json("at", "2999-01-01", "--nodes", graph=graph)["nodes"]
    return sorted((n["id"], n["type"], n["label"]) for n in listed)


def test_export_json_imports_into_another_graph(
    cli: Cli, story: dict[str, str], tmp_path: Path
) -> None:
    exported = cli("export")
    assert exported.exit_code == 0
    document = json.loads(exported.stdout)
    assert document["format"] == "decisis-export" and document["graph"] == "default"
    target = tmp_path / "export.json"
    written = cli.json("export", "--output", str(target))
    assert written["written"] == str(target) and target.is_file()
    imported = cli.json("import", str(target), graph="copy")
    assert imported == {"imported": len(document["events"]), "graph": "copy"}
    assert cli.json("verify", graph="copy")["ok"] is True
    assert _labels(cli, "copy") == _labels(cli)
    standing = cli.json("current", story["first"], graph="copy")
    assert [n["id"] for n in standing["standing"]] == [story["second"]]
    assert cli.json("graphs") == ["copy", "default"]


def test_importing_twice_is_refused_and_changes_nothing(
    cli: Cli, story: dict[str, str], tmp_path: Path
) -> None:
    target = tmp_path / "export.json"
    assert cli("export", "-o", str(target)).exit_code == 0
    before = cli.event_count()
    again = cli("import", str(target))
    assert again.exit_code == 2 and again.stderr.startswith("error: ")
    assert cli.event_count() == before


def test_a_tampered_export_is_refused(cli: Cli, story: dict[str, str], tmp_path: Path) -> None:
    document = json.loads(cli("export").stdout)
    document["events"][1]["payload"]["node"]["label"] = "Forged"
    target = tmp_path / "forged.json"
    target.write_text(json.dumps(document), encoding="utf-8")
    result = cli("import", str(target), graph="copy")
    assert result.exit_code == 2
    assert "seq 2" in result.stderr and "nothing imported" in result.stderr
    assert cli.json("graphs") == ["default"]


def test_import_of_a_missing_file_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    result = cli("import", str(tmp_path / "missing.json"))
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_export_dot_has_one_line_per_node_and_edge(cli: Cli, story: dict[str, str]) -> None:
    text = cli("export", "--format", "dot").stdout
    lines = text.strip().splitlines()
    assert lines[0] == "digraph decisis {" and lines[-1] == "}"
    nodes = [line for line in lines if re.match(r'\s+"\w+" \[label=', line)]
    edges = [line for line in lines if " -> " in line]
    assert len(nodes) == 6  # goal, two decisions, two options, outcome
    assert len(edges) == 6  # leads_to x3, chosen, rejected, supersedes
    supersedes = f'"{story["second"]}" -> "{story["first"]}" [label="supersedes"];'
    assert supersedes in [line.strip() for line in edges]
    assert any('label="decision: Use JWT tokens (superseded)"' in line for line in nodes)


def test_export_mermaid_is_a_flowchart(cli: Cli, story: dict[str, str]) -> None:
    text = cli("export", "-f", "mermaid").stdout
    lines = text.strip().splitlines()
    assert lines[0] == "flowchart LR"
    assert f'  n{story["goal"]}["goal: Implement auth (active)"]' in lines
    assert f"  n{story['goal']} -->|leads_to| n{story['first']}" in lines
    assert sum("-->|" in line for line in lines) == 6
