"""Read ADR files and folders into :class:`AdrRecord` values; no store, no graph.

``read_folder`` never raises for one bad file: binary, non-UTF-8, empty, oversized
(over :data:`MAX_RECORD_BYTES`, 1 MiB) and untitled garbage files become
:class:`ReadProblem` entries and the rest still load. ``read_record`` raises
:class:`~decisis.errors.InvalidInput` for the same files, naming the path and what
a record must be.

Which files are records (see :mod:`decisis.adr.read.keys` for names and keys): Markdown
files whose names are not README, index, template, licence and the like. A file
whose name starts with a number is a record if it has a title (``# Title``, a
setext title or a front-matter ``title``) or, failing that, a status, a date or
Context and Decision sections (its title then comes from the file name). A file
without a number must show it is a record by its content: a status, a date field,
or both Context and Decision sections; otherwise it is skipped as notes. Templates
(titles such as ``{short title}`` or ``NUMBER. TITLE``) are skipped.

Folders: a folder's own record files get ``<folder name>:…`` keys; each subfolder
(hidden ones and ``node_modules`` aside, three levels deep at most) is read the same
way under its own name, so a folder of folders gives ``cloud-platform:012`` and
``govuk-aws:0038`` side by side. When two subfolders share a name, their keys use the
path from the root instead (``team-a/decisions:001``) so that keys stay unique.

Symbolic links inside the folder are not followed unless the caller asks
(``follow_symlinks=True``, ``decisis ingest --follow-symlinks``): a link can lead out of the
folder (to text that is no team's record, which would be stored) or back into it for ever.
Each link left alone that could be a record or a folder of them is a :class:`ReadProblem`
saying so. Followed, a link that leads back to a folder it sits in, or to itself, is one
problem and the rest of the folder is read. The folder named by the caller is always read,
link or not.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from decisis.adr.read.dates import find_date, numeric_order, parse_date
from decisis.adr.read.formats import TITLE_MARK, Fields, choose_format, title_mark
from decisis.adr.read.keys import FolderIndex, build_index, file_date, file_key, is_candidate_name
from decisis.adr.read.markdown import parse_markdown, strip_markdown
from decisis.adr.read.records import (
    MAX_RECORD_BYTES,
    AdrRecord,
    AdrStatus,
    ReadProblem,
    ReadResult,
)
from decisis.adr.read.references import extract_links
from decisis.adr.read.status import normalise_status
from decisis.adr.read.summary import summarise
from decisis.errors import InvalidInput

__all__ = ["MAX_FOLDER_DEPTH", "NotARecord", "read_folder", "read_record"]

MAX_FOLDER_DEPTH = 3
_EXPECTED = (
    f"a UTF-8 Markdown ADR of at most {MAX_RECORD_BYTES // (1024 * 1024)} MiB"
    " with a '# Title' heading"
)
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})
# A ``{placeholder}``: found as a ``{`` and the next ``}`` with no ``{`` between, so that each
# ``{`` of a title full of them is not read to the end again (``\{[^}]*\}`` was quadratic).
_TEMPLATE_TITLE = re.compile(r"\{[^{}]*\}|^\s*(?:number\.?\s*)?title\s*$|\[short title", re.I)
_TITLE_NUMBER = re.compile(
    r"^(?:ADR|decision)?[-\s#]*0*(?P<n>\d{1,5})(?P<punct>\s*[.:)\]]|\s+[-\u2013\u2014])?\s+", re.I
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


class NotARecord(InvalidInput):
    """A readable Markdown file that is not a record (a template, notes); skipped by folders."""


def _load(path: Path) -> bytes:
    """The file's bytes, refusing what no ADR can be: missing, huge, empty or binary."""
    try:
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise InvalidInput(
                "path",
                f"{path} is {size:,} bytes, over the {MAX_RECORD_BYTES:,}-byte limit",
                _EXPECTED,
            )
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInput(
            "path", f"{path} cannot be read ({exc.strerror or exc})", _EXPECTED
        ) from None
    if not data.strip():
        raise InvalidInput("path", f"{path} is empty", _EXPECTED)
    if b"\x00" in data[:8192]:
        raise InvalidInput("path", f"{path} is a binary file (it holds NUL bytes)", _EXPECTED)
    return data


