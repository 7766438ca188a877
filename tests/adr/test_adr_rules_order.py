"""The records written before or after one are the ones ``RuleContext.later`` says."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from decisis.adr.link.rules import RuleContext
from decisis.adr.read.records import AdrRecord, AdrStatus


def _record(folder: str, name: str, number: int | None, date: dt.date | None) -> AdrRecord:
    return AdrRecord(
        key=f"{folder}:{name}",
        folder=folder,
        number=number,
        path=Path(f"{folder}/{name}.md"),
        title=f"Record {name}",
        status=AdrStatus.ACCEPTED,
        status_text="Accepted",
        date=date,
        decision="We decide.",
        context="",
        body="We decide.",
        summary="",
        links=(),
        content_hash="sha256:0",
        format="nygard",
    )


def _records() -> list[AdrRecord]:
    """Dates out of number order, ties on date and number, undated and unnumbered ones."""
    day = dt.date(2020, 1, 1)
    later = dt.date(2021, 6, 1)
    return [
        _record("a", "003", 3, day),
        _record("a", "001", 1, later),
        _record("b", "001", 1, day),
        _record("a", "002", 2, day),
        _record("a", "x", None, day),
        _record("a", "004", 2, day),  # the same date and number as "a:002"
        _record("a", "005", 5, None),
        _record("a", "y", None, None),
        _record("b", "002", 2, later),
    ]


def test_written_after_and_before_are_the_later_filter_in_folder_order() -> None:
    ctx = RuleContext(_records())
    for record in ctx.records:
        folder = ctx.by_folder[record.folder]
        assert ctx.written_after(record) == [r for r in folder if ctx.later(record, r)]
        assert ctx.written_before(record) == [r for r in folder if ctx.later(r, record)]
        assert ctx.written_before(record, same_time=True) == [
            r for r in folder if not ctx.later(record, r)
        ]


def test_records_of_the_same_date_and_number_are_neither_before_nor_after() -> None:
    ctx = RuleContext(_records())
    second = ctx.by_key["a:002"]
    keys = [r.key for r in ctx.written_before(second, same_time=True)]
    assert "a:004" in keys and "a:002" in keys
    assert "a:004" not in [r.key for r in ctx.written_before(second)]
    assert "a:004" not in [r.key for r in ctx.written_after(second)]
