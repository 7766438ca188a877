"""``same-question``: a later record of the same folder decides the same question."""

from __future__ import annotations

from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.read.records import AdrRecord
from decisis.model import LinkState

SAME_QUESTION_MIN = 0.18  # cosine of distinctive-term vectors
SAME_QUESTION_TOP = 2  # each record must be among the other's closest this many


def _closest(ctx: RuleContext, record: AdrRecord, later: bool) -> list[tuple[float, str]]:
    """Records of the same folder written after (or before) ``record``, most similar first."""
    index, own = ctx.index, ctx.index.slot(record.key)
    others = ctx.written_after(record) if later else ctx.written_before(record, same_time=True)
    found = []
    for other in others:
        if other.key == record.key:
            continue
        slot = index.slot(other.key)
        if own is not None and slot is not None:
            found.append((index.similarity(own, slot), other.key))
    found.sort(reverse=True)
    return found[:SAME_QUESTION_TOP]


def same_question(ctx: RuleContext) -> Iterator[Proposal]:
    for record in ctx.records:
        for score, newer_key in _closest(ctx, record, later=True):
            if score < SAME_QUESTION_MIN:
                continue
            newer = ctx.by_key[newer_key]
            if record.key not in {k for _, k in _closest(ctx, newer, later=False)}:
                continue
            a, b = ctx.index.slot(record.key), ctx.index.slot(newer_key)
            shared = ctx.index.shared_terms(a, b) if a is not None and b is not None else []
            evidence = f"similarity {score:.2f}; shared terms: {', '.join(shared)}"
            yield Proposal(record.key, newer_key, "same-question", LinkState.CANDIDATE, evidence)