def _decode(path: Path, data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            "path", f"{path} is not UTF-8 text (bad byte at offset {exc.start})", _EXPECTED
        ) from None
    if len(_CONTROL.findall(text[:8192])) > len(text[:8192]) // 20:
        raise InvalidInput("path", f"{path} is a binary file (control characters)", _EXPECTED)
    return text


def _clean_title(title: str, number: int | None) -> str:
    """``21. Multi-cluster`` → ``Multi-cluster``: the number belongs in the key, not the title.

    A leading number followed by ``.``, ``:``, ``)`` or a dash is dropped; one followed
    by a space only when it is the file's own number (``23 Logging`` in ``023-x.md``),
    so ``2020 Roadmap`` keeps its year.
    """
    m = _TITLE_NUMBER.match(title)
    rest = title[m.end() :].strip() if m else ""
    if m and rest and (m.group("punct") or int(m.group("n")) == number):
        title = rest
    if title_mark(title):  # "OUTDATED Use DynamoDB": the mark is the status, not the title
        title = TITLE_MARK.sub("", title, count=1).strip() or title
    return title


@dataclass(frozen=True)
class _Context:
    folder: str
    index: FolderIndex


def _title_of(path: Path, fields: Fields, number: int | None) -> str:
    """The record's title, or why the file is not a record (see the module's rules)."""
    has_structure = bool(fields.status_text or fields.date or (fields.context and fields.decision))
    title = fields.title
    if title and _TEMPLATE_TITLE.search(title):
        raise NotARecord("path", f"{path} is a template, not a record", _EXPECTED)
    if number is None and not has_structure:
        raise NotARecord(
            "path", f"{path} has no number in its name and no status, date or decision", _EXPECTED
        )
    if not title:
        if not has_structure:
            raise InvalidInput(
                "path", f"{path} has no title and does not read as an ADR", _EXPECTED
            )
        title = re.sub(r"^[\d_\- ]+", "", path.stem).replace("-", " ").replace("_", " ").strip()
        title = title[:1].upper() + title[1:] if title else path.stem
    return _clean_title(title, number)


def _parse(path: Path, data: bytes, ctx: _Context) -> AdrRecord:
    doc = parse_markdown(_decode(path, data))
    fmt = choose_format(doc)
    fields = fmt.parse(doc)
    fk = ctx.index.keys.get(path.name) or file_key(ctx.folder, path.name)
    title = _title_of(path, fields, fk.number)
    status_date = find_date(strip_markdown(fields.status_text)) if fields.status_text else None
    decision = fields.decision or fields.context or _rest_of_body(doc.text, doc.title_end)
    links = extract_links(
        doc,
        ctx.index,
        fk.key,
        list(fields.status_spans),
        "" if fields.status_spans else fields.status_text,
    )
    return AdrRecord(
        key=fk.key,
        folder=ctx.folder,
        number=fk.number,
        path=path,
        title=title,
        status=normalise_status(fields.status_text) if fields.status_text else AdrStatus.UNKNOWN,
        status_text=fields.status_text.strip(),
        date=fields.date or status_date or file_date(path.name),
        decision=decision.strip(),
        context=fields.context,
        body=doc.text.strip(),
        summary=summarise(decision) or strip_markdown(title),
        links=tuple(links),
        content_hash="sha256:" + hashlib.sha256(data).hexdigest(),
        format=fmt.name,
        status_date=status_date,
        date_text=fields.date_text if fields.date else "",
        affects=_front_affects(doc.front_matter.get("affects")),
    )


