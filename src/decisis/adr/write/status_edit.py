"""Changing a record's status in the record's own format, leaving every other byte alone.

The status is changed where the reader reads it, in the order the record's format reads
it (see :mod:`decisis.adr.read.formats`): the first block of a ``## Status`` section
(``✅ Accepted`` becomes ``Superseded by [7. Title](0007-title.md)``), the value of a
``- Status: accepted`` line, or front matter ``status:``. A record that states none gets
one: a ``status:`` key when it has front matter, else a ``## Status`` section before its
first section. A status *line* (``Amends [10. Title](0010-title.md)``, as ``adr link``
adds) goes after the last status block of a Status section, or else under the title.

Line ends (``\\r\\n``) and a byte-order mark are kept as the file had them.
"""

from __future__ import annotations

import re
from typing import Literal

from decisis.adr.read.formats import choose_format, status_field, status_section
from decisis.adr.read.markdown import MarkdownDoc, parse_markdown
from decisis.adr.write.templates import yaml_value

__all__ = ["add_status_line", "set_status"]

_Where = Literal["section", "field", "front"]
_ORDER: dict[str, tuple[_Where, ...]] = {
    "nygard": ("section", "field", "front"),
    "log4brains": ("field", "front", "section"),
}
_DEFAULT_ORDER: tuple[_Where, ...] = ("front", "field", "section")
_FRONT_STATUS = re.compile(r"^status[ \t]*:[^\n]*", re.M | re.I)
_FRONT_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)


class _Text:
    """A record's text with ``\\n`` line ends, as the reader sees it, and how to give it back."""

    def __init__(self, text: str) -> None:
        self.bom = text.startswith("\ufeff")
        body = text[1:] if self.bom else text
        self.crlf = "\r\n" in body and "\n" not in body.replace("\r\n", "")
        self.text = body.replace("\r\n", "\n").replace("\r", "\n")
        self.doc = parse_markdown(self.text)
        self.front = len(self.text) - len(self.doc.text)  # where the parsed text starts

    def back(self, text: str) -> str:
        return ("\ufeff" if self.bom else "") + (text.replace("\n", "\r\n") if self.crlf else text)


def _where(doc: MarkdownDoc) -> tuple[_Where, tuple[int, int]] | None:
    """Where the reader takes this record's status from, with the span of what to replace."""
    for where in _ORDER.get(choose_format(doc).name, _DEFAULT_ORDER):
        if where == "section":
            found = status_section(doc)
            if found is not None and found[1]:
                return "section", _trimmed(doc.text, found[1][0])
        elif where == "field":
            field = status_field(doc)
            if field is not None:
                return "field", field[1]
        elif doc.front_matter.get("status"):
            return "front", (0, 0)
    return None


def _trimmed(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` without the blank lines a block's span ends with."""
    start, end = span
    return start, start + len(text[start:end].rstrip())


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _first_section(t: _Text) -> int:
    return t.front + (t.doc.sections[0].start if t.doc.sections else len(t.doc.text))


def _paragraph_at(text: str, at: int, paragraph: str) -> str:
    """``paragraph`` inserted at ``at`` as a block of its own, blank lines around it."""
    before = text[:at].rstrip("\n")
    after = text[at:].lstrip("\n")
    return f"{before}\n\n{paragraph}\n" + (f"\n{after}" if after else "")


def set_status(text: str, status: str) -> str:
    """``text`` with its status replaced by ``status`` (one line), the rest unchanged."""
    t = _Text(text)
    found = _where(t.doc)
    if found is not None and found[0] != "front":
        start, end = found[1]
        return t.back(_splice(t.text, t.front + start, t.front + end, status))
    value = f"status: {yaml_value(status)}"
    if found is not None:  # front matter: the status key's line
        m = _FRONT_STATUS.search(t.text, 0, t.front)
        if m is not None:
            return t.back(_splice(t.text, m.start(), m.end(), value))
    if t.front:
        close = list(_FRONT_CLOSE.finditer(t.text, 0, t.front))[-1]
        return t.back(_splice(t.text, close.start(), close.start(), value + "\n"))
    at = _first_section(t) if t.doc.sections else t.front + t.doc.title_end
    return t.back(_paragraph_at(t.text, at, f"## Status\n\n{status}"))


def add_status_line(text: str, line: str) -> str:
    """``text`` with ``line`` added after its status blocks (``Amends [10. X](0010-x.md)``)."""
    t = _Text(text)
    found = _where(t.doc)
    if found is not None and found[0] == "section":
        section = status_section(t.doc)
        assert section is not None  # _where found its spans
        end = t.front + _trimmed(t.doc.text, section[1][-1])[1]
        return t.back(_splice(t.text, end, end, f"\n\n{line}"))
    at = _first_section(t) if t.doc.sections else len(t.text)
    return t.back(_paragraph_at(t.text, at, line))
