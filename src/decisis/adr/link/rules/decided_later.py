"""Rules finding the later record that decides what an earlier one turned down
(``chooses-turned-down``) or left open (``decides-deferred``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext, order_key
from decisis.adr.link.rules.subjects import rare_terms, share_limit
from decisis.adr.read.records import AdrRecord
from decisis.model import LinkState
from decisis.search.text import as_written, terms

# "… manage the cluster ourselves rather than using EKS": what follows is turned down.
_TURNED_DOWN = re.compile(
    r"\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|decided\s+against|not\s+to\s+use"
    r"|ruled\s+out|in\s+preference\s+to)\s+(?:using\s+|adopting\s+|an?\s+|the\s+)?"
    r"([^.;:!?\n]{1,60})",
    re.IGNORECASE,
)
TURNED_DOWN_WORDS = 4  # how many words after the phrase name what was turned down
TURNED_DOWN_MAX_SHARE = 0.2  # ... and those of them in at most this share of the records


def _turned_down(ctx: RuleContext, record: AdrRecord) -> set[str]:
    """The names ``record`` turned down ("rather than using EKS": ``eks``): words written
    as names (capitalised, or with digits) that few records use."""
    out: set[str] = set()
    for match in _TURNED_DOWN.finditer(record.body):
        named = [
            w
            for w in match.group(1).split()[:TURNED_DOWN_WORDS]
            if w[:1].isupper() or any(c.isdigit() for c in w)
        ]
        out |= rare_terms(ctx, " ".join(named), TURNED_DOWN_MAX_SHARE)
    return out


def chooses_turned_down(ctx: RuleContext) -> Iterator[Proposal]:
    """The first later record of the same folder titled after what an earlier one turned
    down reverses it (``014`` "… rather than using EKS", ``022`` "EKS"); records after
    that one build on the reversal rather than make it."""
    for record in ctx.records:
        for name, newer in _first_titled_after(ctx, record, _turned_down(ctx, record)):
            said = as_written(record.body, name)
            evidence = f"{record.key} turned down {said}; {newer.key} chose it"
            yield Proposal(
                record.key,
                newer.key,
                "chooses-turned-down",
                LinkState.CANDIDATE,
                evidence,
                named=(name,),
            )


def _first_titled_after(
    ctx: RuleContext, record: AdrRecord, names: set[str]
) -> Iterator[tuple[str, AdrRecord]]:
    """For each of ``names`` (terms ``record``'s own title lacks), the first record of its
    folder written after it whose title has that term."""
    names = names - set(terms(record.title))
    if not names:
        return
    later = sorted(  # in a folder the numbers tell the order better than re-dated headers
        ctx.written_after(record),
        key=lambda r: (r.number if r.number is not None else 1 << 30, order_key(r)),
    )
    for name in sorted(names):
        newer = next((r for r in later if name in terms(r.title)), None)
        if newer is not None:
            yield name, newer


# "Manual cluster scaling, with future consideration of auto-scaling", "Cluster auto-scaling
# should be considered soon", "X - to be investigated": the record leaves X to be decided.
_DEFERRED_AFTER = re.compile(
    r"\b(?:future\s+consideration\s+of|consider(?:ing)?\s+later|(?:re-?visit|look\s+into)\s+later)"
    r"\s+(?:using\s+|adopting\s+|an?\s+|the\s+)?([^.;:!?\n]{1,60})",
    re.IGNORECASE,
)
# ... with what is left open before the phrase (the phrase is found first: a pattern that
# also matched the words before it tried sixty starts at every character of every record)
_DEFERRED_BEFORE = re.compile(
    r"\b(?:(?:should|will)\s+be\s+(?:considered|investigated|decided|revisited)\s+(?:soon"
    r"|later|in\s+(?:the\s+)?future|at\s+a\s+later\s+date)"
    r"|(?:(?:is|are|remains?)\s+)?to\s+be\s+(?:investigated|decided))\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.;:!?\n]")
DEFERRED_WORDS = 4  # how many words next to the phrase name what is left to be decided
DEFERRED_SPAN = 60  # ... within this many characters of it, in its sentence


def _deferred(ctx: RuleContext, record: AdrRecord) -> set[str]:
    """The terms of what ``record`` leaves to be decided later ("with future consideration of
    auto-scaling": ``scale``): the words next to the phrase that few records use."""
    limit = share_limit(ctx, TURNED_DOWN_MAX_SHARE)
    body = record.body
    named: list[str] = []
    for match in _DEFERRED_AFTER.finditer(body):
        named += match.group(1).split()[:DEFERRED_WORDS]
    for match in _DEFERRED_BEFORE.finditer(body):
        before = _SENTENCE_END.split(body[max(0, match.start() - DEFERRED_SPAN) : match.start()])
        named += before[-1].rstrip(" \t_*-").split()[-DEFERRED_WORDS:]
    return {t for t in terms(" ".join(named)) if 0 < len(ctx.index.postings.get(t, ())) <= limit}


def decides_deferred(ctx: RuleContext) -> Iterator[Proposal]:
    """The first later record of the same folder titled after what an earlier one left to
    be decided takes that part over ("future consideration of auto-scaling" -> a record
    titled "Use Karpenter for scaling"); the rest of the earlier record still stands."""
    for record in ctx.records:
        for name, newer in _first_titled_after(ctx, record, _deferred(ctx, record)):
            said = as_written(record.body, name)
            evidence = f"{record.key} left {said} to be decided; {newer.key} decides it"
            yield Proposal(
                record.key,
                newer.key,
                "decides-deferred",
                LinkState.CANDIDATE,
                evidence,
                True,
                (name,),
            )
