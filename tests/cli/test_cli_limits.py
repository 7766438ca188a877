"""Input past a limit or past what Python reads, through the CLI: exit code 2, one line
naming the field and what is allowed, no traceback, nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import Cli

from decisis.model.validation import MAX_OPTIONS, MAX_REASON_LENGTH

DEEP = "[" * 100_000 + "]" * 100_000
LONG_NUMBER = "9" * 5000
RECORD = """# Use Kafka

Date: 2024-01-01

## Status

Accepted

## Decision

We will use Kafka as the message queue.
"""


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _refused(cli: Cli, args: list[str], expected: str, *, graph: str | None = None) -> None:
    before = cli.event_count()
    result = cli(*args, graph=graph)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: "), result.stderr
    assert expected in " ".join(result.stderr.split()), result.stderr
    assert "Traceback" not in result.output
    assert cli.event_count() == before


@pytest.fixture
def goal(cli: Cli) -> str:
    return cli.add("goal", "Ship it")


@pytest.fixture
def corpus(tmp_path: Path) -> str:
    folder = tmp_path / "team"
    folder.mkdir()
    (folder / "0001-use-kafka.md").write_text(RECORD, encoding="utf-8")
    return str(folder)


def test_import_of_a_file_nested_too_deeply(cli: Cli, goal: str, tmp_path: Path) -> None:
    path = _file(tmp_path, "deep.json", DEEP)
    _refused(cli, ["import", path], "file: is nested too deeply to read")


def test_import_of_a_number_too_long_to_read(cli: Cli, goal: str, tmp_path: Path) -> None:
    path = _file(tmp_path, "long.json", '{"format": "decisis-export", "n": ' + LONG_NUMBER + "}")
    _refused(cli, ["import", path], "file: holds a whole number too long to read")


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        (None, "questions: {path}:1: is nested too deeply to read"),
        ("--settings", "settings: {path} is nested too deeply to read"),
        ("--links", "truth: {path} is nested too deeply to read"),
    ],
    ids=["questions", "settings", "links"],
)
def test_eval_of_a_file_nested_too_deeply(
    cli: Cli, goal: str, tmp_path: Path, corpus: str, option: str | None, expected: str
) -> None:
    deep = _file(tmp_path, "deep.jsonl", DEEP + "\n")
    fine = _file(tmp_path, "q.jsonl", '{"question": "Which queue?", "expected": "team:0001"}\n')
    args = ["eval", deep if option is None else fine, "--corpus", corpus, "--orders", "1"]
    if option is not None:
        args += [option, deep]
    _refused(cli, args, expected.format(path=deep))


def test_eval_of_a_question_with_a_number_too_long(
    cli: Cli, goal: str, tmp_path: Path, corpus: str
) -> None:
    path = _file(tmp_path, "q.jsonl", '{"question": "x", "n": ' + LONG_NUMBER + "}\n")
    _refused(cli, ["eval", path, "--corpus", corpus], "too long to read (more than 4300 digits)")


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        (DEEP, "metadata: is nested too deeply to read"),
        ('{"n": ' + LONG_NUMBER + "}", "metadata: holds a whole number too long to read"),
        ('{"k": "\\udcff"}', "metadata: holds a lone surrogate"),
    ],
    ids=["deep", "long-number", "surrogate"],
)
def test_metadata_past_what_can_be_stored(
    cli: Cli, goal: str, metadata: str, expected: str
) -> None:
    _refused(cli, ["add", "goal", "x", "--metadata", metadata], expected)


def test_text_with_a_lone_surrogate_or_a_nul(cli: Cli, goal: str) -> None:
    # a byte that is not UTF-8 in a command line reaches Python as a lone surrogate
    _refused(cli, ["add", "goal", "x\udcff"], "label: holds a lone surrogate")
    _refused(cli, ["add", "goal", "x"], "graph: holds a lone surrogate", graph="g\udcff")
    _refused(cli, ["add", "goal", "x"], "graph: contains a NUL character", graph="g\x00")
    _refused(cli, ["tombstone", goal, "--reason", "r\udcff"], "reason: holds a lone surrogate")


def test_too_many_options(cli: Cli, goal: str) -> None:
    args = ["add", "decision", "Pick one"]
    for i in range(MAX_OPTIONS + 1):
        args += ["--chosen" if i % 2 else "--rejected", f"option {i}"]
    _refused(cli, args, f"options: a decision with {MAX_OPTIONS + 1} options")


def test_a_tombstone_reason_too_long(cli: Cli, goal: str) -> None:
    long = "r" * (MAX_REASON_LENGTH + 1)
    _refused(cli, ["tombstone", goal, "--reason", long], f"at most {MAX_REASON_LENGTH} characters")
