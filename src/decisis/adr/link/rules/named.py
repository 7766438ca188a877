"""Rules finding a later record that names an earlier one's subject as replaced, in a
sentence (``names-replaced``) or in its title (``title-replaces``)."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.link.rules.subjects import (
    DROP_WORDS,
    record_subjects,
    same_term,
    title_subjects,
)
from decisis.adr.read.records import AdrStatus
from decisis.adr.read.titles import replaced_in_title
from decisis.model import LinkState
from decisis.search.terms import term_counts, term_sequence
from decisis.search.text import as_written, terms

SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*[-*+]?\s*|\n")


def sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` (as ``SENTENCE`` splits it) that holds position ``at``: for
    a rule that finds its words in the whole text first and reads a sentence only then."""
    start = 0
    for gap in SENTENCE.finditer(text, max(0, text.rfind("\n", 0, at)), at):
        if gap.end() <= at:
            start = gap.end()
    found = SENTENCE.search(text, at)
    return text[start : found.start() if found else len(text)]


# A sentence with a replacement word (``DROP_WORDS``) names nothing replaced when it only
# weighs it ("there's a case for switching to that, if it is adopted", "it's not clear what
# will replace them, but X is a possibility") or denies it ("complementary hardening, not a
# replacement for the KMS policy controls").
HEDGE = re.compile(
    r"\b(?:if|could|might|may|would|possib\w*|a\s+case\s+for|not\s+clear|option"
    r"|(?:not|never)\s+(?:an?\s+|the\s+)?replac\w*)\b|n't\s+replac",
    re.IGNORECASE,
)


RETIRED = frozenset({AdrStatus.SUPERSEDED, AdrStatus.DEPRECATED, AdrStatus.REJECTED})
NAMED_WITHIN = 4  # words between a replacement word and the subject it names, at most
SAME_WORD_PREFIX = 5  # letters two forms of a word share at least ("manager", "management")


def _phrase_named(phrase: str, pairs: Iterable[tuple[str, str]], near: set[str]) -> bool:
    """Whether a sentence (its adjacent ``pairs`` of terms) writes the two-word subject
    ``phrase`` among the words ``near`` its replacement word, its first word also in
    another form that stemming keeps apart ("decommission our management cluster" names
    "manager cluster")."""
    first, second = phrase.split()
    return any(b == second and b in near and a in near and _same_word(a, first) for a, b in pairs)


def _same_word(a: str, b: str) -> bool:
    return a == b or (
        min(len(a), len(b)) >= SAME_WORD_PREFIX and a[:SAME_WORD_PREFIX] == b[:SAME_WORD_PREFIX]
    )


def _near_drop_words(sentence: str) -> tuple[set[str], set[str]]:
    """The terms of the words at most ``NAMED_WITHIN`` words from a word saying something
    gives way ("decommission our Concourse pipelines", "ElasticSearch due for retirement"):
    what the sentence says is replaced, not what it mentions further off ("by introducing
    Lambda, we ... treat the infrastructure as standard and replaceable"), and of those the
    ones near a word saying the whole gives way, not only a part of it (``PART_LEAVES``)."""
    drops = [(m.start(), m.end()) for m in DROP_WORDS.finditer(sentence)]
    if not drops:
        return set(), set()
    spans = [(m.start(), m.end()) for m in _SENTENCE_WORD.finditer(sentence)]
    starts, ends = [a for a, _ in spans], [b for _, b in spans]
    takes_over = [m.span() for m in _NEW_BEFORE.finditer(sentence)]
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(sentence)]
    near: set[str] = set()
    whole: set[str] = set()
    for start, end in drops:
        first = bisect.bisect_right(ends, start)  # the word the replacement word begins in
        last = max(first, bisect.bisect_left(starts, end) - 1)  # ... and the one it ends in
        # "the ELBs as its replacement", "replaced by X", "migrating to X": X is the new
        # thing, so only what the other side names was replaced
        before = not any(a <= start < b for a, b in takes_over) and not _OLD_AFTER.match(
            sentence, start
        )  # "X rather than Y", "X instead of Y": only Y gives way
        # "a bad prisma migration", "after the migration": the noun names what was moved,
        # not what gave way; only "migration from X" does
        noun = _MIGRATION_NOUN.match(sentence, start)
        before = before and not noun
        after = not _NEW_AFTER.match(sentence, start) and (
            not noun or bool(_FROM_AFTER.match(sentence, end))
        )
        # the words of its own clause only: "Migrated services incrementally, starting with
        # Lambda functions" names services, not Lambda
        left = max((b for b in breaks if b < start), default=-1)
        right = min((b for b in breaks if b >= end), default=len(sentence))
        # "React docs no longer recommend …": of the words before "no longer" after a noun,
        # only that noun, the one that stops doing something, may be what gives way
        reach = 1 if _acts_before(sentence, start) else NAMED_WITHIN + 1
        low = max(0, first - reach) if before else first
        high = min(len(spans), last + NAMED_WITHIN + 2) if after else last + 1
        part = bool(PART_LEAVES.match(sentence, start))
        for a, b in spans[low:high]:
            if a > left and b <= right:
                found = terms(sentence[a:b])
                near.update(found)
                if not part:
                    whole.update(found)
    return near, whole


