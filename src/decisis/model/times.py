"""One way to write and read timestamps: timezone-aware UTC, ISO 8601 with microseconds and ``Z``.

The fixed width makes the text sort like the time it names, so stores compare
timestamps as strings and the ledger hashes them byte for byte the same everywhere.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from decisis.errors import InvalidInput

__all__ = ["format_time", "parse_time", "utc_now"]

_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_last: list[tuple[object, str]] = [(None, "")]  # format_time's last (datetime, text)


def utc_now() -> datetime:
    return datetime.now(UTC)


def format_time(value: datetime) -> str:
    """``2026-11-29T20:11:03.123456Z``: the canonical form stored and hashed. The last
    time written is kept: a record's times are often one instant, written many times."""
    last = _last[0]  # one tuple, read and replaced whole: safe across threads
    if value is last[0]:
        return last[1]
    text = _format(value)
    _last[0] = (value, text)
    return text


def _format(value: datetime) -> str:
    if value.tzinfo is None:
        raise InvalidInput("time", f"{value!r} has no timezone", "timezone-aware datetimes")
    t = value.astimezone(UTC)
    # by hand, not strftime("%Y…"): glibc writes the year 503 as "503", which is no ISO 8601
    # (and which parse_time, reading the ledger back, refused: no such time could be stored)
    return (
        f"{t.year:04d}-{t.month:02d}-{t.day:02d}"
        f"T{t.hour:02d}:{t.minute:02d}:{t.second:02d}.{t.microsecond:06d}Z"
    )


def parse_time(value: str | datetime, field: str = "time", *, clamp: bool = False) -> datetime:
    """Read a timestamp a person or a file wrote; naive times are taken as UTC.

    A time whose offset takes it outside what a UTC time can be ("0001-01-01T00:00+01:00")
    is refused, or with ``clamp`` read as the first or last time there is (for a moment to
    look back at, where "before anything" is a fine answer)."""
    parsed = value if isinstance(value, datetime) else _from_text(value, field)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # "0001-01-01T00:00+01:00" is before the first UTC time there is
        if clamp:
            edge = datetime.min if parsed.year == datetime.min.year else datetime.max
            return edge.replace(tzinfo=UTC)
        raise InvalidInput(
            field, f"{value!r} is out of range", "times from 0001-01-01 to 9999-12-31 UTC"
        ) from None


def _from_text(value: object, field: str) -> datetime:
    if not isinstance(value, str):
        raise InvalidInput(field, f"expected a timestamp, got {type(value).__name__}")
    text = value.strip()
    if _DATE_ONLY.match(text):
        text += "T00:00:00"
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(
            field,
            f"{value!r} is not a timestamp",
            "ISO 8601, e.g. 2026-11-01, 2026-11-01T12:00Z or 2026-11-01T12:00:00+01:00",
        ) from None
