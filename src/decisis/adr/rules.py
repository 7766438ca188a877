"""Link rules: each proposes ``old -> new`` supersession links between records, with evidence.

A rule is a name, a Beta prior on how often its links are right, and a ``propose``
function over the records of one ingest. The built-in rules are registered with
``register`` like any team's own::

    status-line     a status line names the replacement ("Superseded by [036](036-x.md)")
                    -> state ``stated``; everything else is ``candidate``
    moves-on        an old record's body says the team moves on to a linked later record
    cites-replaced  a new record cites an older one next to replace / migrate / instead of /
                    supersede / deprecate / in favour of
    chooses-turned-down  a later record decides for what an earlier one turned down
                    ("rather than using EKS" -> a record titled "EKS")
    decides-deferred  a later record decides what an earlier one left to be decided ("with
                    future consideration of auto-scaling" -> "Use Karpenter for scaling"):
                    a partial link, the rest of the earlier record still stands
    title-replaces  a later record's title says what of an earlier one it replaces ("Replace
                    Kafka with SQS" -> the record titled "Use Kafka for order events")
    same-question   a later record of the same folder decides the same question: similar
                    distinctive terms and title, each among the other's closest

A link's trust is its rule's Beta mean ``s / (s + f)``; its cost for a walk is
``-log(trust)``. Corrections move the counts (see ``decisis.adr.corrections``).
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from decisis.adr.records import AdrRecord, AdrStatus, Link
from decisis.adr.titles import replaced_in_title
from decisis.errors import InvalidInput
from decisis.model import LinkState
from decisis.search.embed_static import is_common_word
from decisis.search.terms import TermIndex, term_counts, term_sequence
from decisis.search.text import terms, words

__all__ = [
    "FunctionRule",
    "LinkRule",
    "Proposal",
    "RuleContext",
    "Trust",
    "get_rule",
    "propose_links",
    "register",
    "rules",
]


@dataclass(frozen=True, slots=True)
class Trust:
    """A Beta(successes, failures) belief that a rule's links are right."""

    successes: float
    failures: float

    @property
    def mean(self) -> float:
        return self.successes / (self.successes + self.failures)

    @property
    def cost(self) -> float:
        """The cost of walking one link of this trust: ``-log(mean)``."""
        return -math.log(max(self.mean, 1e-9))

    def moved(self, successes: float = 0.0, failures: float = 0.0) -> Trust:
        return Trust(self.successes + successes, self.failures + failures)


@dataclass(frozen=True, slots=True)
class Proposal:
    """One proposed link: record ``new`` replaces record ``old``, says ``rule``, because
    ``evidence``. ``partial`` marks an amendment: part of ``old`` still stands."""

    old: str
    new: str
    rule: str
    state: LinkState
    evidence: str
    partial: bool = False


@dataclass
class RuleContext:
    """The records of one ingest and the term statistics the rules share."""

    records: Sequence[AdrRecord]
    by_key: dict[str, AdrRecord] = field(init=False)
    by_folder: dict[str, list[AdrRecord]] = field(init=False)  # in ``records`` order
    index: TermIndex = field(init=False)
    # Per folder, the ``order_key`` of its records sorted, and their places in ``by_folder``
    # in that order: the records written before or after one are a slice of it.
    _order: dict[str, tuple[list[tuple[dt.date, int]], list[int]]] = field(init=False, repr=False)
    _term_texts: dict[str, str] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_key = {r.key: r for r in self.records}
        self.by_folder = {}
        for r in self.records:
            self.by_folder.setdefault(r.folder, []).append(r)
        self._order = {}
        for folder, members in self.by_folder.items():
            keyed = sorted((order_key(r), place) for place, r in enumerate(members))
            self._order[folder] = ([k for k, _ in keyed], [place for _, place in keyed])
        self.index = TermIndex.build((r.key, record_fields(r)) for r in self.records)

    def term_text(self, record: AdrRecord) -> str:
        """``record``'s body as its terms joined by spaces, with a space at each end (to
        find a phrase of terms with ``in``); worked out once per record."""
        found = self._term_texts.get(record.key)
        if found is None:
            found = self._term_texts[record.key] = f" {' '.join(term_sequence(record.body))} "
        return found

    def later(self, a: AdrRecord, b: AdrRecord) -> bool:
        """Whether ``b`` was written after ``a`` (by date, then by number)."""
        return order_key(b) > order_key(a)

    def written_after(self, record: AdrRecord) -> list[AdrRecord]:
        """The records of ``record``'s folder written after it (see ``later``), in
        ``by_folder`` order."""
        keys, places = self._order[record.folder]
        return self._members(record, places[bisect.bisect_right(keys, order_key(record)) :])

    def written_before(self, record: AdrRecord, *, same_time: bool = False) -> list[AdrRecord]:
        """The records of ``record``'s folder written before it, in ``by_folder`` order;
        with ``same_time`` also those of the same date and number (``record`` among them)."""
        keys, places = self._order[record.folder]
        cut = bisect.bisect_right if same_time else bisect.bisect_left
        return self._members(record, places[: cut(keys, order_key(record))])

    def _members(self, record: AdrRecord, places: list[int]) -> list[AdrRecord]:
        members = self.by_folder[record.folder]
        return [members[place] for place in sorted(places)]