def _acts_before(sentence: str, start: int) -> bool:
    """Whether the replacement word at ``start`` is "no longer" right after the noun that
    acts rather than after a verb ("React docs no longer recommend the use of CRA": the
    docs stop recommending, React gives way to nothing; "Jenkins no longer fits": Jenkins
    itself; "protobufs in the application are no longer relevant": the words before the
    verb may name what gives way)."""
    if not _NO_LONGER.match(sentence, start):
        return False
    before = _LAST_WORD.search(sentence, 0, start)
    return before is not None and before.group(1).lower() not in _VERB_BEFORE


# Auxiliaries and forms of "be" and "have" that "no longer" follows when what gives way is
# before it; any other word before it is the subject that acts ("docs no longer recommend").
_VERB_BEFORE = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
    ]
)
_NO_LONGER = re.compile(r"no\s+longer\b", re.IGNORECASE)
_LAST_WORD = re.compile(r"([A-Za-z']+)\W*$")


# "The terraform/data directory will be split out into its own repository": a part of what
# the older record decided moves away, the rest of it stands (a partial link), and what
# follows "into" is where it goes.
PART_LEAVES = re.compile(r"split\s+out\b", re.IGNORECASE)


_NEW_BEFORE = re.compile(r"\bas\s+(?:its|their|the|a|an|our)\s+replacement", re.IGNORECASE)
_NEW_AFTER = re.compile(
    r"(?:(?:replac|migrat|mov|switch)\w*\s+(?:by|with|to|over\s+to|on\s+to)|split\s+out\s+into)\b",
    re.IGNORECASE,
)
_OLD_AFTER = re.compile(r"(?:rather\s+than|instead\s+of)\b", re.IGNORECASE)
_MIGRATION_NOUN = re.compile(r"migrations?\b", re.IGNORECASE)
_FROM_AFTER = re.compile(r"\s+(?:away\s+)?(?:from|off)\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:()\u2013\u2014]|\s-\s")
_SENTENCE_WORD = re.compile(r"[^\s]+")


def names_replaced(ctx: RuleContext) -> Iterator[Proposal]:
    all_subjects = {r.key: record_subjects(ctx, r) for r in ctx.records}
    for record in ctx.records:
        # A sentence is part of the body, between non-word characters: one naming a
        # replacement means the body does. A record that no longer holds itself replaces
        # nothing ("This ADR is deprecated as we removed Protobufs": what removed them is
        # another record).
        if not DROP_WORDS.search(record.body) or record.status in RETIRED:
            continue
        earlier = [r for r in ctx.written_before(record) if all_subjects[r.key]]
        if not earlier:
            continue
        own = term_counts(record.title).keys()
        subjects = {r.key: all_subjects[r.key] - own for r in earlier}
        phrases = {key: [p for p in found if " " in p] for key, found in subjects.items()}
        reads_pairs = any(phrases.values())  # two-word subjects are rare: pairs only for them
        for sentence in SENTENCE.split(record.body):
            near, whole = _near_drop_words(sentence)  # empty without a replacement word
            if not near or HEDGE.search(sentence):
                continue
            pairs = list(itertools.pairwise(term_sequence(sentence))) if reads_pairs else []
            for other in earlier:
                named = {t for t in subjects[other.key] if any(same_term(n, t) for n in near)}
                named |= {p for p in phrases[other.key] if _phrase_named(p, pairs, near)}
                if named:
                    # only a part moved away: the rest of the older record stands
                    partial = not any(same_term(n, t) for t in named for n in whole) and not any(
                        _phrase_named(p, pairs, whole) for p in named if " " in p
                    )
                    said = ", ".join(as_written(sentence, n) for n in sorted(named))
                    evidence = f"names {said}: {' '.join(sentence.split())[:300]}"
                    yield Proposal(
                        other.key,
                        record.key,
                        "names-replaced",
                        LinkState.CANDIDATE,
                        evidence,
                        partial,
                        tuple(sorted(named)),
                    )


def title_replaces(ctx: RuleContext) -> Iterator[Proposal]:
    """A record whose title names what gives way ("Replace Kafka with SQS", "Mongo
    replacement by DocumentDB") replaces each earlier record of its folder whose title's
    rare words it names there, and when the title says what for ("… for order events"),
    whose title says so too. The title is the decision in a line, so the subject need not
    be repeated in the old record's body as ``names-replaced`` asks of a sentence."""
    subjects: dict[str, set[str]] = {}  # each earlier record's, read once
    for record in ctx.records:
        said = replaced_in_title(record.title)
        if said is None or record.status in RETIRED:
            continue
        named_words = set(term_counts(said.old))
        scope = set(term_counts(said.scope)) if said.scope else set()
        for other in ctx.written_before(record):
            found = subjects.get(other.key)
            if found is None:
                found = subjects[other.key] = title_subjects(ctx, other)
            named = found & named_words
            if scope and named and not scope & term_counts(other.title).keys():
                continue
            if named:
                written = ", ".join(as_written(record.title, n) for n in sorted(named))
                evidence = f"title names {written} as replaced: {record.title}"
                yield Proposal(
                    other.key,
                    record.key,
                    "title-replaces",
                    LinkState.CANDIDATE,
                    evidence,
                    named=tuple(sorted(named)),
                )
