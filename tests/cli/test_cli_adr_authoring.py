"""``decisis adr new|list|link`` through the real app: files written, the store ingested,
``ask`` walking old to new, and refusals as exit code 2 naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import Cli


def test_new_supersede_list_link_and_ask(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "adr")
    first = cli.json("adr", "new", "Queue jobs with RabbitMQ", "--dir", folder)
    assert first["number"] == 1 and first["ingested"]["added"] == ["adr:0001"]
    second = cli.json(
        "adr",
        "new",
        "Queue jobs with SQS",
        "--supersedes",
        "1",
        "--format",
        "madr",
        "--dir",
        folder,
    )
    assert second["created"].endswith("0002-queue-jobs-with-sqs.md")
    assert second["changed"] == [str(tmp_path / "adr" / "0001-queue-jobs-with-rabbitmq.md")]
    listed = cli.json("adr", "list", "--dir", folder)
    assert [(e["number"], e["status"], e["replaced_by"]) for e in listed] == [
        (1, "superseded", ["adr:0002"]),
        (2, "accepted", []),
    ]
    answer = cli.json("ask", "How do we queue jobs? RabbitMQ?")
    assert answer["answer"] == "adr:0002" and answer["chain"] == ["adr:0001", "adr:0002"]
    linked = cli.json("adr", "link", "2", "Relates to", "1", "--dir", folder)
    assert linked["ingested"]["updated"] == ["adr:0002"]
    text = cli("adr", "list", "--dir", folder)
    assert text.exit_code == 0
    assert "superseded  Queue jobs with RabbitMQ  replaced by adr:0002" in text.output


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["adr", "new", "X", "--format", "rst"], "format"),
        (["adr", "new", "X", "--supersedes", "5"], "supersedes"),
        (["adr", "new", " "], "title"),
        (["adr", "link", "1", "Amends", "5"], "target"),
    ],
)
def test_refusals_exit_2_naming_the_field(
    cli: Cli, tmp_path: Path, args: list[str], field: str
) -> None:
    folder = tmp_path / "adr"
    folder.mkdir()
    (folder / "0001-a.md").write_text("# 1. A\n\n## Status\n\nAccepted\n", encoding="utf-8")
    result = cli("--json", *args, "--dir", str(folder))
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "InvalidInput" and error["field"] == field and error["allowed"]
    assert sorted(p.name for p in folder.iterdir()) == ["0001-a.md"]


def test_dir_that_is_a_file_is_refused(cli: Cli, tmp_path: Path) -> None:
    afile = tmp_path / "notes.md"
    afile.write_text("x", encoding="utf-8")
    result = cli("adr", "list", "--dir", str(afile))
    assert result.exit_code == 2
    assert "dir:" in result.stderr and "is not a folder" in result.stderr
