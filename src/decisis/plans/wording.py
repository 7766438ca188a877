"""What a decision says it leaves behind: the words after "instead of", "rather than",
"replaces", "not", "from … to" and the like.

A standing record often names what it replaced or turned down ("Use Amazon EKS … This
replaces usage of kOps", "Migrate from Serverless Framework to AWS CDK"). Those words are
not what it uses: a plan step naming them goes against it, and the record does not carry
them the way it carries what it chose. Each cue's window runs to the next punctuation or
joining word ("to", "with", "for", …), at most ``_WINDOW`` characters.
"""

from __future__ import annotations

import re

from decisis.search.text import terms

__all__ = ["left_behind", "used_terms", "windows"]

_CUES = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|away\s+from|no\s+longer|not"
    r"|(?:migrat|mov|switch|transition)\w*\s+(?:off|from)"
    r"|replac\w*|remov\w*|drop\w*|decommission\w*|deprecat\w*|retir\w*)\s+",
    re.IGNORECASE,
)
_FROM_TO = re.compile(r"\bfrom\s+((?:[\w@./+#`'-]+\s+){0,5}?[\w@./+#`'-]+)\s+to\b", re.I)
_STOP = re.compile(
    r"[.,;:!?()\[\]\n]|\s(?:to|with|by|for|from|in\s+favou?r|because|but|so|which|that|as|on|at"
    r"|into|onto|when|where|while|we|it)\b",
    re.IGNORECASE,
)
_WINDOW = 60


def windows(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that name what it leaves behind."""
    spans = []
    for cue in _CUES.finditer(text):
        start = cue.end()
        rest = text[start : start + _WINDOW]
        stop = _STOP.search(rest)
        end = start + (stop.start() if stop else len(rest))
        if end > start:
            spans.append((start, end))
    spans += [m.span(1) for m in _FROM_TO.finditer(text)]
    return sorted(spans)


def _split(text: str) -> tuple[str, str]:
    """(the text outside the windows, the windows' text)."""
    spans = windows(text)
    inside, outside, last = [], [], 0
    for begin, end in spans:
        start = max(begin, last)
        outside.append(text[last:start])
        inside.append(text[start:end])
        last = max(last, end)
    outside.append(text[last:])
    return " ".join(outside), " \n ".join(inside)


def left_behind(text: str) -> set[str]:
    """Terms ``text`` names only as what it leaves behind."""
    outside, inside = _split(text)
    return set(terms(inside)) - set(terms(outside))


def used_terms(text: str) -> set[str]:
    """Terms ``text`` names other than as what it leaves behind."""
    return set(terms(_split(text)[0]))
