"""The CLI reference cannot drift: docs/cli.md matches the app, and everything has help."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from decisis.cli.docs import command_tree, render_markdown

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "cli.md"
EXPECTED_COMMANDS = {
    "init", "add", "link", "update", "supersede", "judge", "tombstone", "show", "current", "why",
    "impact", "ancestors", "descendants", "path", "goals", "recent", "list", "search",
    "precedents", "at",
    "verify", "log", "graphs", "export", "import", "demo",
    "ingest", "ask", "correct", "learned", "adr", "eval", "copy", "think", "mcp",
}  # fmt: skip


def test_docs_cli_md_is_up_to_date() -> None:
    assert DOCS.read_text(encoding="utf-8") == render_markdown(), (
        "docs/cli.md is out of date: run python scripts/gen_cli_docs.py"
    )


def test_gen_cli_docs_check_passes() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_cli_docs.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_every_command_and_option_has_help() -> None:
    root, _, commands = command_tree()
    assert {name for name, _, _ in commands} >= EXPECTED_COMMANDS
    for param in root.params:
        assert param.help, f"global option {param.name} has no help"
    for name, command, _ in commands:
        assert command.help and command.help.strip(), f"decisis {name} has no help"
        for param in command.params:
            assert getattr(param, "help", None), f"decisis {name}: {param.name} has no help"


def test_every_command_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for name, _, _ in command_tree()[2]:
        assert f"### decisis {name}\n" in text


def test_extras_named_in_help_keep_their_brackets_on_the_terminal() -> None:
    """Rich reads ``[proofs]`` as a style tag and drops it, so ``pip install 'decisis[proofs]'``
    printed as ``'decisis'``: every extra the reference names shows on the terminal too."""
    import re

    from typer.testing import CliRunner

    from decisis.cli.app import app

    runner = CliRunner()
    checked = 0
    for name, command, _ in command_tree()[2]:
        texts = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
        extras = set(re.findall(r"decisis\\?\[(\w+)\]", " ".join(texts)))
        if not extras:
            continue
        shown = runner.invoke(
            app, [*name.split(), "--help"], env={"COLUMNS": "250", "TTY_COMPATIBLE": "1"}
        ).output
        for extra in extras:
            assert f"decisis[{extra}]" in shown, (name, extra)
            checked += 1
    assert checked >= 4  # key new, checkpoint, export, serve at least
