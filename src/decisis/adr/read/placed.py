"""Records placed in their repository: the paths their text names, and (asked for) the date
git first saw them.

Both need the folder to sit in a git work tree; outside one, records come back as read. The
date is opt-in (``ingest --git-dates``): a record copied into a repository carries the date of
the copy, not of the decision, so it is used only for a record with no date of its own, and
marked ``date_source: git``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from decisis.adr.read.records import AdrRecord
from decisis.files.git import first_added
from decisis.files.mentions import Tree, named_paths

__all__ = ["GIT_DATE", "place_records"]

GIT_DATE = "git"


def place_records(
    records: list[AdrRecord], folder: Path, *, git_dates: bool = False
) -> list[AdrRecord]:
    """``records`` read from ``folder`` with the tracked paths their text names added to their
    ``affects`` (after the front matter's), and, with ``git_dates``, a dateless record dated
    by the commit that first added it."""
    tree = Tree.around(folder)
    if tree is None:
        return records
    inside = tree.relative(folder)
    out = []
    for record in records:
        named = named_paths(record.body, record.path, tree, leave_out=[inside or ""])
        affects = tuple(dict.fromkeys([*record.affects, *named]))
        changed = replace(record, affects=affects) if affects != record.affects else record
        if git_dates and record.date is None:
            added = first_added(record.path)
            if added is not None:
                changed = replace(changed, date=added.date(), date_source=GIT_DATE)
        out.append(changed)
    return out
