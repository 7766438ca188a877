"""When each record was written, as far as its date and number tell.

Records are numbered in the order a team writes them, and dated when the team says so. An
undated record (a team that copied its records in, or never wrote dates) sits after the
latest date of the records its folder numbered before it: it cannot be older than them,
and calling it the newest of all (or the oldest) would make a walk stop at, or skip, the
wrong record. Undated with nothing dated before it, it is the oldest. Within one time the
number decides.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

__all__ = ["Entry", "written_at"]

Entry = tuple[str, str, int | None, dt.date | None]  # key, folder, number, date


def written_at(entries: Iterable[Entry]) -> dict[str, tuple[dt.date, int]]:
    """Each record's place in time, as ``(date, number)``: comparable within and across
    folders (an unnumbered record counts as number -1)."""
    by_folder: dict[str, list[Entry]] = {}
    for entry in entries:
        by_folder.setdefault(entry[1], []).append(entry)
    out: dict[str, tuple[dt.date, int]] = {}
    for members in by_folder.values():
        latest = dt.date.min
        ordered = sorted(members, key=lambda e: (e[2] is None, e[2] if e[2] is not None else 0))
        for key, _, number, date in ordered:
            if date is not None and number is not None:
                latest = max(latest, date)
            out[key] = (date or (latest if number is not None else dt.date.min), number or -1)
    return out
