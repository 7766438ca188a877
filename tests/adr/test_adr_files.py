"""Which files are records, their keys, folders of folders, and files that cannot be read."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

import decisis
from decisis.adr import MAX_RECORD_BYTES, NotARecord, read_folder, read_record
from decisis.adr.link.ingest import ingest
from decisis.adr.read.keys import build_index, file_date, file_key, number_in_name
from decisis.errors import InvalidInput

WriteFn = Callable[[str, str | bytes], Path]

GOOD = (
    "# {n}. Use things\n\nDate: 2020-01-01\n\n"
    "## Status\n\nAccepted\n\n## Decision\n\nWe use things.\n"
)


@pytest.mark.parametrize(
    ("name", "key", "number"),
    [
        ("0038-mongo_replacement_by_documentdb.md", "team:0038", 38),
        ("012-One-cluster.md", "team:012", 12),
        ("7-short.md", "team:7", 7),
        ("ADR-021-use-x.md", "team:021", 21),
        ("adr_0005.md", "team:0005", 5),
        ("Use Redis for Caching.md", "team:use-redis-for-caching", None),
        ("20200926-use-log4brains.md", "team:20200926-use-log4brains", None),
        ("1password-for-secrets.md", "team:1password-for-secrets", None),
        ("2023-04-26_023-local-chain-state.md", "team:023", 23),
        ("2023-10-16_028_offline_adr.md", "team:028", 28),
        ("20230426-0023-x.md", "team:0023", 23),
        ("2023-04-26-use-x.md", "team:2023-04-26-use-x", None),
    ],
)
def test_keys_from_file_names(name: str, key: str, number: int | None) -> None:
    fk = file_key("team", name)
    assert (fk.key, fk.number) == (key, number)


def test_duplicate_numbers_keep_every_record() -> None:
    index = build_index("team", ["003-b.md", "003-a.md", "004-c.md"])
    assert {name: fk.key for name, fk in index.keys.items()} == {
        "003-a.md": "team:003",
        "003-b.md": "team:003-b",
        "004-c.md": "team:004",
    }
    assert index.key_for_number(3) == "team:003"
    assert number_in_name("12345678-x.md") == "12345678"  # not a date: a (large) number


@pytest.mark.parametrize(
    ("name", "when"),
    [
        ("2023-04-26_023-local-chain-state.md", "2023-04-26"),
        ("20200926-use-log4brains.md", "2020-09-26"),
        ("0023-x.md", None),
        ("2023-13-40_001-x.md", None),
    ],
)
def test_dates_in_file_names(name: str, when: str | None) -> None:
    found = file_date(name)
    assert (found.isoformat() if found else None) == when


def test_non_records_are_skipped_by_name_and_content(write: WriteFn, team: Path) -> None:
    write("0001-use-things.md", GOOD.format(n=1))
    write("Use Redis.md", GOOD.format(n="").replace("# . ", "# "))
    for name in (
        "README.md",
        "index.md",
        "SOURCES.md",
        "adr-template.md",
        "_sidebar.md",
        ".hidden.md",
    ):
        write(name, GOOD.format(n=9))
    write("notes.md", "# Meeting notes\n\nWe talked.\n")
    write(
        "0000-adr-form.md",
        "# {short title of solved problem and solution}\n\n## Status\n\n{proposed}\n",
    )
    write("0002-diagram.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    write("LICENSE", "MIT")
    result = read_folder(team)
    assert [r.key for r in result.records] == ["team:0001", "team:use-redis"]
    assert result.problems == []
    assert sorted(p.name for p in result.skipped) == ["0000-adr-form.md", "notes.md"]


def test_folder_of_folders(tmp_path: Path) -> None:
    for folder, name in [("alpha", "001-a.md"), ("beta", "0001-b.md"), ("beta", "0002-c.md")]:
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(GOOD.format(n=1))
    (tmp_path / "README.md").write_text("# Our decisions\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "001-x.md").write_text(GOOD.format(n=1))
    result = read_folder(tmp_path)
    assert [r.key for r in result.records] == ["alpha:001", "beta:0001", "beta:0002"]
    assert [r.folder for r in result.records] == ["alpha", "beta", "beta"]


def test_a_folder_with_its_own_records_and_subfolders(tmp_path: Path) -> None:
    root = tmp_path / "decisions"
    (root / "frontend").mkdir(parents=True)
    (root / "001-root.md").write_text(GOOD.format(n=1))
    (root / "frontend" / "001-ui.md").write_text(GOOD.format(n=1))
    assert [r.key for r in read_folder(root).records] == ["decisions:001", "frontend:001"]


def test_subfolders_with_the_same_name_get_path_keys(tmp_path: Path) -> None:
    for team in ("team-a", "team-b"):
        (tmp_path / team / "decisions").mkdir(parents=True)
        (tmp_path / team / "decisions" / "001-x.md").write_text(GOOD.format(n=1))
    keys = [r.key for r in read_folder(tmp_path).records]
    assert keys == ["team-a/decisions:001", "team-b/decisions:001"]


def test_a_subfolder_named_like_the_root(tmp_path: Path) -> None:
    root = tmp_path / "decisions"
    (root / "decisions").mkdir(parents=True)
    (root / "001-top.md").write_text(GOOD.format(n=1))
    (root / "decisions" / "001-nested.md").write_text(GOOD.format(n=1))
    keys = [r.key for r in read_folder(root).records]
    assert keys == ["decisions:001", "decisions/decisions:001"]


def test_read_folder_refuses_what_is_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="is not a folder"):
        read_folder(tmp_path / "missing")
    (tmp_path / "file.md").write_text(GOOD.format(n=1))
    with pytest.raises(InvalidInput, match="is not a folder"):
        read_folder(tmp_path / "file.md")


@pytest.mark.parametrize("folders", [[["a", "b"]], [5], ["ok", None]])
def test_ingest_refuses_what_is_not_a_path_and_writes_nothing(
    tmp_path: Path, folders: list[object]
) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "001-x.md").write_text(GOOD.format(n=1))
    with decisis.open("memory://") as graph:
        named = [tmp_path / f if f == "ok" else f for f in folders]
        with pytest.raises(InvalidInput, match="is not a path"):
            ingest(graph, *named)  # type: ignore[arg-type]
        assert graph.store.head(graph.name)[0] == 0


BAD_FILES: list[tuple[str, bytes, str]] = [
    ("0002-garbage.md", b"lorem ipsum dolor sit amet\nno heading, nothing at all\n", "no title"),
    ("0003-binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10, "binary"),
    ("0004-latin1.md", "# 4. Caf\u00e9 choice\n\nWe chose it.\n".encode("latin-1"), "not UTF-8"),
    ("0005-empty.md", b"", "empty"),
    ("0006-blank.md", b"  \n\n\t\n", "empty"),
    ("0007-huge.md", b"# 7. Huge\n\n" + b"x" * MAX_RECORD_BYTES, "limit"),
    ("0008-controls.md", bytes(range(1, 32)) * 40, "binary"),
]


def test_bad_files_are_problems_and_the_rest_loads(write: WriteFn, team: Path) -> None:
    write("0001-good.md", GOOD.format(n=1))
    write("0009-good-too.md", GOOD.format(n=9))
    for name, data, _ in BAD_FILES:
        write(name, data)
    result = read_folder(team)
    assert [r.key for r in result.records] == ["team:0001", "team:0009"]
    reasons = {p.path.name: p.reason for p in result.problems}
    assert set(reasons) == {name for name, _, _ in BAD_FILES}
    for name, _, reason in BAD_FILES:
        assert reason in reasons[name], (name, reasons[name])
        assert str(team) not in reasons[name]  # the path is the problem's own field
    assert "1,048,576-byte limit" in reasons["0007-huge.md"]


@pytest.mark.parametrize(("name", "data", "reason"), BAD_FILES)
def test_read_record_raises_invalid_input_naming_path_and_expectation(
    write: WriteFn, name: str, data: bytes, reason: str
) -> None:
    path = write(name, data)
    with pytest.raises(InvalidInput) as caught:
        read_record(path)
    assert caught.value.field == "path"
    assert str(path) in str(caught.value) and reason in str(caught.value)
    assert caught.value.allowed is not None and "UTF-8 Markdown ADR" in caught.value.allowed
    assert isinstance(caught.value, ValueError)


def test_read_record_on_a_template_or_missing_file(write: WriteFn, team: Path) -> None:
    template = write("0000-form.md", "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nProposed\n")
    with pytest.raises(NotARecord, match="template"):
        read_record(template)
    with pytest.raises(InvalidInput, match="is not a file"):
        read_record(team / "0404-missing.md")


def test_content_hash_follows_the_bytes(write: WriteFn) -> None:
    first = read_record(write("0001-a.md", GOOD.format(n=1)))
    again = read_record(write("0001-a.md", GOOD.format(n=1)))
    changed = read_record(write("0001-a.md", GOOD.format(n=1) + "\nMore.\n"))
    assert first.content_hash == again.content_hash != changed.content_hash
    assert first.content_hash.startswith("sha256:") and len(first.content_hash) == 7 + 64


def test_hostile_markdown_stays_fast(write: WriteFn) -> None:
    """Unclosed emphasis, brackets and backticks in a large file must not backtrack for ever."""
    line = "*a _b `c [d](e ** __ ~~ [ADR-1 ![x]( <http " * 40
    write("0001-hostile.md", "# 1. Hostile\n\n## Decision\n\n" + (line + "\n") * 200)
    start = time.perf_counter()
    record = read_record(write("0002-ok.md", GOOD.format(n=2)))
    assert record.key == "team:0002"
    result = read_folder(write("0003-x.md", GOOD.format(n=3)).parent)
    assert [r.key for r in result.records][:1] == ["team:0001"]
    assert time.perf_counter() - start < 20


@pytest.mark.parametrize(
    ("unit", "repeat"),
    [
        ("[ADR-0001](0001-a.md) ", 30_000),  # a link each few bytes: blanked in one pass
        ("the migration to [x](0002-b.md) ", 20_000),
        ("[a](", 200_000),  # unclosed link targets: each ends at the next bracket
        ("`", 1_000_000),  # one run of backticks: no fence closes it, no code span
        ("# a\n", 250_000),  # a heading a line: each section ends at the next one
    ],
)
def test_records_full_of_links_are_read_and_linked_in_linear_time(
    write: WriteFn, unit: str, repeat: int
) -> None:
    """Both records near the size limit; quadratic passes took minutes on these."""
    for n in (1, 2):
        write(f"000{n}-x.md", GOOD.format(n=n) + "\n" + unit * repeat + "\n")
    start = time.perf_counter()
    with decisis.open("memory://") as graph:
        report = ingest(graph, write("0003-x.md", GOOD.format(n=3)).parent)
    assert len(report.added) == 3 and not report.problems
    assert time.perf_counter() - start < 60
