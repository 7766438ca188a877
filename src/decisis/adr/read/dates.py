"""Dates in the forms teams really write in ADRs.

``2019-06-01``, ``2019/06/01``, ``01/06/2019`` and ``10/04/18`` (day first, as in the UK;
month first only when day first is impossible, or when the caller knows the team writes
month first: see :func:`numeric_order`), ``1st June 2019``, ``June 1, 2019``,
``June 2020`` and ``2020-06`` (the first of the month), ``Q2 2022`` and ``2022-Q2`` (the
first day of the quarter), and an ISO timestamp (its date). A month-only date becomes the
first of that month: ordering records is what the date is for, and a month (or a quarter)
is the precision the author chose.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

__all__ = ["find_date", "numeric_order", "parse_date"]

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\.?"
)
_ORD = r"(?:st|nd|rd|th)?"

_ISO = re.compile(r"(?<![\d/.-])(?P<y>\d{4})([-/.])(?P<m>\d{1,2})\2(?P<d>\d{1,2})(?![\d/])")
_ISO_MONTH = re.compile(r"(?<![\d/.-])(?P<y>\d{4})-(?P<m>\d{1,2})(?![\d/-])")
_NUMERIC = re.compile(
    r"(?<![\d/.-])(?P<a>\d{1,2})([/.-])(?P<b>\d{1,2})\2(?P<y>\d{4}|\d{2})(?![\d/])"
)
_DAY_MONTH_YEAR = re.compile(
    rf"(?<!\d)(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?[\s-]+{_MONTH},?[\s-]+(?P<y>\d{{4}})(?!\d)",
    re.IGNORECASE,
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b{_MONTH}\s+(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}})(?!\d)", re.IGNORECASE
)
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(?P<y>\d{{4}})(?!\d)", re.IGNORECASE)
_QUARTER_YEAR = re.compile(r"\bQ(?P<q>[1-4])[\s/-]+(?P<y>\d{4})(?!\d)", re.IGNORECASE)
_YEAR_QUARTER = re.compile(r"(?<![\d/.-])(?P<y>\d{4})[\s/-]*Q(?P<q>[1-4])\b", re.IGNORECASE)
_YEAR_ONLY = re.compile(r"^\s*(?P<y>(?:19|20)\d{2})\s*$")


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _month(name: str) -> int:
    return _MONTHS[name.lower()[:3]]


def _full_year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < 70 else 1900
    return year


def _iso(m: re.Match[str]) -> date | None:
    return _safe(int(m["y"]), int(m["m"]), int(m["d"]))


def _iso_month(m: re.Match[str]) -> date | None:
    return _safe(int(m["y"]), int(m["m"]), 1)


def _numeric(m: re.Match[str]) -> date | None:
    year = _full_year(m["y"])
    first, second = int(m["a"]), int(m["b"])
    return _safe(year, second, first) or _safe(year, first, second)


def _numeric_month_first(m: re.Match[str]) -> date | None:
    year = _full_year(m["y"])
    first, second = int(m["a"]), int(m["b"])
    return _safe(year, first, second) or _safe(year, second, first)


def numeric_order(text: str) -> str | None:
    """``"month-first"`` for a numeric date only month first can read (``5/23/2023``),
    ``"day-first"`` for one only day first can read (``23/05/2023``), else ``None``."""
    m = _NUMERIC.search(text)
    if m is None or _ISO.search(text):
        return None
    first, second = int(m["a"]), int(m["b"])
    if first <= 12 < second <= 31:
        return "month-first"
    if second <= 12 < first <= 31:
        return "day-first"
    return None


def _day_month_year(m: re.Match[str]) -> date | None:
    return _safe(int(m["y"]), _month(m["month"]), int(m["d"]))


def _month_year(m: re.Match[str]) -> date | None:
    return _safe(int(m["y"]), _month(m["month"]), 1)


def _quarter(m: re.Match[str]) -> date | None:
    return _safe(int(m["y"]), 3 * int(m["q"]) - 2, 1)


_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], date | None]], ...] = (
    (_ISO, _iso),
    (_NUMERIC, _numeric),
    (_DAY_MONTH_YEAR, _day_month_year),
    (_MONTH_DAY_YEAR, _day_month_year),
    (_ISO_MONTH, _iso_month),
    (_MONTH_YEAR, _month_year),
    (_QUARTER_YEAR, _quarter),
    (_YEAR_QUARTER, _quarter),
)


def find_date(text: str, *, month_first: bool = False) -> date | None:
    """The first date written anywhere in ``text`` (a status line, a sentence), or ``None``.

    Among patterns matching at the same place the longest wins, so ``1st June 2019``
    is read whole rather than as ``June 2019``. ``month_first`` reads ``07/05/2024`` as
    5 July.
    """
    best: tuple[int, int, date] | None = None
    patterns = _PATTERNS
    if month_first:
        patterns = tuple((p, _numeric_month_first if p is _NUMERIC else b) for p, b in patterns)
    for pattern, build in patterns:
        for m in pattern.finditer(text):
            value = build(m)
            if value is None:
                continue
            candidate = (m.start(), -(m.end() - m.start()), value)
            if best is None or candidate[:2] < best[:2]:
                best = candidate
            break
    return best[2] if best else None


def parse_date(text: str, *, month_first: bool = False) -> date | None:
    """Read the value of a ``Date:`` field: any form :func:`find_date` knows, or a bare year."""
    found = find_date(text, month_first=month_first)
    if found is not None:
        return found
    year = _YEAR_ONLY.match(text)
    return date(int(year["y"]), 1, 1) if year else None
