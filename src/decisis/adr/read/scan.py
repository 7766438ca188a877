"""Searching ahead in linear time, for spans whose openings are many and whose closings few.

``<s>.*?</s>`` reads struck-through text faithfully, and takes quadratic time on a status
line of ``<s><s><s>…`` that nothing closes: each opening reads to the end of the text before
failing, and the next one reads it again. :class:`Ahead` remembers where a closing was found
(or that none was), so that each part of the text is searched once however many openings
come before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["Ahead", "replace_spans"]


class Ahead:
    """The first match of ``pattern`` at or after a position, for positions that grow.

    A search that found its match at ``x`` from ``p`` has the answer for every position
    from ``p`` to ``x``, so it is kept; callers ask with positions that do not go back
    (one asked with a smaller position is searched again, never answered wrongly).
    """

    def __init__(self, text: str, pattern: re.Pattern[str]) -> None:
        self._text = text
        self._pattern = pattern
        self._asked = len(text) + 1  # nothing asked yet: the first question searches
        self._found: re.Match[str] | None = None

    def next(self, pos: int) -> re.Match[str] | None:
        """The first match starting at ``pos`` or after, or ``None`` when there is none."""
        stale = pos < self._asked or (self._found is not None and self._found.start() < pos)
        if stale:
            self._found = self._pattern.search(self._text, pos)
        self._asked = pos
        return self._found

    def at(self, pos: int) -> int:
        """Where the first match at ``pos`` or after starts, or ``len(text)``."""
        found = self.next(pos)
        return found.start() if found is not None else len(self._text)


def replace_spans(
    text: str, spans: Iterable[tuple[int, int]], replacement: Callable[[int, int], str]
) -> str:
    """``text`` with each of the (sorted, disjoint) ``spans`` replaced, in one pass."""
    pieces, at = [], 0
    for start, end in spans:
        pieces += [text[at:start], replacement(start, end)]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)
