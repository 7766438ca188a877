"""``decisis provenance ID``: a record's provenance entries, as a table or with ``--json``,
in a real process; ingest's entries name the file; an unknown id exits 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import decisis

EXAMPLES = Path(decisis.__file__).resolve().parent / "data" / "example-adrs"


def _run(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECISIS_")}
    return subprocess.run(
        [sys.executable, "-m", "decisis", "--store", url, *args],
        env=env | {"COLUMNS": "250", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_provenance_prints_the_entries_and_json_has_every_field(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with decisis.open(url) as graph:
        node = graph.add_goal("Ship auth")
        graph.record_provenance(
            node.id, "review", agent="alice", agent_type="person", role="reviewer",
            source="docs/adr/0001.md", confidence=0.75, outcome="approved",
        )  # fmt: skip
    table = _run(url, "provenance", node.id[:10])
    assert table.returncode == 0, table.stderr
    for shown in ("review", "alice (person)", "reviewer", "docs/adr/0001.md", "0.75", "approved"):
        assert shown in table.stdout
    listed = json.loads(_run(url, "--json", "provenance", node.id).stdout)
    assert [e["activity"] for e in listed] == ["review"]
    assert listed[0]["agent_type"] == "person" and listed[0]["confidence"] == 0.75
    assert listed[0]["entity"] == node.id and listed[0]["source_blob"] is None
    missing = _run(url, "provenance", "zzzzzzzzzz")
    assert missing.returncode == 2 and "zzzzzzzzzz" in missing.stderr


def test_ingested_records_name_their_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    assert _run(url, "ingest", str(EXAMPLES)).returncode == 0
    nodes = json.loads(_run(url, "--json", "list", "--type", "decision").stdout)
    record = next(n for n in nodes if n["metadata"].get("kind") == "adr")
    [entry] = json.loads(_run(url, "--json", "provenance", record["id"]).stdout)
    assert entry["source"] == record["metadata"]["path"]
    assert (entry["activity"], entry["agent_type"], entry["outcome"]) == (
        "adr.ingest",
        "software_agent",
        "added",
    )
    assert _run(url, "ingest", str(EXAMPLES)).returncode == 0  # unchanged: no second entry
    again = json.loads(_run(url, "--json", "provenance", record["id"]).stdout)
    assert len(again) == 1


def test_control_characters_in_an_entry_print_as_escapes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with decisis.open(url) as graph:
        node = graph.add_goal("Ship")
        graph.record_provenance(
            node.id, "review\x1b[2J", agent="mallory\u202e", source="a\rb.md", error="x\ny"
        )
    table = _run(url, "provenance", node.id)
    assert table.returncode == 0, table.stderr
    assert "\x1b" not in table.stdout and "\u202e" not in table.stdout and "\r" not in table.stdout
    for shown in ("review\\x1b[2J", "mallory\\u202e", "a\\rb.md", "x\\ny"):
        assert shown in table.stdout
