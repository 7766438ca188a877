"""Dates and statuses in the forms teams write them, read through whole records and directly."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from decisis.adr import AdrStatus, read_folder, read_record
from decisis.adr.read.dates import find_date, parse_date
from decisis.adr.read.status import normalise_status

WriteFn = Callable[[str, str | bytes], Path]


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("2019-06-01", date(2019, 6, 1)),
        ("2019/06/01", date(2019, 6, 1)),
        ("01/06/2019", date(2019, 6, 1)),  # UK: day first
        ("1/6/2019", date(2019, 6, 1)),
        ("10/04/18", date(2018, 4, 10)),
        ("31.12.2020", date(2020, 12, 31)),
        ("06/13/2019", date(2019, 6, 13)),  # day first impossible: month first
        ("1st June 2019", date(2019, 6, 1)),
        ("22nd of March, 2021", date(2021, 3, 22)),
        ("June 1, 2019", date(2019, 6, 1)),
        ("Sept 3rd 2021", date(2021, 9, 3)),
        ("June 2020", date(2020, 6, 1)),
        ("Jun. 2020", date(2020, 6, 1)),
        ("2020-06", date(2020, 6, 1)),
        ("2019-06-01T10:15:00Z", date(2019, 6, 1)),
        ("Q2 2022", date(2022, 4, 1)),  # the first day of the quarter
        ("2022-Q4", date(2022, 10, 1)),
        ("2024", date(2024, 1, 1)),  # a bare year, only as a Date: value
    ],
)
def test_date_field_forms(write: WriteFn, written: str, expected: date) -> None:
    assert parse_date(written) == expected
    text = f"# 2. Thing\n\nDate: {written}\n\n## Status\n\nAccepted\n\n## Decision\n\nDone.\n"
    assert read_record(write("002-thing.md", text)).date == expected


@pytest.mark.parametrize(
    "written",
    [
        "soon",
        "32/13/2019",
        "2019-02-30",
        "v2",
        "DATE",
        "we decided 2019",
        "",
        "Q5 2022",
        "FAQ 2022",
    ],
)
def test_not_dates(written: str) -> None:
    assert find_date(written) is None
    assert written == "2019" or parse_date(written) is None


def test_first_date_in_running_text_wins_whole() -> None:
    assert find_date("Superseded on 1st June 2020, reviewed 2021-01-01") == date(2020, 6, 1)
    assert find_date("mid-May 2022 update") == date(2022, 5, 1)
    assert find_date("We decided to march on in 2019") is None


def test_date_only_in_the_status_line(write: WriteFn) -> None:
    text = "# 3. Thing\n\n## Status\n\nAccepted on 3rd March 2021\n\n## Decision\n\nDone.\n"
    record = read_record(write("003-thing.md", text))
    assert record.date == record.status_date == date(2021, 3, 3)


def test_date_line_wins_over_status_date(write: WriteFn) -> None:
    text = "# 4. Thing\n\nDate: 2019-01-01\n\n## Status\n\nSuperseded by ADR 9 in June 2020\n"
    record = read_record(write("004-thing.md", text))
    assert (record.date, record.status_date) == (date(2019, 1, 1), date(2020, 6, 1))


def test_date_line_after_the_status_section(write: WriteFn) -> None:
    text = "# 5. Thing\n\n## Status\n\nAccepted\n\nDate: 05/02/2018\n\n## Decision\n\nDone.\n"
    assert read_record(write("005-thing.md", text)).date == date(2018, 2, 5)


def test_date_without_colon_and_in_bold(write: WriteFn) -> None:
    assert read_record(write("006-a.md", "# 6. A\n\nDate 09/04/2018\n")).date == date(2018, 4, 9)
    assert read_record(write("007-b.md", "# 7. B\n\n**Date:** 2020-06\n")).date == date(2020, 6, 1)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Accepted", AdrStatus.ACCEPTED),
        ("\u2705 Accepted (documenting an existing thing)", AdrStatus.ACCEPTED),
        ("Approved", AdrStatus.ACCEPTED),
        ("Implemented", AdrStatus.ACCEPTED),
        ("Proposed", AdrStatus.PROPOSED),
        ("Draft", AdrStatus.PROPOSED),
        ("\U0001f914 Incomplete", AdrStatus.PROPOSED),
        ("Rejected", AdrStatus.REJECTED),
        ("Not accepted", AdrStatus.REJECTED),
        ("Withdrawn", AdrStatus.REJECTED),
        ("Deprecated", AdrStatus.DEPRECATED),
        ("Obsolete", AdrStatus.DEPRECATED),
        ("Superseded", AdrStatus.SUPERSEDED),
        ("Replaced by ADR 12", AdrStatus.SUPERSEDED),
        ("Superceded by [7](007-x.md)", AdrStatus.SUPERSEDED),
        ("Partly superseded", AdrStatus.AMENDED),
        ("Partially replaced by [7](007-x.md)", AdrStatus.AMENDED),
        ("Accepted\nAmended by [7](007-x.md)", AdrStatus.AMENDED),
        ("Accepted\nSupersedes [3](003-x.md)", AdrStatus.ACCEPTED),
        ("Accepted\nAmends [3](003-x.md)", AdrStatus.ACCEPTED),
        ("Deprecated in favour of ADR 7", AdrStatus.DEPRECATED),
        ("\u231b\ufe0f", AdrStatus.SUPERSEDED),
        ("\u274c", AdrStatus.REJECTED),
        ("", AdrStatus.UNKNOWN),
        ("Under the sea", AdrStatus.UNKNOWN),
        ("~~Accepted~~ Deprecated", AdrStatus.DEPRECATED),  # struck through: withdrawn
        ("<del>Proposed</del> Accepted", AdrStatus.ACCEPTED),
        ("<s>Accepted</s>\nSuperseded by [7](007-x.md)", AdrStatus.SUPERSEDED),
        ("~~Accepted~~", AdrStatus.UNKNOWN),
    ],
)
def test_normalise_status(text: str, status: AdrStatus) -> None:
    assert normalise_status(text) is status


def test_narrative_in_the_status_section_is_not_status(write: WriteFn) -> None:
    text = (
        "# 8. Thing\n\n## Status\n\n\u2705 Accepted\n\n"
        "**June 2020 Update** We were later superseded in practice by other work.\n\n"
        "## Decision\n\nDone.\n"
    )
    record = read_record(write("008-thing.md", text))
    assert (record.status, record.status_text) == (AdrStatus.ACCEPTED, "\u2705 Accepted")
    assert record.status_date is None


@pytest.mark.parametrize(
    ("title", "banner", "status", "clean"),
    [
        (
            "004 — OUTDATED Use DynamoDB",
            "This ADR was superceded by [ADR 7](007-x.md).",
            "superseded",
            "Use DynamoDB",
        ),
        ("(Deprecated) Use DynamoDB", "We store data in DynamoDB.", "deprecated", "Use DynamoDB"),
        (
            "Deprecated APIs are removed",
            "We remove deprecated APIs after a year.",
            "unknown",
            "Deprecated APIs are removed",
        ),
    ],
)
def test_title_marks_and_banners_say_the_record_no_longer_holds(
    write: WriteFn, title: str, banner: str, status: str, clean: str
) -> None:
    write("007-x.md", "# 7. X\n\n## Decision\n\nX.\n")
    record = read_record(write("004-y.md", f"# {title}\n\n{banner}\n\n## Chosen Decision\n\nY.\n"))
    assert (record.status.value, record.title) == (status, clean)
    if status == "superseded":
        [link] = record.links
        assert (link.target_key, link.kind, link.role) == ("team:007", "status", "successor")


def test_a_banner_heading_names_the_successor(write: WriteFn) -> None:
    write("028-new.md", "# New\n\n## Decision\n\nNew.\n")
    text = "# OUTDATED Old\n\n## This ADR has been superseded by [028-new](028-new.md)\n\nOld.\n"
    record = read_record(write("005-old.md", text))
    assert record.status is AdrStatus.SUPERSEDED
    assert [(x.target_key, x.kind, x.role) for x in record.links] == [
        ("team:028", "status", "successor")
    ]


def test_a_folder_writing_month_first_is_read_month_first(write: WriteFn, team: Path) -> None:
    body = "# {n}. R\n\n- Status: Decided\n- Date: {d}\n\n## Decision\n\nX.\n"
    write("001-a.md", body.format(n=1, d="5/23/2023"))
    write("002-b.md", body.format(n=2, d="07/05/2024"))
    dates = {r.key: r.date for r in read_folder(team).records}
    assert dates == {"team:001": date(2023, 5, 23), "team:002": date(2024, 7, 5)}
    write("003-c.md", body.format(n=3, d="23/05/2023"))  # now the folder disagrees: day first
    assert read_folder(team).by_key()["team:002"].date == date(2024, 5, 7)
