"""Abbreviations every engineer knows, so a question and a record can spell them differently.

Records define some abbreviations themselves ("Modernisation Platform (MP)"), and
``decisis.search.terms`` learns those; the common ones they never spell out: a record
says "AWS SSO" and the question asks about "single sign-on". :func:`spelled_both_ways`
adds the other spelling of each abbreviation a text uses, in either direction, so the
term index can match it. The list holds general industry usage only, nothing of one
team or corpus; teams extend it with :func:`add_abbreviation`.
"""

from __future__ import annotations

import re
from collections.abc import Container

from decisis.errors import InvalidInput
from decisis.search.words import abbreviations

__all__ = ["ABBREVIATIONS", "add_abbreviation", "spelled_both_ways"]

ABBREVIATIONS: dict[str, str] = dict(abbreviations())  # data: words/abbreviations.toml

_WORD = re.compile(r"[a-z0-9]+")
_SHORT = re.compile(r"^[a-z][a-z0-9]{1,7}$")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def add_abbreviation(short: str, long: str) -> None:
    """Teach one more abbreviation (``add_abbreviation("pii", "personal data")``)."""
    key = short.strip().lower()
    if not _SHORT.match(key):
        raise InvalidInput("abbreviation", f"{short!r} is not one short word", "2-8 letters/digits")
    if len(_words(long)) < 1:
        raise InvalidInput("abbreviation", f"{long!r} has no words", "the words it stands for")
    ABBREVIATIONS[key] = " ".join(_words(long))


def spelled_both_ways(text: str, *, known: Container[str] = ()) -> list[str]:
    """The other spelling of each abbreviation ``text`` uses: short forms for the long
    ones it spells out (hyphens and case aside), and long forms for the short ones it
    has that are not ``known`` (a short form the records use finds them by itself, and
    its long form's common words, "cloud" of "elastic compute cloud", would only add
    noise)."""
    words = _words(text)
    joined = " " + " ".join(words) + " "
    present = set(words)
    out: list[str] = []
    for short, long in ABBREVIATIONS.items():
        if short in present:
            if short not in known and f" {long} " not in joined:
                out.append(long)
        elif f" {long} " in joined:
            out.append(short)
    return out
