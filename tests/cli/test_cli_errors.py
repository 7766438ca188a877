"""Bad input: exit code 2, one clear line (or a JSON error), no traceback, nothing stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cli_support import ENV, Cli

from decisis.cli.app import app

LONG = "x" * 501


def _bad_import_file(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "bad.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


BAD_INPUT = [
    (
        ["add", "gaol", "x"],
        "allowed: action, decision, goal, observation, option, outcome, revisit",
    ),
    (["add", "goal", "x", "--confidence", "1.5"], "confidence: 1.5 is out of range"),
    (["add", "goal", "x", "--confidence", "-0.1"], "allowed: 0.0 to 1.0"),
    (["add", "goal", "   "], "label: is empty"),
    (["add", "goal", LONG], "at most 500 characters"),
    (["add", "goal", "x", "--status", "done"], "allowed: active, completed, rejected, superseded"),
    (["add", "goal", "x", "--metadata", "{not json"], "metadata: is not JSON"),
    (["add", "goal", "x", "--metadata", "[1, 2]"], "metadata: expected an object"),
    (["add", "goal", "x", "--chosen", "y"], "only a decision has options"),
    (["add", "goal", "x", "--parent", "zzzz"], "no node or edge 'zzzz'"),
    (["add", "option", "x", "--parent", "{goal}", "--edge-type", "picked"], "allowed: blocks"),
    (["link", "{goal}", "{first}", "supersedes"], "supersede(old, new)"),
    (["link", "{goal}", "{goal}", "enables"], "cannot join a node to itself"),
    (["supersede", "{first}", "{first}"], "cannot supersede itself"),
    (["supersede", "{first}", "{second}"], "already supersedes"),
    (["supersede", "{second}", "{first}"], "would make a cycle"),
    (["update", "{goal}"], "cannot update nothing"),
    (["update", "{goal}", "--valid-until", "1999-01-01"], "valid_until"),
    (["tombstone", "{goal}", "--reason", " "], "a tombstone needs a reason"),
    (["at", "yesterday"], "'yesterday' is not a timestamp"),
    (["at", "2026-13-45"], "is not a timestamp"),
    (["recent", "--limit", "0"], "limit: 0 is not a positive whole number"),
    (["log", "--limit", "0"], "limit: 0 is not a positive whole number"),
    (["why", "{goal}", "--depth", "0"], "max_depth"),
    (["search", " "], "query: is empty"),
    (["export", "--format", "png"], "allowed: dot, json, mermaid"),
    (["import", "{file:not json}"], "file: is not JSON"),
    (["import", "{file:[]}"], "the file is not a decisis export"),
    (["import", '{file:{"format": "decisis-export", "version": 9}}'], "unsupported export version"),
    (["import", "{bytes}"], "is not UTF-8 text"),
]


def _fill_one(arg: str, story: dict[str, str], tmp_path: Path) -> str:
    if arg.startswith("{file:"):
        return _bad_import_file(tmp_path, arg[len("{file:") : -1])
    if arg == "{bytes}":
        return _bad_import_file(tmp_path, b"\xff\xfe\x00garbage")
    return arg.format(**story) if arg.startswith("{") and arg.endswith("}") else arg


def _fill(args: list[str], story: dict[str, str], tmp_path: Path) -> list[str]:
    return [_fill_one(arg, story, tmp_path) for arg in args]


@pytest.mark.parametrize(
    ("args", "expected"), BAD_INPUT, ids=[" ".join(a)[:40] for a, _ in BAD_INPUT]
)
def test_bad_input_exits_2_with_a_clear_message_and_changes_nothing(
    cli: Cli, story: dict[str, str], tmp_path: Path, args: list[str], expected: str
) -> None:
    before = cli.event_count()
    result = cli(*_fill(args, story, tmp_path))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: "), result.stderr
    assert len(result.stderr.strip().splitlines()) <= 3  # one line, wrapped at most
    assert expected in " ".join(result.stderr.split())
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert cli.event_count() == before


def test_errors_as_json_name_the_type_field_and_allowed_values(
    cli: Cli, story: dict[str, str]
) -> None:
    error = cli.json("add", "goal", "x", "--confidence", "1.5", code=2)["error"]
    assert error == {
        "type": "InvalidInput",
        "message": "confidence: 1.5 is out of range (allowed: 0.0 to 1.0)",
        "field": "confidence",
        "allowed": "0.0 to 1.0",
    }
    unknown_type = cli.json("add", "gaol", "x", code=2)["error"]
    assert unknown_type["field"] == "type" and "goal" in unknown_type["allowed"].split(", ")
    cycle = cli.json("supersede", story["second"], story["first"], code=2)["error"]
    assert cycle["type"] in {"CycleError", "Conflict"}


def test_verify_after_tampering_names_the_first_bad_seq(cli: Cli, story: dict[str, str]) -> None:
    assert cli("verify").exit_code == 0
    with sqlite3.connect(cli.path) as conn:
        conn.execute(
            "UPDATE ledger SET payload = replace(payload, 'Stateless', 'Stateful') WHERE seq = 2"
        )
    result = cli("verify")
    assert result.exit_code == 1
    assert "seq 2" in result.stdout and "FAILED" in result.stdout
    report = cli.json("verify", code=1)
    assert report["ok"] is False and report["first_bad_seq"] == 2 and report["problems"]


def test_verify_after_deleting_an_entry_fails(cli: Cli, story: dict[str, str]) -> None:
    with sqlite3.connect(cli.path) as conn:
        conn.execute("DELETE FROM ledger WHERE seq = 3")
    report = cli.json("verify", code=1)
    assert report["ok"] is False and report["first_bad_seq"] is not None


def test_usage_errors_exit_2_without_traceback(cli: Cli) -> None:
    for args in (["add", "goal"], ["add", "goal", "x", "--confidence", "high"], ["nope"]):
        result = cli(*args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output


def test_a_store_url_that_cannot_be_opened_is_a_clear_error(cli: Cli, tmp_path: Path) -> None:
    for url, expected in (
        ("bogus://x", "cannot open store 'bogus://x'"),
        (f"sqlite:///{tmp_path / 'missing' / 'dir' / 'x.db'}", "x.db"),
    ):
        result = cli.runner.invoke(app, ["--store", url, "goals"], env=ENV)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: ") and expected in result.stderr
        assert "Traceback" not in result.output


def test_a_bad_graph_name_is_a_clear_error(cli: Cli) -> None:
    result = cli("goals", graph=" ")
    assert result.exit_code == 2 and "graph" in result.stderr