def _front_affects(value: str | list[str] | None) -> tuple[str, ...]:
    """The ``affects:`` front matter (a list, or one line of patterns split by commas) as
    stored patterns; one that is no pattern (``..``, empty) is left out, not the record."""
    from decisis.files.patterns import normalise_pattern

    items = value if isinstance(value, list) else (value or "").split(",")
    out: list[str] = []
    for item in items:
        try:
            pattern = normalise_pattern(item)
        except InvalidInput:
            continue
        if pattern not in out:
            out.append(pattern)
    return tuple(out)


def _rest_of_body(text: str, title_end: int) -> str:
    """The text after the title without ``Date:`` lines: the best a record with no sections has."""
    rest = text[title_end:]
    return re.sub(r"^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?date\b[^\n]*\n?", "", rest, flags=re.I | re.M)


def read_record(path: str | os.PathLike[str], folder_key: str | None = None) -> AdrRecord:
    """Read one ADR file; its key is ``<folder_key>:<number>`` (folder_key: the folder's name).

    References to other records resolve against the files beside it. Raises
    :class:`~decisis.errors.InvalidInput` (naming the path and what a record must be)
    for a file that cannot be a record; :class:`NotARecord`, a subclass, for a
    template or notes file.
    """
    file = Path(path)
    if not file.is_file():
        raise InvalidInput("path", f"{file} is not a file", _EXPECTED)
    folder = folder_key or file.resolve().parent.name
    try:
        names = [e.name for e in os.scandir(file.parent) if _is_file(e)]
    except OSError:
        names = [file.name]
    index = build_index(folder, names)
    return _parse(file, _load(file), _Context(folder, index))


