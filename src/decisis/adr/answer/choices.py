"""Questions that offer a choice ("A or B"), and whether a record names one of the choices.

"Should my app keep its secrets in AWS Secrets Manager or in Kubernetes Secrets?" shares
most of its words with a record on clusters that mentions AWS and Kubernetes, yet a record
that names neither choice cannot say which one to take. Each side of an "or" is read up to
the nearest punctuation, at most three words; what stands for a side is its rarest word that
the records know (a side of words no record uses is named by none). An "or" after a comma
joins clauses ("…, or do we only use it for tests?") and offers no choice of words.
"""

from __future__ import annotations

import re

from decisis.search.terms import TermIndex
from decisis.search.text import terms

__all__ = ["Choice", "choices", "names_a_choice"]

_OR = re.compile(r"(?<![,;])\s+or\s+", re.IGNORECASE)
_BREAK = re.compile(r"[,;:()?!]|(?<!\w)[-\u2013\u2014](?!\w)")  # a dash between words joins them
_WORD = re.compile(r"\w[\w.\-/]*")
_SIDE_WORDS = 3

Choice = tuple[str, str]  # the two sides as written


def choices(question: str) -> list[Choice]:
    """The choices ``question`` offers, each as its two sides ("AWS Secrets Manager",
    "Kubernetes Secrets"); empty when it offers none."""
    found = []
    for m in _OR.finditer(question):
        before = _trimmed(_WORD.findall(_BREAK.split(question[: m.start()])[-1])[-_SIDE_WORDS:])
        after = _WORD.findall(_BREAK.split(question[m.end() :])[0])[:_SIDE_WORDS]
        after = _trimmed(_before_predicate(after))
        if before and after:
            found.append((" ".join(before), " ".join(after)))
    return found


# Words that say something of the sides rather than name them ("Are IPv6 or dual-stack
# subnets supported …?"): the side after an "or" ends before one.
_PREDICATES = frozenset(
    [
        "supported",
        "allowed",
        "used",
        "enabled",
        "permitted",
        "recommended",
        "preferred",
        "required",
        "needed",
        "expected",
        "mandated",
        "banned",
        "deprecated",
        "approved",
        "available",
        "possible",
        "acceptable",
        "ok",
        "okay",
        "fine",
        "better",
        "best",
    ]
)


def _before_predicate(side: list[str]) -> list[str]:
    """``side`` up to the first word after its first that is a predicate (``_PREDICATES``)."""
    for i, word in enumerate(side[1:], 1):
        if word.lower() in _PREDICATES:
            return side[:i]
    return side


def _trimmed(side: list[str]) -> list[str]:
    """A side's words without the stop words at either end ("in Kubernetes Secrets", "Are
    IPv6"): they name nothing, and an abstention names the sides as the question wrote them."""
    named = [i for i, word in enumerate(side) if terms(word)]
    return side[named[0] : named[-1] + 1] if named else []


def _rarest(side: str, index: TermIndex) -> str | None:
    known = [t for t in terms(side) if t in index.postings]
    return max(known, key=lambda t: (index.idf(t), t)) if known else None


def names_a_choice(choice: Choice, index: TermIndex, doc_id: str) -> bool:
    """Whether document ``doc_id`` of ``index`` names either side of ``choice``: the side's
    rarest word that the index knows."""
    slot = index.slot(doc_id)
    if slot is None:
        return False
    record = index.vectors[slot]
    return any((rarest := _rarest(side, index)) is not None and rarest in record for side in choice)
