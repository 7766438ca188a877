"""Rules reading the links a record writes to another: its status line, "we move on to [x]",
"this replaces [ADR-12]"."""

from __future__ import annotations

import re
from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.read.records import AdrRecord, AdrStatus, Link
from decisis.model import LinkState

_REPLACED_STATUSES = {
    AdrStatus.SUPERSEDED,
    AdrStatus.AMENDED,
    AdrStatus.REJECTED,
    AdrStatus.DEPRECATED,
}
_MOVE_ON_VERBS = {"move on", "move away", "supersede", "replace", "deprecate", "retire", "obsolete"}
_CITE_VERBS = {
    "replace",
    "migrate",
    "instead of",
    "supersede",
    "deprecate",
    "in favour of",
    "move away",
    "switch",
}


# "This ADR in part supersedes 0003", "replaces ADR 3 in part" (in the sentence citing it): the
# older record still stands in part.
_IN_PART = re.compile(
    r"\b(?:in\s+part|partly|partially)\s+(?:supersed|supercede|replac|deprecat|amend)"
    r"|\b(?:supersed|supercede|replac|deprecat|amend)\w*(?:\s+\S+){0,4}?\s+(?:in\s+part|partly"
    r"|partially)\b",
    re.IGNORECASE,
)


# "Decision 036 reduces the blast radius …, but this still leaves the noisy neighbour
# problem": the cited decision, what "this" stands for, falls short, and the record citing it
# changes that part. Not "a limitation of ADR-026 that this integration does not resolve"
# (the new record is what does not solve it), nor "ADR 12 does not cover metrics" (a record
# leaving X out is not replaced by the one deciding X: another aspect of the same subject).
_FALLS_SHORT = re.compile(
    r"\b(?:but|yet|however),?\s+(?:this|it|that)\s+(?:still\s+)?leaves\b", re.IGNORECASE
)


def _falls_short(link: Link) -> bool:
    """Whether a link's sentence says the cited record, named before the words, leaves a
    problem unsolved (``_FALLS_SHORT``): a later record citing it so takes over that part."""
    at = reference_at(link.context, link)
    found = _FALLS_SHORT.search(link.context)
    return at is not None and found is not None and at < found.start()


VERB_WITHIN = 8  # words between a replacement word and the reference it is about, at most


def _verbs_near(link: Link) -> tuple[str, ...]:
    """The replacement verbs of a link's sentence within ``VERB_WITHIN`` words of where it
    names the record: "ship the work related to ADR 023 and still leave protobufs lingering
    ... after the migration" is not about ADR 023 being replaced."""
    from decisis.adr.read.references import find_verbs

    said = link.context
    at = reference_at(said, link)
    if at is None:
        return link.verbs
    words = said.split()
    position = len(said[:at].split())
    window = " ".join(words[max(0, position - VERB_WITHIN) : position + VERB_WITHIN + 1])
    return find_verbs(window)


def reference_at(sentence: str, link: Link) -> int | None:
    """Where in its sentence a link names its record, as far as the words tell."""
    number = link.target_number
    candidates = [link.target]
    if number is not None:
        candidates += [
            f"ADR {number}",
            f"ADR-{number}",
            f"{number:03d}",
            f"{number:04d}",
            str(number),
        ]
    for said in candidates:
        at = sentence.find(said)
        if at >= 0:
            return at
    return None


def _targets(record: AdrRecord, kind: str) -> Iterator[tuple[Link, str]]:
    for link in record.links:
        if link.kind == kind and link.target_key and link.target_key != record.key:
            yield link, link.target_key


def status_line(ctx: RuleContext) -> Iterator[Proposal]:
    for record in ctx.records:
        for link, target in _targets(record, "status"):
            partial = record.status is AdrStatus.AMENDED or "amend" in link.verbs
            if link.role == "predecessor":
                yield Proposal(
                    target, record.key, "status-line", LinkState.STATED, link.context, partial
                )
            elif link.role == "successor" or record.status in _REPLACED_STATUSES:
                yield Proposal(
                    record.key, target, "status-line", LinkState.STATED, link.context, partial
                )


def stated_in_text(ctx: RuleContext) -> Iterator[Proposal]:
    """A replacement said outright in a record's text, by the new record ("We supersede
    [ADR 18] with the current ADR", "This ADR overrides our previous decision from ADR 004")
    or by the old one ("This decision has been superseded by [ADR 7]"): as stated as a status
    line, whichever record says it."""
    for record in ctx.records:
        for link, target in _targets(record, "body"):
            if not link.stated or target not in ctx.by_key:
                continue
            partial = bool(_IN_PART.search(link.context)) or "amend" in link.verbs
            if link.role == "predecessor":
                yield Proposal(
                    target, record.key, "stated-in-text", LinkState.STATED, link.context, partial
                )
            elif link.role == "successor":
                yield Proposal(
                    record.key, target, "stated-in-text", LinkState.STATED, link.context, partial
                )


def moves_on(ctx: RuleContext) -> Iterator[Proposal]:
    for record in ctx.records:
        for link, target in _targets(record, "body"):
            other = ctx.by_key.get(target)
            if link.stated:
                continue
            forward = link.role in ("successor", "destination") or (
                link.role is None and bool(_MOVE_ON_VERBS & set(link.verbs))
            )
            if other is not None and forward and ctx.later(record, other):
                yield Proposal(record.key, target, "moves-on", LinkState.CANDIDATE, link.context)


def cites_replaced(ctx: RuleContext) -> Iterator[Proposal]:
    for record in ctx.records:
        for link, target in _targets(record, "body"):
            other = ctx.by_key.get(target)
            if link.stated:
                continue  # stated-in-text proposes it, as stated
            short = link.role is None and _falls_short(link)
            backward = link.role == "predecessor" or (
                link.role is None and bool(_CITE_VERBS & set(_verbs_near(link)))
            )  # a "destination" ("the migration to EKS") was adopted, not replaced
            if other is not None and (backward or short) and ctx.later(other, record):
                partial = bool(_IN_PART.search(link.context)) or (short and not backward)
                yield Proposal(
                    target, record.key, "cites-replaced", LinkState.CANDIDATE, link.context, partial
                )
