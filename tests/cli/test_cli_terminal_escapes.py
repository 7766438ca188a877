"""Stored text that holds terminal control sequences is shown escaped, never sent raw.

Labels come from the web, MCP clients and ADR titles: one holding ``\\x1b[2J`` would clear
the screen of whoever lists it, and ``\\x1b]0;title\\x07`` retitle their window. People see
the escapes as text (``\\x1b``), so they know something was there; ``--json`` stays exact.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import Cli

from decisis.cli.render import visible

CLEAR = "\x1b[2J"
TITLE = "\x1b]0;owned\x07"
CSI = "\x9b31m"  # the one-character CSI of the C1 controls
LABEL = f"Use {CLEAR}{TITLE}JWT tokens{CSI}\nfake row"
RAW = ("\x1b", "\x07", "\x9b")


def _raw_in(text: str) -> list[str]:
    return [c for c in RAW if c in text]


@pytest.fixture
def node(cli: Cli) -> str:
    return cli.add("decision", LABEL, "--rationale", f"why{CLEAR}\nsecond line")


@pytest.mark.parametrize("command", [["recent"], ["search", "JWT"], ["show", "{node}"]])
def test_control_characters_in_a_label_are_shown_escaped(
    cli: Cli, node: str, command: list[str]
) -> None:
    result = cli(*[part.format(node=node) for part in command])
    assert result.exit_code == 0, result.output
    assert not _raw_in(result.stdout), result.stdout
    assert r"Use \x1b[2J\x1b]0;owned\x07JWT tokens\x9b31m\nfake row" in result.stdout
    # a line break in a label is shown, not made: no line starts with the label's second line
    assert not any(line.lstrip("│ ").startswith("fake row") for line in result.stdout.splitlines())


def test_show_keeps_the_lines_of_a_rationale_and_escapes_the_rest(cli: Cli, node: str) -> None:
    shown = cli("show", node).stdout
    assert r"why\x1b[2J" in shown and any("second line" in line for line in shown.splitlines())


def test_json_output_is_the_exact_text(cli: Cli, node: str) -> None:
    [found] = cli.json("recent")
    assert found["label"] == LABEL and found["id"] == node


def test_ask_and_ingest_show_a_title_s_control_characters_escaped(cli: Cli, tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-use-kafka.md").write_text(
        f"# 1. Use Kafka{CLEAR} for queues{TITLE}\n\nDate: 2020-01-01\n\n## Status\n\n"
        "Accepted\n\n## Decision\n\nWe put every event on Kafka queues.\n",
        encoding="utf-8",
    )
    (team / f"002-odd{CLEAR}.md").write_bytes(b"\x00binary")
    ingested = cli("ingest", str(team))
    assert ingested.exit_code == 0, ingested.output
    assert not _raw_in(ingested.stdout + ingested.stderr)
    assert r"skipped" in ingested.stderr and r"002-odd\x1b[2J.md" in ingested.stderr
    answer = cli("ask", "Which queues do we use for events?", "--why")
    assert answer.exit_code == 0, answer.output
    assert not _raw_in(answer.stdout), answer.stdout
    assert r"Use Kafka\x1b" in answer.stdout and r"owned\x07" in answer.stdout
    assert "\x1b" in cli.json("ask", "Which queues do we use for events?")["text"]  # exact


def test_visible_escapes_every_control_character_and_nothing_else() -> None:
    controls = "".join(map(chr, [*range(0x20), *range(0x7F, 0xA0)]))
    shown = visible(controls + "é ✓ \\x1b")
    assert shown.endswith("é ✓ \\x1b") and "\t" in shown
    assert all(ord(c) >= 0x20 and not 0x7F <= ord(c) < 0xA0 for c in shown if c != "\t")
    assert visible("a\nb") == "a\\nb" and visible("a\r\nb", lines=True) == "a\\r\nb"


def test_visible_escapes_bidirectional_controls() -> None:
    """A right-to-left override would show ``Use Redis`` reversed after it: shown escaped."""
    bidi = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    shown = visible("Use \u202eRedis\u202c " + "".join(map(chr, bidi)) + " שלום")
    assert shown.startswith("Use \\u202eRedis\\u202c ")
    assert not any(ord(c) in bidi for c in shown)
    assert "\\u2066" in shown and shown.endswith(" שלום")  # plain right-to-left text stays
