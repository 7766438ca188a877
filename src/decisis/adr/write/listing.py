"""``adr list``: each record of a team's folder with its number, title, status and what
replaced it, as the reader reads them.

What replaced a record comes from the links its status states (``Superseded by [7](…)``)
and from the records that state they replace it (``Supersedes [3](…)``): the words the
team wrote, not the inferred links of the graph, which need a store.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decisis.adr.read.reader import read_folder
from decisis.adr.read.records import AdrRecord

__all__ = ["Listed", "list_records"]


@dataclass(frozen=True)
class Listed:
    """One line of ``adr list``; ``replaced_by`` holds the keys (``team:0007``) of the records
    stated to supersede or amend it."""

    record: AdrRecord
    replaced_by: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        r = self.record
        return {
            "key": r.key,
            "number": r.number,
            "title": r.title,
            "status": r.status.value,
            "status_text": r.status_text,
            "date": r.date.isoformat() if r.date else None,
            "path": str(r.path),
            "format": r.format,
            "replaced_by": list(self.replaced_by),
        }


def _stated(record: AdrRecord) -> set[tuple[str, str]]:
    """``(old, new)`` pairs ``record``'s status states, either way round."""
    pairs = set()
    for link in record.links:
        if link.kind != "status" or link.target_key is None or not link.stated:
            continue
        if link.role == "successor":
            pairs.add((record.key, link.target_key))
        elif link.role == "predecessor":
            pairs.add((link.target_key, record.key))
    return pairs


def list_records(folder: Path) -> list[Listed]:
    """The records of ``folder`` in the reader's order (by number), each with what replaced it."""
    records = read_folder(folder).records
    pairs = set().union(*(_stated(r) for r in records)) if records else set()
    listed = []
    for record in records:
        newer = sorted(new for old, new in pairs if old == record.key)
        listed.append(Listed(record, tuple(newer)))
    return listed
