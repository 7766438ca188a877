"""Symbolic links in an ADR folder, real ones in tmp_path (issue #31, part 8).

Not followed by default: a link can lead out of the folder (its text would be stored as a
team's record) or back into it (a loop once aborted the whole ingest with a traceback). Each
link left alone is a problem naming it and how to follow it; followed, a loop is one problem
and the rest of the folder is read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.adr import ReadResult, read_folder, read_record
from decisis.adr.link.ingest import ingest


def _record(n: int, title: str, body: str = "We do it.") -> str:
    head = f"# {n}. {title}\n\nDate: 2020-01-0{n}\n\n## Status\n\nAccepted\n\n"
    return head + f"## Decision\n\n{body}\n"


@pytest.fixture
def folders(tmp_path: Path) -> Path:
    """``adr/`` with one record and links: to a record outside, to a folder of records
    outside, to itself (a loop), to the folder it is in (a loop) and to nothing."""
    outside = tmp_path / "outside"
    (outside / "more").mkdir(parents=True)
    (outside / "0002-secret.md").write_text(_record(2, "Secret", "SECRET TEXT"), encoding="utf-8")
    (outside / "more" / "0001-other.md").write_text(_record(1, "Other"), encoding="utf-8")
    adr = tmp_path / "adr"
    adr.mkdir()
    (adr / "0001-use-x.md").write_text(_record(1, "Use X"), encoding="utf-8")
    (adr / "0002-secret.md").symlink_to(outside / "0002-secret.md")
    (adr / "more").symlink_to(outside / "more", target_is_directory=True)
    (adr / "0003-loop.md").symlink_to(adr / "0003-loop.md")
    (adr / "self").symlink_to(adr, target_is_directory=True)
    (adr / "0004-gone.md").symlink_to(tmp_path / "nowhere.md")
    return adr


def _problems(result: ReadResult) -> dict[str, str]:
    return {problem.path.name: problem.reason for problem in result.problems}


def test_links_are_not_followed_and_each_is_reported(folders: Path) -> None:
    result = read_folder(folders)
    assert [r.key for r in result.records] == ["adr:0001"]
    assert all("SECRET" not in r.body for r in result.records)
    problems = _problems(result)
    assert set(problems) == {"0002-secret.md", "more", "0003-loop.md", "self", "0004-gone.md"}
    for reason in problems.values():
        assert "symbolic link" in reason and "not followed" in reason
        assert "follow_symlinks=True" in reason and "--follow-symlinks" in reason
    assert str(folders.parent / "outside" / "0002-secret.md") in problems["0002-secret.md"]


def test_followed_links_are_read_and_a_loop_is_one_problem(folders: Path) -> None:
    result = read_folder(folders, follow_symlinks=True)
    assert {r.key for r in result.records} == {"adr:0001", "adr:0002", "more:0001"}
    assert "SECRET TEXT" in result.by_key()["adr:0002"].body
    problems = _problems(result)
    assert set(problems) == {"0003-loop.md", "self"}
    assert "loop" in problems["0003-loop.md"] and "loop" in problems["self"]
    # a link to nothing is a missing file, as before: a problem only when it was a record name
    assert "0004-gone.md" not in problems


def test_a_loop_deeper_down_does_not_stop_the_folder(tmp_path: Path) -> None:
    adr = tmp_path / "adr"
    (adr / "team").mkdir(parents=True)
    (adr / "team" / "001-a.md").write_text(_record(1, "A"), encoding="utf-8")
    (adr / "team" / "up").symlink_to(adr, target_is_directory=True)
    (adr / "team" / "x").symlink_to(adr / "team" / "x")  # a loop with no Markdown name
    result = read_folder(adr, follow_symlinks=True)
    assert [r.key for r in result.records] == ["team:001"]
    assert sorted(p.path.name for p in result.problems) == ["up", "x"]
    assert sorted(p.path.name for p in read_folder(adr).problems) == ["up"]  # x is no record


def test_the_folder_named_is_read_even_when_it_is_a_link(folders: Path, tmp_path: Path) -> None:
    named = tmp_path / "named"
    named.symlink_to(folders, target_is_directory=True)
    assert [r.key for r in read_folder(named).records] == ["adr:0001"]


def test_read_record_beside_a_loop_reads_the_record(folders: Path) -> None:
    assert read_record(folders / "0001-use-x.md").key == "adr:0001"


def test_ingest_passes_follow_symlinks_through(folders: Path) -> None:
    with decisis.open("memory://") as graph:
        report = ingest(graph, folders)
        assert len(report.added) == 1 and len(report.problems) == 5
        again = ingest(graph, folders, follow_symlinks=True)
        assert len(again.added) == 2 and len(again.problems) == 2
