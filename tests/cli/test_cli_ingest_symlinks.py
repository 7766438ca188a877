"""``decisis ingest --follow-symlinks``: links in an ADR folder are skipped, and said so, unless
asked for; a loop is one skipped entry, not a traceback."""

from __future__ import annotations

from pathlib import Path

from cli_support import Cli

RECORD = "# {n}. {title}\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nWe do.\n"


def _team(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "002-elsewhere.md").write_text(RECORD.format(n=2, title="Elsewhere"), "utf-8")
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-here.md").write_text(RECORD.format(n=1, title="Here"), "utf-8")
    (team / "002-elsewhere.md").symlink_to(outside / "002-elsewhere.md")
    (team / "loop").symlink_to(team, target_is_directory=True)
    return team


def test_links_are_skipped_and_said_so_unless_followed(cli: Cli, tmp_path: Path) -> None:
    team = _team(tmp_path)
    result = cli("ingest", str(team))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1 added")
    skipped = [line for line in result.stderr.splitlines() if line.startswith("skipped")]
    assert len(skipped) == 2 and all("--follow-symlinks" in line for line in skipped)
    assert any("002-elsewhere.md" in line for line in skipped)

    followed = cli("ingest", "--follow-symlinks", str(team))
    assert followed.exit_code == 0, followed.output
    assert followed.stdout.startswith("1 added, 0 updated, 1 unchanged")
    assert "Traceback" not in followed.output
    [loop] = [line for line in followed.stderr.splitlines() if line.startswith("skipped")]
    assert str(team / "loop") in loop and "a loop" in loop
    report = cli.json("ingest", "--follow-symlinks", str(team))
    assert [p["path"] for p in report["problems"]] == [str(team / "loop")]
