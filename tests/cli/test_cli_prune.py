"""Only the asked command is built: what ``decisis.cli.prune`` saves must change no output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decisis.cli.app import app
from decisis.cli.prune import command_asked, only_needed


@pytest.mark.parametrize(
    ("args", "asked"),
    [
        (["ask", "what?"], "ask"),
        (["--store", "sqlite:///x.db", "--graph", "g", "goals"], "goals"),
        (["--json", "key", "new", "k"], "key"),
        (["--help"], None),
        (["--version"], None),
        ([], None),
        (["--store", "ask"], None),  # "ask" is the store URL here, not a command
    ],
)
def test_the_command_asked_is_the_first_word_after_the_global_options(
    args: list[str], asked: str | None
) -> None:
    assert command_asked(args) == asked


def _built_while_running(tmp_path: Path, args: list[str]) -> list[str]:
    """The commands Typer turned into click commands while ``decisis ARGS`` ran."""
    code = (
        "import sys, typer.main as tm\n"
        "built = []\n"
        "real = tm.get_command_from_info\n"
        "def spy(*a, **kw):\n"
        "    info = kw.get('command_info') or a[0]\n"
        "    built.append(tm.get_command_name(info.name or info.callback.__name__))\n"
        "    return real(*a, **kw)\n"
        "tm.get_command_from_info = spy\n"
        f"sys.argv = ['decisis', *{args!r}]\n"
        "from decisis.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('BUILT', sorted(set(built)))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECISIS_")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
    )
    line = next(x for x in result.stdout.splitlines() if x.startswith("BUILT"))
    return list(eval(line.removeprefix("BUILT ")))


def test_running_a_command_builds_it_alone(tmp_path: Path) -> None:
    assert _built_while_running(tmp_path, ["goals"]) == ["goals"]
    assert _built_while_running(tmp_path, ["--graph", "g", "key", "new", "--help"]) == ["new"]


def test_an_unknown_command_keeps_them_all_so_click_can_say_what_exists(tmp_path: Path) -> None:
    assert len(_built_while_running(tmp_path, ["gaols"])) > 40


@pytest.mark.parametrize("args", [["--help"], [], ["--version"], ["--json"]])
def test_output_with_no_command_is_what_the_whole_app_prints(args: list[str]) -> None:
    runner = CliRunner()
    whole = runner.invoke(app, args, prog_name="decisis", env={"COLUMNS": "120"})
    with only_needed(app, args):
        listed = runner.invoke(app, args, prog_name="decisis", env={"COLUMNS": "120"})
    assert (listed.exit_code, listed.output) == (whole.exit_code, whole.output)
    if args == ["--help"]:
        assert "supersede" in listed.output and "link-commit" in listed.output


def test_the_app_is_whole_again_after(tmp_path: Path) -> None:
    before = list(app.registered_commands)
    with only_needed(app, ["goals"]):
        assert len(app.registered_commands) == 1
    assert app.registered_commands == before
