"""ADR authoring (decisis.adr.write): records written by ``new_record`` and ``link_records``
read back as written, supersede in the old record's own format, and are walked by ``ask``."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

import decisis
from decisis.adr import AdrStatus, ask, ingest, read_folder, read_record
from decisis.adr.read.keys import number_in_name
from decisis.adr.write import link_records, list_records, new_record
from decisis.errors import InvalidInput

DATA = Path(__file__).resolve().parents[2] / "data"
DAY = dt.date(2024, 5, 1)


def _day(n: int) -> dt.date:
    return DAY + dt.timedelta(days=n)


def _written_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "payments"
    new_record("Record architecture decisions", folder=folder, today=_day(0))
    new_record("Store payment ledgers in MySQL", folder=folder, fmt="madr", today=_day(1))
    new_record("Store payment ledgers in PostgreSQL", folder=folder, supersedes=2, today=_day(2))
    new_record("Store payment ledgers in CockroachDB", folder=folder, fmt="madr", supersedes=3,
               today=_day(3))  # fmt: skip
    return folder


def test_written_records_read_back_with_titles_statuses_dates(tmp_path: Path) -> None:
    folder = _written_folder(tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == [
        "0001-record-architecture-decisions.md",
        "0002-store-payment-ledgers-in-mysql.md",
        "0003-store-payment-ledgers-in-postgresql.md",
        "0004-store-payment-ledgers-in-cockroachdb.md",
    ]
    records = read_folder(folder).records
    assert [(r.number, r.title, r.status, r.date, r.format) for r in records] == [
        (1, "Record architecture decisions", AdrStatus.ACCEPTED, _day(0), "nygard"),
        (2, "Store payment ledgers in MySQL", AdrStatus.SUPERSEDED, _day(1), "madr"),
        (3, "Store payment ledgers in PostgreSQL", AdrStatus.SUPERSEDED, _day(2), "nygard"),
        (4, "Store payment ledgers in CockroachDB", AdrStatus.ACCEPTED, _day(3), "madr"),
    ]
    assert records[1].status_text == (
        "Superseded by [3. Store payment ledgers in PostgreSQL]"
        "(0003-store-payment-ledgers-in-postgresql.md)"
    )
    assert "Supersedes [2. Store payment ledgers in MySQL]" in records[2].body


def test_list_says_what_replaced_each(tmp_path: Path) -> None:
    listed = {e.record.number: e.replaced_by for e in list_records(_written_folder(tmp_path))}
    assert listed == {1: (), 2: ("payments:0003",), 3: ("payments:0004",), 4: ()}


def test_ask_walks_from_the_old_record_to_the_new(tmp_path: Path) -> None:
    folder = _written_folder(tmp_path)
    with decisis.open("memory://") as graph:
        report = ingest(graph, folder)
        assert len(report.added) == 4
        answer = ask(graph, "Where do we store payment ledgers? MySQL?")
    assert answer.answer == "payments:0004"
    assert answer.chain[-1] == "payments:0004"
    assert "payments:0002" in answer.chain or "payments:0003" in answer.chain


def _copy(tmp_path: Path, source: str, names: list[str]) -> Path:
    folder = tmp_path / Path(source).name
    folder.mkdir()
    for name in names:
        shutil.copy(DATA / source / name, folder / name)
    return folder


# (folder, files copied, number superseded, the status as written, format the reader sees)
REAL = [
    ("adr-corpus/cloud-platform",
     ["003-Use-Concourse-CI.md", "004-use-kubernetes-for-container-management.md"],
     3, "✅ Accepted", "nygard"),
    ("corpora/mc-review",
     ["024-remove-protobufs.md", "031-migrate-from-serverless-to-cdk.md"],
     24, "Proposed", "log4brains"),
    ("corpora/mc-review", ["031-migrate-from-serverless-to-cdk.md"], 31, "Accepted", "nygard"),
    ("corpora/hydra",
     ["2022-03-23_016-keep-rejected-adr.md", "2022-03-28_017-udp-networking.md"],
     16, "Accepted", None),
]  # fmt: skip


@pytest.mark.parametrize(("source", "names", "number", "status", "fmt"), REAL)
def test_superseding_a_real_record_changes_only_its_status(
    tmp_path: Path, source: str, names: list[str], number: int, status: str, fmt: str | None
) -> None:
    folder = _copy(tmp_path, source, names)
    old_path = next(p for p in folder.iterdir() if f"{number:03d}-" in p.name)
    before = old_path.read_text(encoding="utf-8")
    assert fmt is None or read_record(old_path).format == fmt
    written = new_record("Replace it", folder=folder, supersedes=number, today=DAY)
    assert written.created is not None
    highest = max(int(number_in_name(name) or 0) for name in names)
    assert written.created.name == f"{highest + 1:03d}-replace-it.md"  # the folder's width
    line = f"Superseded by [{written.number}. Replace it]({written.created.name})"
    after = old_path.read_text(encoding="utf-8")
    assert before.count(status) >= 1
    at = before.index("Status")  # the status as the reader reads it (hydra's tags are not)
    assert after == before[:at] + before[at:].replace(status, line, 1)  # the rest as it was
    old = read_record(old_path)
    assert old.status is AdrStatus.SUPERSEDED
    new = read_record(written.created)
    assert new.status is AdrStatus.ACCEPTED and new.date == DAY
    listed = {e.record.path.name: e for e in list_records(folder)}
    assert set(listed) == {*names, written.created.name}
    key = listed[written.created.name].record.key
    assert listed[old_path.name].replaced_by == (key,)


def test_a_record_without_a_status_gets_one_in_its_own_form(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "corpora/mc-review", ["003-deploy-automatically-to-prod.md"])
    old = folder / "003-deploy-automatically-to-prod.md"
    before = old.read_text(encoding="utf-8")
    new_record("Deploy with approvals", folder=folder, supersedes=3, today=DAY)
    after = old.read_text(encoding="utf-8")
    added = (
        "## Status\n\nSuperseded by [4. Deploy with approvals](004-deploy-with-approvals.md)\n\n"
    )
    assert after.replace(added, "", 1) == before
    assert read_record(old).status is AdrStatus.SUPERSEDED


def test_front_matter_status_is_edited_in_the_front_matter(tmp_path: Path) -> None:
    folder = tmp_path / "adr"
    folder.mkdir()
    text = "---\r\nstatus: accepted\r\ndate: 2021-02-03\r\n---\r\n\r\n# Use Kafka\r\n\r\nBody.\r\n"
    (folder / "0001-use-kafka.md").write_bytes(text.encode("utf-8"))
    new_record("Use Pulsar: streams", folder=folder, fmt="madr", supersedes=1, today=DAY)
    after = (folder / "0001-use-kafka.md").read_bytes().decode("utf-8")
    line = 'status: "Superseded by [2. Use Pulsar: streams](0002-use-pulsar-streams.md)"'
    assert after == text.replace("status: accepted", line)  # CRLF kept
    old = read_record(folder / "0001-use-kafka.md")
    assert old.status is AdrStatus.SUPERSEDED and old.date == dt.date(2021, 2, 3)


def test_link_adds_status_lines_both_ways(tmp_path: Path) -> None:
    folder = _written_folder(tmp_path)
    first = folder / "0001-record-architecture-decisions.md"
    before = first.read_text(encoding="utf-8")
    link_records(4, "Amends", 1, reverse="Amended by", folder=folder)
    new = "0004-store-payment-ledgers-in-cockroachdb.md"
    line = f"Amended by [4. Store payment ledgers in CockroachDB]({new})"
    assert first.read_text(encoding="utf-8") == before.replace(
        "Accepted\n", f"Accepted\n\n{line}\n", 1
    )
    records = {r.number: r for r in read_folder(folder).records}
    assert records[1].status is AdrStatus.AMENDED
    assert "Amends [1. Record architecture decisions]" in records[4].body
    assert records[4].status is AdrStatus.ACCEPTED


def test_numbers_follow_the_folder_and_adr_dir(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    work = repo / "src" / "deep"
    work.mkdir(parents=True)
    (repo / ".adr-dir").write_text("docs/decisions\n", encoding="utf-8")
    folder = repo / "docs" / "decisions"
    folder.mkdir(parents=True)
    (folder / "007-old.md").write_text("# 7. Old\n\n## Status\n\nAccepted\n", encoding="utf-8")
    written = new_record("  Next one!  ", cwd=work, today=DAY)
    assert written.created == folder / "008-next-one.md"
    assert read_record(written.created).title == "Next one!"
    default = new_record("First", cwd=tmp_path / "elsewhere", today=DAY)
    assert default.created == tmp_path / "elsewhere" / "doc" / "adr" / "0001-first.md"


@pytest.mark.parametrize(
    ("kwargs", "field", "allowed"),
    [
        ({"title": "X", "fmt": "asciidoc"}, "format", "madr, nygard"),
        ({"title": "X", "supersedes": 9}, "supersedes", "one of 7"),
        ({"title": "   "}, "title", "one-line title"),
        ({"title": "{short title}"}, "title", "one-line title"),
    ],
)
def test_refusals_name_the_field_and_what_is_allowed(
    tmp_path: Path, kwargs: dict[str, object], field: str, allowed: str
) -> None:
    (tmp_path / "007-old.md").write_text("# 7. Old\n\n## Status\n\nAccepted\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        new_record(folder=tmp_path, today=DAY, **kwargs)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert allowed in (caught.value.allowed or "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["007-old.md"]  # nothing written


def test_a_file_is_not_a_folder(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "notes.md"
    not_a_folder.write_text("x", encoding="utf-8")
    for call in (
        lambda: new_record("X", folder=not_a_folder),
        lambda: list_records_of(not_a_folder),
        lambda: link_records(1, "Amends", 2, folder=not_a_folder),
    ):
        with pytest.raises(InvalidInput) as caught:
            call()
        assert caught.value.field == "dir" and "folder" in (caught.value.allowed or "")


def list_records_of(folder: Path) -> object:
    from decisis.adr.write import folder_to_read

    return list_records(folder_to_read(folder))
