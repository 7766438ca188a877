"""``replaces-use-of``: a later record replaces the use of a thing that one earlier record
used ("This replaces usage of kOps", "to replace the functionality that was previously
provided by our PSP configurations"): that record gives way in part, where it used it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.link.rules.named import HEDGE, RETIRED, SENTENCE, sentence_at
from decisis.adr.link.rules.subjects import DROP_WORDS
from decisis.adr.read.records import AdrRecord
from decisis.model import LinkState
from decisis.search.terms import term_counts

__all__ = ["replaces_use_of"]

_REPLACE = r"\b(?:replac|supers[ce]e?d|deprecat|retir|decomm?iss?ion)\w*"
_DET = r"(?:(?:the|our|its|their)\s+)?"
# "replaces usage of kOps", "deprecates the use of our Jenkins": what follows was used
_USE_OF = re.compile(rf"{_REPLACE}\s+{_DET}(?:usage|use)\s+of\s+{_DET}([\w-]+(?:\s+[\w-]+)?)", re.I)
# "replace the functionality (that was) previously provided by our PSP configurations"
_PROVIDED = re.compile(
    rf"{_REPLACE}\b[^.;:!?\n]{{0,60}}?\b(?:previously|formerly)\s+(?:provided|handled|done|offered"
    rf"|served|covered)\s+by\s+{_DET}([\w-]+(?:\s+[\w-]+)?)",
    re.IGNORECASE,
)
USED_MIN_MENTIONS = 2  # the earlier record names the thing this often, where it uses it
# A word more records than this hold ("configurations") is no one record's thing: it is
# not read (each holder's sentences would be), so a large ingest stays linear.
HOLDERS_READ = 50  # for speed, not fitted: the five corpora's used things have 2-3 holders


def _uses(record: AdrRecord, term: str) -> int:
    """How often ``record`` names ``term`` in sentences that say nothing gives way (where it
    uses the thing, not where it tells it was replaced)."""
    return sum(
        term_counts(s).get(term, 0) for s in SENTENCE.split(record.body) if not DROP_WORDS.search(s)
    )


def _numbered_before(ctx: RuleContext, a: AdrRecord, b: AdrRecord) -> bool:
    """Whether ``a`` came before ``b`` in their folder: by number when both have one (a
    re-dated header, "Date: 11/11/2024" on record 22 of 49, does not move it after record
    38; as ``decided_later`` reads them), else by when they were written."""
    if a.number is not None and b.number is not None:
        return a.number < b.number
    return ctx.later(a, b)


def replaces_use_of(ctx: RuleContext) -> Iterator[Proposal]:
    """For each term of what a sentence says it replaces the use of, the one earlier record
    of the folder that uses it (``USED_MIN_MENTIONS`` times), when only one does, and
    whose title does not name it (then ``names-replaced`` reads it, as a whole)."""
    for record in ctx.records:
        if record.status in RETIRED:
            continue
        own = term_counts(record.title).keys()
        body = record.body
        lower = body.lower()  # the phrases' own words first: most records have neither
        found = [*_USE_OF.finditer(body)] if " of " in lower and "use" in lower else []
        if "previously" in lower or "formerly" in lower:
            found += _PROVIDED.finditer(body)
        for match in sorted(found, key=_start):
            sentence = sentence_at(body, match.start())
            if HEDGE.search(sentence):
                continue
            for term in sorted(term_counts(match.group(1)).keys() - own):
                holders = ctx.holding(term)
                if len(holders) > HOLDERS_READ:
                    continue
                users = [
                    r
                    for r in holders
                    if r.folder == record.folder
                    and _numbered_before(ctx, r, record)
                    and _uses(r, term) >= USED_MIN_MENTIONS
                ]
                if len(users) != 1 or term in term_counts(users[0].title):
                    continue
                evidence = f"replaces the use of {term}: {' '.join(sentence.split())[:300]}"
                yield Proposal(
                    users[0].key,
                    record.key,
                    "replaces-use-of",
                    LinkState.CANDIDATE,
                    evidence,
                    True,
                    (term,),
                    for_named=True,
                )


def _start(match: re.Match[str]) -> int:
    return match.start()
