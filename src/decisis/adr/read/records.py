"""What reading an ADR folder yields: records, the links they state, and the files that failed.

These are plain immutable values with no tie to a store, so the reading layer can
be tested, benchmarked and reused (``decisis ingest``, evaluation) on its own.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "MAX_RECORD_BYTES",
    "AdrRecord",
    "AdrStatus",
    "Link",
    "LinkKind",
    "LinkRole",
    "ReadProblem",
    "ReadResult",
]

# A real ADR is a few kilobytes (the largest of the 132 in the shared corpus is 20 KiB); a file
# over 1 MiB is a generated dump or a mistake, and reading it would only slow ingest down.
MAX_RECORD_BYTES = 1024 * 1024

LinkKind = Literal["status", "body"]
# "successor": the target replaces or amends this record ("Superseded by [7](0007-x.md)").
# "predecessor": this record replaces or amends the target ("Supersedes [3](0003-y.md)").
# "destination": this record moves *to* the target ("the migration to [EKS](022-EKS.md)"):
# the target was adopted, not replaced, whatever replacement words the sentence has.
LinkRole = Literal["successor", "predecessor", "destination"]


class AdrStatus(StrEnum):
    """The normalised status of a record; the words teams write are kept in ``status_text``."""

    PROPOSED = "proposed"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    DEPRECATED = "deprecated"
    SUPERSEDED = "superseded"
    AMENDED = "amended"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Link:
    """A reference from one record to another, with the words around it.

    ``target`` is the reference as written (a URL, a file name, ``ADR-021``);
    ``target_key`` is the record it names in the same folder, or ``None`` when
    no record there has that number or file name. ``kind`` is ``"status"`` when
    the reference stands in the status line and ``"body"`` anywhere else;
    ``verbs`` are the replacement words in the same sentence (``supersede``,
    ``replace``, ``migrate``, ``instead of``, ``deprecate``, ``amend``, ``move on``…)
    and ``role`` says which way the sentence points, when its grammar says so;
    ``stated`` when that grammar is a replacement said outright ("This ADR supersedes
    [ADR 4]", "superseded by [7]", "overrides our previous decision from ADR 8") rather
    than a move told in other words ("migrating away from [012]").
    Deciding whether a link means supersession is left to the link rules.
    """

    target: str
    target_key: str | None
    target_number: int | None
    kind: LinkKind
    section: str
    context: str
    verbs: tuple[str, ...] = ()
    role: LinkRole | None = None
    stated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "target_key": self.target_key,
            "target_number": self.target_number,
            "kind": self.kind,
            "section": self.section,
            "context": self.context,
            "verbs": list(self.verbs),
            "role": self.role,
            "stated": self.stated,
        }


@dataclass(frozen=True)
class AdrRecord:
    """One architecture decision record as read from its file.

    ``key`` is ``<folder>:<number as in the file name>`` (``cloud-platform:012``), or
    ``<folder>:<slug of the file name>`` for a file with no number (then ``number``
    is ``None``). ``content_hash`` (``sha256:`` + hex of the file bytes) lets a
    re-ingest skip records that did not change.
    """

    key: str
    folder: str
    number: int | None
    path: Path
    title: str
    status: AdrStatus
    status_text: str
    date: dt.date | None
    decision: str
    context: str
    body: str
    summary: str
    links: tuple[Link, ...]
    content_hash: str
    format: str
    status_date: dt.date | None = None
    date_text: str = ""  # the date as the record wrote it (not stored: the date is)
    # the paths it governs: its ``affects:`` front matter, then tracked paths its text names
    affects: tuple[str, ...] = ()
    date_source: str = ""  # "git" when the date is the first commit's (ingest --git-dates)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (dates as ISO 8601), for node metadata and ``--json`` output."""
        return {
            "key": self.key,
            "folder": self.folder,
            "number": self.number,
            "path": str(self.path),
            "title": self.title,
            "status": self.status.value,
            "status_text": self.status_text,
            "date": self.date.isoformat() if self.date else None,
            "status_date": self.status_date.isoformat() if self.status_date else None,
            "decision": self.decision,
            "context": self.context,
            "summary": self.summary,
            "links": [link.to_dict() for link in self.links],
            "content_hash": self.content_hash,
            "format": self.format,
            "affects": list(self.affects),
        }


@dataclass(frozen=True)
class ReadProblem:
    """A file that looked like a record but could not be read; it was skipped."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(frozen=True)
class ReadResult:
    """Everything one ``read_folder`` call found.

    ``skipped`` lists Markdown files left out on purpose (README, index, template,
    licence and notes that are not records), so a caller can show them.
    """

    records: list[AdrRecord]
    problems: list[ReadProblem]
    skipped: list[Path] = field(default_factory=list)

    def by_key(self) -> dict[str, AdrRecord]:
        return {record.key: record for record in self.records}
