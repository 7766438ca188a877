"""``uses-another``: a later record takes another's kind of what an earlier one chose ("We
will use the Modernisation Platform SSO for engineer access" after "Use SSO for CP Team to
access AWS Console"): the earlier choice of that thing gives way to the later one."""

from __future__ import annotations

import re
from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.link.rules.named import HEDGE, RETIRED, sentence_at
from decisis.adr.link.rules.subjects import record_subjects
from decisis.adr.read.records import AdrRecord
from decisis.model import LinkState
from decisis.search.terms import term_counts

__all__ = ["uses_another"]

# "use the Modernisation Platform SSO", "switch to an Azure AD login": what is taken, as
# the words after the verb (the names before its head, then the head).
_TAKES = re.compile(
    r"\b(?:use|using|adopt|adopting|move\s+to|switch\s+to)\s+(?:the\s+|an?\s+)?"
    r"((?:[\w-]+[ \t]+){0,3}[\w-]+)",
    re.IGNORECASE,
)


def _taken(said: str) -> Iterator[tuple[set[str], str]]:
    """The (names, head) readings of what a verb takes: one to three capitalised words and
    the word after them ("Modernisation Platform" and "SSO")."""
    words = said.split()
    for k in range(1, len(words)):
        if not words[k - 1][:1].isupper():
            break
        names = set(term_counts(" ".join(words[:k])))
        head = list(term_counts(words[k]))
        if names and len(head) == 1:
            yield names, head[0]


def uses_another(ctx: RuleContext) -> Iterator[Proposal]:
    """For each earlier record of the folder whose subject (``record_subjects``) is the
    head of what a later record's sentence takes, when a name before it is one the earlier
    record never uses (so it is another's), the later record replaces it. Only records
    whose title has the head can have it as subject: those are the ones read."""
    titled: dict[str, list[AdrRecord]] = {}
    for record in ctx.records:
        for term in term_counts(record.title):
            titled.setdefault(term, []).append(record)
    subjects: dict[str, set[str]] = {}
    bodies: dict[str, set[str]] = {}

    def subject_of(record: AdrRecord) -> set[str]:
        found = subjects.get(record.key)
        if found is None:
            found = subjects[record.key] = record_subjects(ctx, record)
        return found

    def body_of(record: AdrRecord) -> set[str]:
        found = bodies.get(record.key)
        if found is None:
            found = bodies[record.key] = set(term_counts(record.body))
        return found

    for record in ctx.records:
        if record.status in RETIRED:
            continue
        own = term_counts(record.title).keys()
        seen: set[str] = set()
        for match in _TAKES.finditer(record.body):
            for names, head in _taken(match.group(1)):
                if head in own or head not in titled:
                    continue
                found = [
                    other
                    for other in titled[head]
                    if other.key not in seen
                    and other.folder == record.folder
                    and ctx.later(other, record)
                    and head in subject_of(other)
                    and names - body_of(other)
                ]
                sentence = sentence_at(record.body, match.start()) if found else ""
                if not found or HEDGE.search(sentence):
                    continue
                for other in found:
                    seen.add(other.key)
                    evidence = f"takes another's {head}: {' '.join(sentence.split())[:300]}"
                    yield Proposal(
                        other.key,
                        record.key,
                        "uses-another",
                        LinkState.CANDIDATE,
                        evidence,
                        named=(head,),
                    )
