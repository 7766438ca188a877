"""Dates and statuses in the forms teams write them, read through whole records and directly."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from decisis.adr import AdrStatus, read_record
from decisis.adr.dates import find_date, parse_date
from decisis.adr.status import normalise_status

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
