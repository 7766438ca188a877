"""``ended-by-cited``: a record says something is no longer done and cites the record that
ended it ("We also no longer want to store health plan data as a blob (see [ADR 023])");
the earlier record that decided it ("we'll store form data as blobs") is replaced in part
by the one cited."""

from __future__ import annotations

import re
from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.link.rules.cited import reference_at
from decisis.adr.link.rules.decided_later import TURNED_DOWN_MAX_SHARE
from decisis.adr.link.rules.subjects import share_limit
from decisis.adr.read.records import Link
from decisis.model import LinkState
from decisis.search.terms import term_counts
from decisis.search.text import as_written

__all__ = ["ended_by_cited"]

_NO_LONGER = re.compile(r"\bno\s+longer\b", re.IGNORECASE)
# "if we no longer need it (see ADR 5)", "could no longer …": a sentence weighing an end
# says nothing ended it.
_HEDGE = re.compile(r"\b(?:if|could|might|may|would|unless|whether)\b", re.IGNORECASE)
ENDED_WORDS = 12  # words between "no longer" and the reference, at most


def _ended(link: Link) -> str | None:
    """The words a link's sentence says are no longer done, when "no longer" comes before
    the reference in its sentence, within ``ENDED_WORDS`` words: "want to store health plan
    data as a blob (see" of "We also no longer want to store … (see ADR 023)"."""
    said = link.context
    at = reference_at(said, link)
    if at is None or _HEDGE.search(said[:at]):
        return None
    found = list(_NO_LONGER.finditer(said, 0, at))
    if not found:
        return None
    between = said[found[-1].end() : at]
    return between if len(between.split()) <= ENDED_WORDS else None


def ended_by_cited(ctx: RuleContext) -> Iterator[Proposal]:
    """For each such sentence, every record written before the cited one whose decision
    uses a word of what ended that few records use (at most ``TURNED_DOWN_MAX_SHARE`` of
    them): the cited record ended that part of it."""
    limit = share_limit(ctx, TURNED_DOWN_MAX_SHARE)
    for record in ctx.records:
        for link in record.links:
            new = ctx.by_key.get(link.target_key or "")
            if new is None or new.key == record.key or link.stated or link.kind != "body":
                continue
            words = _ended(link)
            if words is None:
                continue
            rare = {
                t for t in term_counts(words) if 0 < len(ctx.index.postings.get(t, ())) <= limit
            }
            if not rare:
                continue
            before = ctx.when(new)
            holders = {r.key: r for t in rare for r in ctx.holding(t)}
            for old in sorted(holders.values(), key=lambda r: (ctx.when(r), r.key)):
                if old.folder != new.folder or ctx.when(old) >= before:
                    continue
                named = rare & term_counts(old.decision).keys()
                if old.key in (record.key, new.key) or not named:
                    continue
                written = ", ".join(as_written(link.context, n) for n in sorted(named))
                evidence = f"{record.key}: no longer {written} ({new.key}): {link.context}"
                yield Proposal(
                    old.key,
                    new.key,
                    "ended-by-cited",
                    LinkState.CANDIDATE,
                    evidence,
                    True,
                    tuple(sorted(named)),
                )