def _is_file(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a file (through links); a link loop or an unreadable entry is not."""
    try:
        return entry.is_file()
    except OSError:
        return False


def _not_followed(entry: os.DirEntry[str]) -> ReadProblem:
    try:
        target = f" (to {os.readlink(entry.path)})"
    except OSError:
        target = ""
    return ReadProblem(
        Path(entry.path),
        f"is a symbolic link{target}, not followed: to read what it points to, pass"
        " follow_symlinks=True (decisis ingest --follow-symlinks)",
    )


def _entry_kind(entry: os.DirEntry[str], follow_symlinks: bool, problems: list[ReadProblem]) -> str:
    """``"file"``, ``"dir"``, or ``""`` for anything else and for what is not read: hidden
    entries, links not followed and links that cannot be followed (these two reported)."""
    if entry.name.startswith((".", "_")) or entry.name in _SKIP_DIRS:
        return ""
    link = entry.is_symlink()
    if link and not follow_symlinks:
        try:
            could_be_read = is_candidate_name(entry.name) or entry.is_dir()
        except OSError:  # a loop: whatever it names, it is not followed
            could_be_read = False
        if could_be_read:
            problems.append(_not_followed(entry))
        return ""
    try:
        if entry.is_dir():
            return "dir"
        return "file" if entry.is_file() else ""
    except OSError as exc:
        if link or is_candidate_name(entry.name):
            what = "a symbolic link loop" if exc.errno == errno.ELOOP else "a link that fails"
            reason = f"is {what} ({exc.strerror or exc}), skipped"
            problems.append(ReadProblem(Path(entry.path), reason))
        return ""


def _scan(
    root: Path, follow_symlinks: bool, problems: list[ReadProblem]
) -> list[tuple[Path, list[str]]]:
    """Folders under ``root`` (itself included) that hold candidate files, with their names;
    links and loops are reported into ``problems`` (see the module's rules)."""
    found: list[tuple[Path, list[str]]] = []
    seen: set[Path] = set()

    def visit(folder: Path, real: Path, depth: int, within: tuple[Path, ...]) -> None:
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        kinds = [(entry, _entry_kind(entry, follow_symlinks, problems)) for entry in entries]
        names = [e.name for e, kind in kinds if kind == "file" and is_candidate_name(e.name)]
        if names:
            found.append((folder, names))
        if depth >= MAX_FOLDER_DEPTH:
            return
        for entry in (e for e, kind in kinds if kind == "dir"):
            sub = Path(entry.path)
            try:
                sub_real = sub.resolve()
            except (OSError, RuntimeError) as exc:  # RuntimeError: a loop, before Python 3.13
                problems.append(ReadProblem(sub, f"is a link that fails ({exc}), skipped"))
                continue
            if sub_real in within or sub_real == real:
                reason = f"is a symbolic link to {sub_real}, a folder it is in (a loop)"
                problems.append(ReadProblem(sub, reason))
            elif sub_real not in seen:  # a second link to one folder: read once
                visit(sub, sub_real, depth + 1, (*within, real))

    visit(root, root.resolve(), 0, ())
    return found


def _folder_keys(root: Path, folders: list[Path]) -> dict[Path, str]:
    """Each folder's key part: its name, or its path from ``root`` where names clash."""

    def name(folder: Path) -> str:
        return folder.resolve().name if folder == root else folder.name

    counts = Counter(name(folder) for folder in folders)
    keys: dict[Path, str] = {}
    for folder in folders:
        key = name(folder)
        if counts[key] > 1 and folder != root:
            key = folder.relative_to(root).as_posix()
            if key in counts:  # a subfolder named like the root itself
                key = f"{name(root)}/{key}"
        keys[folder] = key
    return keys


def _read_one(path: Path, ctx: _Context, result: ReadResult) -> None:
    """Read one file into ``result``: a record, a skipped file or a problem, never an exception."""
    try:
        result.records.append(_parse(path, _load(path), ctx))
    except NotARecord:
        result.skipped.append(path)
    except InvalidInput as exc:
        result.problems.append(ReadProblem(path, exc.problem.replace(f"{path} ", "", 1)))
    except Exception as exc:  # one odd file must not stop a folder from loading
        result.problems.append(
            ReadProblem(path, f"could not be read ({type(exc).__name__}: {exc})")
        )


def _settle_dates(records: list[AdrRecord]) -> list[AdrRecord]:
    """A folder whose numeric dates only month first can read (``5/23/2023``), and none only
    day first can, is read month first throughout: its ``07/05/2024`` is 5 July."""
    orders = {numeric_order(r.date_text) for r in records if r.date_text}
    if "month-first" not in orders or "day-first" in orders:
        return records
    out = []
    for record in records:
        again = parse_date(record.date_text, month_first=True) if record.date_text else None
        out.append(replace(record, date=again) if again and again != record.date else record)
    return out


def read_folder(path: str | os.PathLike[str], *, follow_symlinks: bool = False) -> ReadResult:
    """Read every record in a folder of ADRs, or a folder of such folders.

    Records come sorted by folder, then number (unnumbered ones last), then file name.
    Symbolic links inside the folder are followed only with ``follow_symlinks``; each one
    left alone, and each loop, is a problem of the result (see the module's rules).
    """
    root = Path(path)
    if not root.is_dir():
        raise InvalidInput(
            "path", f"{root} is not a folder", "a folder of ADR files, or of such folders"
        )
    result = ReadResult([], [], [])
    scanned = _scan(root, follow_symlinks, result.problems)
    keys = _folder_keys(root, [folder for folder, _ in scanned])
    for folder, names in scanned:
        folder_key = keys[folder]
        index = build_index(folder_key, names)
        found = ReadResult([], result.problems, result.skipped)
        for name in names:
            if name not in index.keys:
                result.skipped.append(folder / name)
                continue
            _read_one(folder / name, _Context(folder_key, index), found)
        result.records.extend(_settle_dates(found.records))
    result.records.sort(key=lambda r: (r.folder, r.number is None, r.number or 0, r.path.name))
    return result