def record_fields(record: AdrRecord) -> dict[str, str]:
    """The texts of a record that ranking reads, by field."""
    return {"title": record.title, "decision": record.decision, "body": record.body}


def order_key(record: AdrRecord) -> tuple[dt.date, int]:
    return (record.date or dt.date.min, record.number if record.number is not None else -1)


class LinkRule(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def prior(self) -> Trust: ...
    @property
    def description(self) -> str: ...

    def propose(self, ctx: RuleContext) -> Iterable[Proposal]: ...


@dataclass(frozen=True)
class FunctionRule:
    """A rule made of a function; the easy way to write one."""

    name: str
    prior: Trust
    description: str
    fn: Callable[[RuleContext], Iterable[Proposal]]

    def propose(self, ctx: RuleContext) -> Iterable[Proposal]:
        return self.fn(ctx)


_RULES: dict[str, LinkRule] = {}


def register(rule: LinkRule) -> LinkRule:
    """Add a link rule (a later one with the same name replaces the earlier)."""
    if not rule.name or not isinstance(rule.prior, Trust):
        raise InvalidInput("rule", "a link rule needs a name and a Trust prior", "LinkRule")
    _RULES[rule.name] = rule
    return rule


def rules() -> list[LinkRule]:
    return list(_RULES.values())


def get_rule(name: str) -> LinkRule | None:
    return _RULES.get(name)


def propose_links(records: Sequence[AdrRecord]) -> list[Proposal]:
    """Every registered rule's proposals, at most one per (rule, old, new), self-links dropped."""
    ctx = RuleContext(records)
    seen: set[tuple[str, str, str]] = set()
    out: list[Proposal] = []
    for rule in rules():
        for p in rule.propose(ctx):
            marker = (p.rule, p.old, p.new)
            if (
                p.old != p.new
                and p.old in ctx.by_key
                and p.new in ctx.by_key
                and marker not in seen
            ):
                seen.add(marker)
                out.append(p)
    return out


# -- built-in rules ------------------------------------------------------------------

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


def _targets(record: AdrRecord, kind: str) -> Iterator[tuple[Link, str]]:
    for link in record.links:
        if link.kind == kind and link.target_key and link.target_key != record.key:
            yield link, link.target_key


def _status_line(ctx: RuleContext) -> Iterator[Proposal]:
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


def _moves_on(ctx: RuleContext) -> Iterator[Proposal]:
    for record in ctx.records:
        for link, target in _targets(record, "body"):
            other = ctx.by_key.get(target)
            forward = link.role in ("successor", "destination") or (
                link.role is None and bool(_MOVE_ON_VERBS & set(link.verbs))
            )
            if other is not None and forward and ctx.later(record, other):
                yield Proposal(record.key, target, "moves-on", LinkState.CANDIDATE, link.context)


def _cites_replaced(ctx: RuleContext) -> Iterator[Proposal]:
    for record in ctx.records:
        for link, target in _targets(record, "body"):
            other = ctx.by_key.get(target)
            backward = link.role == "predecessor" or (
                link.role is None and bool(_CITE_VERBS & set(link.verbs))
            )  # a "destination" ("the migration to EKS") was adopted, not replaced
            if other is not None and backward and ctx.later(other, record):
                yield Proposal(
                    target, record.key, "cites-replaced", LinkState.CANDIDATE, link.context
                )


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


def _same_question(ctx: RuleContext) -> Iterator[Proposal]:
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


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*[-*+]?\s*|\n")
# Words saying one thing gives way to another, spelt as teams spell them ("decomission").
_DROP_WORDS = re.compile(
    r"\b(?:replac|migrat|decomm?iss?ion|retir|supers[ce]e?d|deprecat|obsolet|phas\w*\s+out"
    r"|sunset|instead\s+of|rather\s+than|no\s+longer|in\s+favou?r\s+of|mov\w*\s+(?:on|away)|switch)",
    re.IGNORECASE,
)
# ... unless the sentence only weighs it: "there's a case for switching to that, if it is
# adopted", "it's not clear what will replace them, but X is a possibility", or denies it:
# "complementary hardening, not a replacement for the KMS policy controls".
_HEDGE = re.compile(
    r"\b(?:if|could|might|may|would|possib\w*|a\s+case\s+for|not\s+clear|option"
    r"|(?:not|never)\s+(?:an?\s+|the\s+)?replac\w*)\b|n't\s+replac",
    re.IGNORECASE,
)
SUBJECT_MAX_SHARE = 0.08  # a subject term is in at most this share of the records
SUBJECT_MIN_MENTIONS = 3  # ... and the old record's text names it this often,
SUBJECT_WORDS_PER_MENTION = 100  # ... or once per this many words of a shorter record


# A word that English text seldom uses ("Concourse", "Elasticsearch", "live-1"): the shipped
# vocabulary cuts it into pieces or lists it after this row ("policy" is row 2,350,
# "provision" 8,354, "concourse" 27,578).
NAME_RANK = 10_000
# A small folder's own counts cannot tell a team's tool (the Cloud Platform's 49 records
# name Concourse in nine) from an everyday word it uses as often ("platform"); English
# can. A name's share of the records is counted as if there were at least this many.
NAME_MIN_RECORDS = 125
_INFLECTION = re.compile(r"(?:e?s|e?d|ing)$")


def _is_name(word: str) -> bool:
    """Whether ``word`` is a name that English text seldom uses: neither it nor the word
    without an inflection ("provisioned": "provision") is among the vocabulary's first
    ``NAME_RANK`` rows."""
    return not any(
        is_common_word(form, among=NAME_RANK) for form in {word, _INFLECTION.sub("", word)}
    )


def _limit(ctx: RuleContext, share: float, *, name: bool = False) -> int:
    """How many records a term may be in to count as rare: ``share`` of them, at least two,
    and for a name (``_is_name``) ``share`` of at least ``NAME_MIN_RECORDS``."""
    size = max(ctx.index.size, NAME_MIN_RECORDS) if name else ctx.index.size
    return max(2, int(share * size))


def _rare_terms(ctx: RuleContext, text: str, share: float) -> set[str]:
    """The terms of ``text`` in at most ``share`` of the records (see ``_limit``); names
    are looked up only where their looser limit can matter (folders under
    ``NAME_MIN_RECORDS``), so large ingests never tokenise a word for it."""
    limit, name_limit = _limit(ctx, share), _limit(ctx, share, name=True)
    held = {t: len(ctx.index.postings.get(t, ())) for t in term_counts(text)}
    rare = {t for t, n in held.items() if 0 < n <= limit}
    if any(limit < n <= name_limit for n in held.values()):
        rare |= {
            t
            for w in words(text)
            if _is_name(w)
            for t in terms(w)
            if limit < held.get(t, 0) <= name_limit
        }
    return rare


def _title_subjects(ctx: RuleContext, record: AdrRecord) -> set[str]:
    """The rare words of a record's title: what the record decided about (``concourse``)."""
    return {
        t for t in _rare_terms(ctx, record.title, SUBJECT_MAX_SHARE) if not _DROP_WORDS.search(t)
    }


def _subjects(ctx: RuleContext, record: AdrRecord) -> set[str]:
    """The rare words of a record's title that its body repeats, or failing any such word,
    a two-word title the record writes together (``_phrase_subjects``)."""
    rare = _title_subjects(ctx, record)
    if not rare:  # the body is counted only when it can matter: most of the time is there
        return _phrase_subjects(ctx, record, _limit(ctx, SUBJECT_MAX_SHARE))
    body = term_counts(record.body)
    # A record of a few lines ("Chosen option: Kafka") names its subject once or twice (no
    # link of the shared corpus or of bench/bench_rules.py's synthetic one moves for it).
    need = min(SUBJECT_MIN_MENTIONS, 1 + len(record.body.split()) // SUBJECT_WORDS_PER_MENTION)
    return {t for t in rare if body.get(t, 0) >= need}


PHRASE_SCAN = 2000  # records holding both words of a title that are read, at most


def _phrase_subjects(ctx: RuleContext, record: AdrRecord, limit: int) -> set[str]:
    """The two words of a title without a rare word ("Manager cluster": "manager" is in
    every record that names Secrets Manager) when the record writes them together at least
    ``SUBJECT_MIN_MENTIONS`` times and few records write them together: the pair, as one
    subject ("manager cluster"). At most ``PHRASE_SCAN`` other records are read to count
    them; a pair of words that many records share is not taken as a subject."""
    title = [t for t in term_sequence(record.title) if not _DROP_WORDS.search(t)]
    if len(title) != 2 or title[0] == title[1]:
        return set()
    phrase = f" {title[0]} {title[1]} "
    if ctx.term_text(record).count(phrase) < SUBJECT_MIN_MENTIONS:
        return set()
    postings = ctx.index.postings
    both = {s for s, _ in postings.get(title[0], ())} & {s for s, _ in postings.get(title[1], ())}
    if len(both) > PHRASE_SCAN:
        return set()
    holders = 0
    for slot in sorted(both):  # only records holding both words can write them together
        holders += phrase in ctx.term_text(ctx.by_key[ctx.index.docs[slot]])
        if holders > limit:
            return set()
    return {phrase.strip()}


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


def _near_drop_words(sentence: str) -> set[str]:
    """The terms of the words at most ``NAMED_WITHIN`` words from a word saying something
    gives way ("decommission our Concourse pipelines", "ElasticSearch due for retirement"):
    what the sentence says is replaced, not what it mentions further off ("by introducing
    Lambda, we ... treat the infrastructure as standard and replaceable")."""
    drops = [(m.start(), m.end()) for m in _DROP_WORDS.finditer(sentence)]
    if not drops:
        return set()
    spans = [(m.start(), m.end()) for m in _SENTENCE_WORD.finditer(sentence)]
    starts, ends = [a for a, _ in spans], [b for _, b in spans]
    takes_over = [m.span() for m in _NEW_BEFORE.finditer(sentence)]
    near: set[str] = set()
    for start, end in drops:
        first = bisect.bisect_right(ends, start)  # the word the replacement word begins in
        last = max(first, bisect.bisect_left(starts, end) - 1)  # ... and the one it ends in
        # "the ELBs as its replacement", "replaced by X", "migrating to X": X is the new
        # thing, so only what the other side names was replaced
        before = not any(a <= start < b for a, b in takes_over) and not _OLD_AFTER.match(
            sentence, start
        )  # "X rather than Y", "X instead of Y": only Y gives way
        after = not _NEW_AFTER.match(sentence, start)
        low = max(0, first - NAMED_WITHIN - 1) if before else first
        high = min(len(spans), last + NAMED_WITHIN + 2) if after else last + 1
        for a, b in spans[low:high]:
            near.update(terms(sentence[a:b]))
    return near


_NEW_BEFORE = re.compile(r"\bas\s+(?:its|their|the|a|an|our)\s+replacement", re.IGNORECASE)
_NEW_AFTER = re.compile(
    r"(?:replac|migrat|mov|switch)\w*\s+(?:(?:by|with|to|over\s+to|on\s+to)\b)", re.IGNORECASE
)
_OLD_AFTER = re.compile(r"(?:rather\s+than|instead\s+of)\b", re.IGNORECASE)
_SENTENCE_WORD = re.compile(r"[^\s]+")


def _names_replaced(ctx: RuleContext) -> Iterator[Proposal]:
    all_subjects = {r.key: _subjects(ctx, r) for r in ctx.records}
    for record in ctx.records:
        # A sentence is part of the body, between non-word characters: one naming a
        # replacement means the body does.
        if not _DROP_WORDS.search(record.body):
            continue
        earlier = [r for r in ctx.written_before(record) if all_subjects[r.key]]
        if not earlier:
            continue
        own = term_counts(record.title).keys()
        subjects = {r.key: all_subjects[r.key] - own for r in earlier}
        phrases = {key: [p for p in found if " " in p] for key, found in subjects.items()}
        reads_pairs = any(phrases.values())  # two-word subjects are rare: pairs only for them
        for sentence in _SENTENCE.split(record.body):
            near = _near_drop_words(sentence)  # empty without a replacement word
            if not near or _HEDGE.search(sentence):
                continue
            pairs = list(itertools.pairwise(term_sequence(sentence))) if reads_pairs else []
            for other in earlier:
                named = subjects[other.key] & near
                named |= {p for p in phrases[other.key] if _phrase_named(p, pairs, near)}
                if named:
                    evidence = (
                        f"names {', '.join(sorted(named))}: {' '.join(sentence.split())[:300]}"
                    )
                    yield Proposal(
                        other.key, record.key, "names-replaced", LinkState.CANDIDATE, evidence
                    )


def _title_replaces(ctx: RuleContext) -> Iterator[Proposal]:
    """A record whose title names what gives way ("Replace Kafka with SQS", "Mongo
    replacement by DocumentDB") replaces each earlier record of its folder whose title's
    rare words it names there, and when the title says what for ("… for order events"),
    whose title says so too. The title is the decision in a line, so the subject need not
    be repeated in the old record's body as ``names-replaced`` asks of a sentence."""
    subjects: dict[str, set[str]] = {}  # each earlier record's, read once
    for record in ctx.records:
        said = replaced_in_title(record.title)
        if said is None:
            continue
        named_words = set(term_counts(said.old))
        scope = set(term_counts(said.scope)) if said.scope else set()
        for other in ctx.written_before(record):
            found = subjects.get(other.key)
            if found is None:
                found = subjects[other.key] = _title_subjects(ctx, other)
            named = found & named_words
            if scope and named and not scope & term_counts(other.title).keys():
                continue
            if named:
                evidence = f"title names {', '.join(sorted(named))} as replaced: {record.title}"
                yield Proposal(
                    other.key, record.key, "title-replaces", LinkState.CANDIDATE, evidence
                )


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
        out |= _rare_terms(ctx, " ".join(named), TURNED_DOWN_MAX_SHARE)
    return out


def _chooses_turned_down(ctx: RuleContext) -> Iterator[Proposal]:
    """The first later record of the same folder titled after what an earlier one turned
    down reverses it (``014`` "… rather than using EKS", ``022`` "EKS"); records after
    that one build on the reversal rather than make it."""
    for record in ctx.records:
        for name, newer in _first_titled_after(ctx, record, _turned_down(ctx, record)):
            evidence = f"{record.key} turned down {name}; {newer.key} chose it"
            yield Proposal(
                record.key, newer.key, "chooses-turned-down", LinkState.CANDIDATE, evidence
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
    limit = _limit(ctx, TURNED_DOWN_MAX_SHARE)
    body = record.body
    named: list[str] = []
    for match in _DEFERRED_AFTER.finditer(body):
        named += match.group(1).split()[:DEFERRED_WORDS]
    for match in _DEFERRED_BEFORE.finditer(body):
        before = _SENTENCE_END.split(body[max(0, match.start() - DEFERRED_SPAN) : match.start()])
        named += before[-1].rstrip(" \t_*-").split()[-DEFERRED_WORDS:]
    return {t for t in terms(" ".join(named)) if 0 < len(ctx.index.postings.get(t, ())) <= limit}


def _decides_deferred(ctx: RuleContext) -> Iterator[Proposal]:
    """The first later record of the same folder titled after what an earlier one left to
    be decided takes that part over ("future consideration of auto-scaling" -> a record
    titled "Use Karpenter for scaling"); the rest of the earlier record still stands."""
    for record in ctx.records:
        for name, newer in _first_titled_after(ctx, record, _deferred(ctx, record)):
            evidence = f"{record.key} left {name} to be decided; {newer.key} decides it"
            yield Proposal(
                record.key, newer.key, "decides-deferred", LinkState.CANDIDATE, evidence, True
            )


for _rule in (
    FunctionRule(
        "status-line", Trust(9.0, 1.0), "a status line names the replacement", _status_line
    ),
    FunctionRule(
        "moves-on",
        Trust(3.0, 2.0),
        "an old record says the team moves on to a later one",
        _moves_on,
    ),
    FunctionRule(
        "cites-replaced",
        Trust(3.0, 2.0),
        "a new record cites an older one next to a replacement word",
        _cites_replaced,
    ),
    FunctionRule(
        "names-replaced",
        Trust(3.0, 2.0),
        "a new record names what an older one decided next to a replacement word",
        _names_replaced,
    ),
    FunctionRule(
        "chooses-turned-down",
        Trust(3.0, 2.0),
        "a later record decides for what an earlier one turned down",
        _chooses_turned_down,
    ),
    FunctionRule(
        "decides-deferred",
        Trust(3.0, 2.0),
        "a later record decides what an earlier one left to be decided",
        _decides_deferred,
    ),
    FunctionRule(
        "title-replaces",
        Trust(3.0, 2.0),
        "a later record's title names what of an earlier one it replaces",
        _title_replaces,
    ),
    FunctionRule(
        "same-question",
        Trust(2.0, 3.0),
        "a later record of the same folder decides the same question",
        _same_question,
    ),
):
    register(_rule)
