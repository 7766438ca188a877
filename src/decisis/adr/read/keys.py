"""Record keys from file names, and which files of a folder are candidate records.

Rules, in the order they apply to a file in an ADR folder:

1. Only Markdown files (``.md``, ``.markdown``) are candidates; images, licences
   without an extension and other files are not records and are passed over silently.
2. Names that are never records are skipped: anything starting with ``.`` or ``_``,
   ``README``, ``index``, ``SOURCES``, ``LICENSE``/``LICENCE``, ``CHANGELOG``,
   ``CONTRIBUTING``, ``SUMMARY``/``TOC``, ``glossary``, and any name with ``template``.
3. A name starting with a number (optionally after ``adr``: ``0007-x.md``, ``ADR-021-y.md``,
   ``adr_12.md``) gives the key ``<folder>:<digits exactly as written>``.
   Eight digits that form a date (log4brains' ``20200926-use-x.md``) are a date, not a number.
   A date written first (``2023-04-26_023-local-chain-state.md``, ``20230426-023-x.md``) is the
   record's date, and the number after it is the key: ``<folder>:023``.
4. Any other name gives ``<folder>:<slug>``: the name without its extension, lower-cased,
   with each run of characters other than letters and digits turned into ``-``.
   Such a file counts as a record only if its content looks like one (see ``reader``).
5. Two files with the same number (a merge race): the first by name keeps ``<folder>:<digits>``,
   the others get the slug key, so no record is lost and keys stay unique.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePath

__all__ = [
    "MARKDOWN_SUFFIXES",
    "FileKey",
    "FolderIndex",
    "build_index",
    "file_date",
    "file_key",
    "is_candidate_name",
    "number_in_name",
    "slugify",
]

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
_NEVER_RECORDS = frozenset(
    {
        "readme",
        "index",
        "sources",
        "license",
        "licence",
        "copying",
        "notice",
        "changelog",
        "contributing",
        "code_of_conduct",
        "code-of-conduct",
        "summary",
        "toc",
        "table-of-contents",
        "glossary",
        "authors",
    }
)
_NUMBER = re.compile(r"^(?:adr[-_ ]?)?(\d{1,8})(?=$|[-_ .])", re.IGNORECASE)
_DATE_FIRST = re.compile(r"^(?P<y>\d{4})-?(?P<m>\d{2})-?(?P<d>\d{2})[-_ ]+")


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def is_candidate_name(name: str) -> bool:
    """Rules 1 and 2: a Markdown file whose name does not say it is something else."""
    path = PurePath(name)
    if path.suffix.lower() not in MARKDOWN_SUFFIXES or name.startswith((".", "_")):
        return False
    stem = path.stem.lower()
    return stem not in _NEVER_RECORDS and "template" not in stem


def _as_date(digits: str) -> date | None:
    if len(digits) != 8:
        return None
    try:
        value = date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return None
    return value if 1990 <= value.year <= 2100 else None


def _split_date(stem: str) -> tuple[date | None, str]:
    """The date a name starts with, and the rest of the name after it."""
    m = _DATE_FIRST.match(stem)
    if m is not None:
        found = _as_date(m.group("y") + m.group("m") + m.group("d"))
        if found is not None:
            return found, stem[m.end() :]
    n = _NUMBER.match(stem)
    if n is not None and _as_date(n.group(1)) is not None:
        return _as_date(n.group(1)), stem[n.end() :].lstrip("-_ ")
    return None, stem


def number_in_name(name: str) -> str | None:
    """The record number as written in a file name (``"012"``), after a date it starts with."""
    _, rest = _split_date(PurePath(name).stem)
    m = _NUMBER.match(rest)
    if m is None or _as_date(m.group(1)) is not None:
        return None
    return m.group(1)


def file_date(name: str) -> date | None:
    """The date a file name starts with (``20200926-x.md``, ``2023-04-26_023-x.md``), if any."""
    return _split_date(PurePath(name).stem)[0]


@dataclass(frozen=True)
class FileKey:
    key: str
    number: int | None


def file_key(folder: str, name: str) -> FileKey:
    """The key a file would have on its own (rules 3 and 4), before duplicates are settled."""
    digits = number_in_name(name)
    if digits is not None:
        return FileKey(f"{folder}:{digits}", int(digits))
    slug = slugify(PurePath(name).stem) or "record"
    return FileKey(f"{folder}:{slug}", None)


@dataclass(frozen=True)
class FolderIndex:
    """How references inside one folder find their records: by file name and by number."""

    folder: str
    keys: dict[str, FileKey]
    by_name: dict[str, str]
    by_number: dict[int, str]
    by_stem: dict[str, str] = field(default_factory=dict)
    keys_by_key: dict[str, FileKey] = field(default_factory=dict)
    padding: int = 0  # the digits every numbered file name is written with, when they agree

    def key_for_name(self, name: str) -> str | None:
        return self.by_name.get(name.lower())

    def key_for_stem(self, stem: str) -> str | None:
        """The record whose file name is ``stem`` with a Markdown suffix."""
        return self.by_stem.get(stem.lower())

    def key_for_number(self, number: int) -> str | None:
        return self.by_number.get(number)


def build_index(folder: str, names: Iterable[str]) -> FolderIndex:
    """Keys for the candidate files ``names`` of one folder, duplicates settled (rule 5)."""
    keys: dict[str, FileKey] = {}
    by_name: dict[str, str] = {}
    by_number: dict[int, str] = {}
    by_stem: dict[str, str] = {}
    widths: set[int] = set()
    taken: set[str] = set()
    for name in sorted(n for n in names if is_candidate_name(n)):
        fk = file_key(folder, name)
        if fk.key in taken:
            fk = FileKey(f"{folder}:{slugify(PurePath(name).stem) or 'record'}", fk.number)
        base, n = fk.key, 2
        while fk.key in taken:
            fk = FileKey(f"{base}-{n}", fk.number)
            n += 1
        taken.add(fk.key)
        keys[name] = fk
        by_name[name.lower()] = fk.key
        by_stem.setdefault(PurePath(name).stem.lower(), fk.key)
        if fk.number is not None:
            by_number.setdefault(fk.number, fk.key)
            digits = number_in_name(name) or ""
            widths.add(len(digits))
    padding = widths.pop() if len(widths) == 1 else 0
    by_key = {fk.key: fk for fk in keys.values()}
    return FolderIndex(folder, keys, by_name, by_number, by_stem, by_key, padding)
