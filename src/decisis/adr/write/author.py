"""Writing records: ``new`` (the next numbered record, superseding one if asked) and ``link``
(a status line on one record naming another, and the reverse line on that one), as
adr-tools does: ``adr new -s 3 Title``, ``adr link 12 Amends 10 "Amended by"``.

Files are only ever created new (never overwritten) or edited in their status; what to
write is worked out, and checked, before the first file is touched.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decisis.adr.read.reader import read_record
from decisis.adr.write.folder import find_folder, folder_to_read, numbered
from decisis.adr.write.status_edit import add_status_line, set_status
from decisis.adr.write.templates import NewRecord, check_format, check_title, render
from decisis.errors import InvalidInput

__all__ = ["Written", "link_records", "new_record"]

_LINK_ALLOWED = "words such as Amends, Supersedes, Relates to (one line)"


@dataclass(frozen=True)
class Written:
    """What a command wrote: the record created (if any) and the records whose status changed."""

    folder: Path
    created: Path | None
    number: int | None
    title: str | None
    changed: tuple[Path, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder),
            "created": str(self.created) if self.created else None,
            "number": self.number,
            "title": self.title,
            "changed": [str(p) for p in self.changed],
        }


def _reference(path: Path, number: int) -> str:
    """``[3. Old title](0003-old-title.md)``, as adr-tools links a record."""
    return f"[{number}. {read_record(path).title}]({path.name})"


def _edit(path: Path, change: Any) -> None:
    """Rewrite ``path`` through ``change`` (text in, text out), keeping its encoding's BOM."""
    text = path.read_bytes().decode("utf-8")
    path.write_bytes(change(text).encode("utf-8"))


def _check_words(value: str, field: str) -> str:
    clean = value.strip()
    if not clean or "\n" in clean or "\r" in clean:
        raise InvalidInput(field, "is empty" if not clean else "spans several lines", _LINK_ALLOWED)
    return clean


def new_record(
    title: str,
    *,
    folder: str | os.PathLike[str] | None = None,
    fmt: str = "nygard",
    supersedes: int | None = None,
    today: dt.date | None = None,
    cwd: Path | None = None,
) -> Written:
    """Write the next numbered record of the team's folder (see :func:`find_folder`) from
    ``fmt``'s template; with ``supersedes``, that record's status becomes ``Superseded by``
    the new one, and the new one says ``Supersedes`` it."""
    clean, chosen = check_title(title), check_format(fmt)
    where = find_folder(folder, cwd)
    records = numbered(where)
    old = records.path_of(supersedes, "supersedes") if supersedes is not None else None
    number = records.next_number()
    path = where / records.file_name(number, clean)
    links = (f"Supersedes {_reference(old, supersedes)}",) if old and supersedes is not None else ()
    text = render(chosen, NewRecord(number, clean, today or dt.date.today(), links=links))
    where.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8", newline="\n") as out:
        out.write(text)
    if old is None:
        return Written(where, path, number, clean)
    _edit(old, lambda t: set_status(t, f"Superseded by {_reference(path, number)}"))
    return Written(where, path, number, clean, (old,))


def link_records(
    source: int,
    link: str,
    target: int,
    *,
    reverse: str | None = None,
    folder: str | os.PathLike[str] | None = None,
    cwd: Path | None = None,
) -> Written:
    """Add ``LINK [target](file)`` to record ``source``'s status, and with ``reverse`` the line
    ``REVERSE [source](file)`` to ``target``'s (``12 Amends 10``, reverse ``Amended by``)."""
    words = _check_words(link, "link")
    back = _check_words(reverse, "reverse") if reverse is not None else None
    where = folder_to_read(folder, cwd)
    records = numbered(where)
    from_path, to_path = records.path_of(source, "source"), records.path_of(target, "target")
    if from_path == to_path:
        raise InvalidInput("target", f"is record {source} itself", "another record's number")
    forward, backward = _reference(to_path, target), _reference(from_path, source)
    _edit(from_path, lambda t: add_status_line(t, f"{words} {forward}"))
    if back is None:
        return Written(where, None, None, None, (from_path,))
    _edit(to_path, lambda t: add_status_line(t, f"{back} {backward}"))
    return Written(where, None, None, None, (from_path, to_path))
