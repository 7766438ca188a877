"""Markdown headings and title lines, read in time linear in the text.

``^[ \\t]{0,3}(#{1,6})[ \\t]+(.*?)[ \\t#]*$`` reads an ATX heading faithfully and takes time
quadratic in the line: the lazy group tries each end, and each try runs the trailing class
to the end of the line again. One record whose heading was 48,000 ``#`` took 78 s to read,
and one at the size limit would have taken hours. Here a line is looked at only through
patterns anchored where they are tried and at most ten characters long, and the rest of
the work is done by string methods that pass over each character once.

Each function names the expression it reads exactly as; ``tests/adr/test_adr_linear.py``
checks each against that expression on random text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["atx_headings", "is_atx_line", "setext_title"]

# Up to three spaces, one to six hashes and a space or tab: ten characters at most, so a
# line is never read past its start to learn whether it is a heading.
_ATX_OPEN = re.compile(r"[ \t]{0,3}(#{1,6})[ \t]")
_ATX_LINE = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]", re.M)
_LEADING_SPACE = re.compile(r"\s*")
_UNDERLINE = re.compile(r"=+[ \t]*")
_NOT_A_TITLE_START = "\n#>|`*-"


def is_atx_line(line: str) -> bool:
    """Whether ``line`` (one line, its line break kept or not) is an ATX heading: whether
    ``re.match(r"^[ \\t]{0,3}(#{1,6})[ \\t]+(.*?)[ \\t#]*$", line.rstrip("\\n"))`` matches."""
    return _ATX_OPEN.match(line) is not None


def atx_headings(text: str) -> Iterator[tuple[int, int, int]]:
    """``(start, end, level)`` of each ATX heading line of ``text``, ``end`` before its line
    break: the spans and ``len(group(1))`` of
    ``re.finditer(r"^[ \\t]{0,3}(#{1,6})[ \\t]+(.*?)[ \\t#]*$", text, re.M)``.

    Lines end at ``\\n`` only, as ``^``, ``$`` and ``.`` have them.
    """
    for m in _ATX_LINE.finditer(text):
        end = text.find("\n", m.end())
        yield m.start(), end if end >= 0 else len(text), len(m.group(1))


def setext_title(text: str) -> tuple[str, int] | None:
    """The title line of a setext title opening ``text`` and where its ``===`` line ends:
    ``group(1)`` and ``end()`` of ``re.search(r"\\A\\s*([^\\n#>|`*-][^\\n]*)\\n=+[ \\t]*$",
    text, re.M)``, or ``None`` when it does not match.

    That expression, on a long run of spaces, gives them back one at a time and reads the
    rest of the line after each. Only two places can start its title: on the line where the
    leading white space ends, at its end (or the character before, when that one may not
    open a title), all others on that line sharing the same line and so the same verdict;
    or, when the ``===`` line itself ends that white space, the last character of the
    (blank) line before it.
    """
    leading = _LEADING_SPACE.match(text)
    space_end = leading.end() if leading else 0
    line_start = text.rfind("\n", 0, space_end) + 1
    for k in (space_end, space_end - 1):
        if line_start <= k < len(text) and text[k] not in _NOT_A_TITLE_START:
            found = _titled(text, k)
            if found is not None:
                return found
            break
    before = line_start - 2  # the last character of the line before, if it has one
    if space_end == line_start and before >= 0 and text[before] != "\n":
        return _titled(text, before)
    return None


def _titled(text: str, start: int) -> tuple[str, int] | None:
    """The title from ``start`` to its line's end, when the next line is all ``=``."""
    end = text.find("\n", start)
    if end < 0:
        return None
    under_end = text.find("\n", end + 1)
    under_end = under_end if under_end >= 0 else len(text)
    if _UNDERLINE.fullmatch(text, end + 1, under_end) is None:
        return None
    return text[start:end], under_end
