"""Where a team keeps its records, and which number and file name the next one takes.

The folder is found as adr-tools finds it: the one named on the command line, else the
path written in an ``.adr-dir`` file in the current directory or the nearest parent
(relative to that file's directory), else ``doc/adr``. Numbers follow the folder: the
next is one more than the highest, written with as many digits as the files already use
(``0007-`` as adr-tools writes them, ``007-`` in a folder of three-digit names), so the
reader's keys (``team:0007``) stay of one width.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from decisis.adr.read.keys import build_index, is_candidate_name, number_in_name, slugify
from decisis.errors import InvalidInput

__all__ = [
    "ADR_DIR_FILE",
    "DEFAULT_DIR",
    "DEFAULT_WIDTH",
    "NumberedFolder",
    "find_folder",
    "folder_to_read",
    "numbered",
]

ADR_DIR_FILE = ".adr-dir"
DEFAULT_DIR = Path("doc") / "adr"  # adr-tools' default when no .adr-dir says otherwise
DEFAULT_WIDTH = 4  # adr-tools writes 0001-…; a folder with records of its own sets its width
_FOLDER_ALLOWED = "a folder of ADR files (adr new creates it when it does not exist)"


def _from_adr_dir(start: Path) -> Path | None:
    """The folder an ``.adr-dir`` file in ``start`` or a parent names, as adr-tools reads it."""
    for folder in (start, *start.parents):
        marker = folder / ADR_DIR_FILE
        if marker.is_file():
            written = marker.read_text(encoding="utf-8").strip()
            if not written:
                raise InvalidInput(
                    "dir", f"{marker} is empty", "a path to the ADR folder, as adr init writes"
                )
            return folder / written
    return None


def find_folder(given: str | os.PathLike[str] | None, cwd: Path | None = None) -> Path:
    """The team's ADR folder: ``given``, else ``.adr-dir``'s, else ``doc/adr`` under ``cwd``.

    A path that exists and is not a folder is refused; one that does not exist is
    returned as it is (``adr new`` creates it, as adr-tools does)."""
    here = cwd or Path.cwd()
    folder = Path(given) if given is not None else (_from_adr_dir(here) or here / DEFAULT_DIR)
    if folder.exists() and not folder.is_dir():
        raise InvalidInput("dir", f"{folder} is not a folder", _FOLDER_ALLOWED)
    return folder


def folder_to_read(given: str | os.PathLike[str] | None, cwd: Path | None = None) -> Path:
    """:func:`find_folder`, for commands that read records: the folder must exist."""
    folder = find_folder(given, cwd)
    if not folder.is_dir():
        raise InvalidInput("dir", f"{folder} does not exist", "an existing folder of ADR files")
    return folder


@dataclass(frozen=True)
class NumberedFolder:
    """The numbered record files of one folder: ``files`` maps each number to its file name
    (the first by name when two share one, as the reader keys them)."""

    folder: Path
    files: dict[int, str]
    width: int

    def next_number(self) -> int:
        return max(self.files, default=0) + 1

    def file_name(self, number: int, title: str) -> str:
        """``NNNN-title-slug.md``: the number in the folder's width, the title as adr-tools
        slugs it (lower case, each run of other characters one dash)."""
        return f"{number:0{self.width}d}-{slugify(title) or 'decision'}.md"

    def path_of(self, number: int, field: str) -> Path:
        """The file of record ``number``, or a refusal naming ``field`` and the numbers there."""
        name = self.files.get(number)
        if name is None:
            shown = ", ".join(str(n) for n in sorted(self.files)) or "none: the folder has none"
            raise InvalidInput(
                field, f"no record numbered {number} in {self.folder}", f"one of {shown}"
            )
        return self.folder / name


def numbered(folder: Path) -> NumberedFolder:
    """The numbered records of ``folder`` (empty when it does not exist yet)."""
    names = sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    index = build_index(folder.name, (n for n in names if is_candidate_name(n)))
    files: dict[int, str] = {}
    for name, fk in index.keys.items():
        if fk.number is not None and index.by_number.get(fk.number) == fk.key:
            files[fk.number] = name
    width = index.padding
    if not width:  # no numbered files, or files of several widths: the latest one's
        latest = files.get(max(files)) if files else None
        width = len(number_in_name(latest) or "") if latest else DEFAULT_WIDTH
    return NumberedFolder(folder, files, width or DEFAULT_WIDTH)
