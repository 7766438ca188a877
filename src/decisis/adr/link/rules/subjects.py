"""What a record decided about: the rare words of its title (``concourse``), for the rules
that look for a later record naming it replaced."""

from __future__ import annotations

import re

from decisis.adr.link.rules.base import RuleContext
from decisis.adr.read.records import AdrRecord
from decisis.search.embed_static import is_common_word
from decisis.search.terms import term_counts, term_sequence
from decisis.search.text import terms, words

# Words saying one thing gives way to another, spelt as teams spell them ("decomission"), or
# that a part of it moves away ("the data directory will be split out into its own
# repository": ``named.PART_LEAVES``).
DROP_WORDS = re.compile(
    r"\b(?:replac|migrat|decomm?iss?ion|retir|supers[ce]e?d|deprecat|obsolet|phas\w*\s+out"
    r"|split\s+out\b|drop(?:s|ped|ping)?\b|sunset|instead\s+of|rather\s+than|no\s+longer|in\s+favou?r\s+of|mov\w*\s+(?:on|away)|switch)",
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


def is_name(word: str) -> bool:
    """Whether ``word`` is a name that English text seldom uses: neither it nor the word
    without an inflection ("provisioned": "provision") is among the vocabulary's first
    ``NAME_RANK`` rows."""
    return not any(
        is_common_word(form, among=NAME_RANK) for form in {word, _INFLECTION.sub("", word)}
    )


def share_limit(ctx: RuleContext, share: float, *, name: bool = False) -> int:
    """How many records a term may be in to count as rare: ``share`` of them, at least two,
    and for a name (``is_name``) ``share`` of at least ``NAME_MIN_RECORDS``."""
    size = max(ctx.index.size, NAME_MIN_RECORDS) if name else ctx.index.size
    return max(2, int(share * size))


def rare_terms(ctx: RuleContext, text: str, share: float) -> set[str]:
    """The terms of ``text`` in at most ``share`` of the records (see ``share_limit``); names
    are looked up only where their looser limit can matter (folders under
    ``NAME_MIN_RECORDS``), so large ingests never tokenise a word for it."""
    limit, name_limit = share_limit(ctx, share), share_limit(ctx, share, name=True)
    held = {t: len(ctx.index.postings.get(t, ())) for t in term_counts(text)}
    rare = {t for t, n in held.items() if 0 < n <= limit}
    if any(limit < n <= name_limit for n in held.values()):
        rare |= {
            t
            for w in words(text)
            if is_name(w)
            for t in terms(w)
            if limit < held.get(t, 0) <= name_limit
        }
    return rare


def title_subjects(ctx: RuleContext, record: AdrRecord) -> set[str]:
    """The rare words of a record's title: what the record decided about (``concourse``)."""
    return {t for t in rare_terms(ctx, record.title, SUBJECT_MAX_SHARE) if not DROP_WORDS.search(t)}


def record_subjects(ctx: RuleContext, record: AdrRecord) -> set[str]:
    """The rare words of a record's title that its body repeats, or failing any such word,
    a two-word title the record writes together (``_phrase_subjects``)."""
    rare = title_subjects(ctx, record)
    if not rare:  # the body is counted only when it can matter: most of the time is there
        return _phrase_subjects(ctx, record, share_limit(ctx, SUBJECT_MAX_SHARE))
    body = term_counts(record.body)
    # A record of a few lines ("Chosen option: Kafka") names its subject once or twice (no
    # link of the shared corpus or of bench/bench_rules.py's synthetic one moves for it).
    need = min(SUBJECT_MIN_MENTIONS, 1 + len(record.body.split()) // SUBJECT_WORDS_PER_MENTION)
    return {t for t in rare if sum(n for w, n in body.items() if same_term(w, t)) >= need}


# What English adds to a verb to make its noun ("persist": "persistence", "deploy":
# "deployment"), as the stemmer leaves them ("persistenc"); not "function": "functionality",
# whose meaning moves.
_NOUN_ENDINGS = frozenset({"enc", "anc", "ence", "ance", "ment", "ion", "ation", "ency", "ancy"})


def same_term(word: str, term: str) -> bool:
    """Whether the term ``word`` is ``term`` or its noun ("persistenc" of "persist"), which
    the stemmer keeps apart."""
    return word == term or (word.startswith(term) and word[len(term) :] in _NOUN_ENDINGS)


PHRASE_SCAN = 2000  # records holding both words of a title that are read, at most


def _phrase_subjects(ctx: RuleContext, record: AdrRecord, limit: int) -> set[str]:
    """The two words of a title without a rare word ("Manager cluster": "manager" is in
    every record that names Secrets Manager) when the record writes them together at least
    ``SUBJECT_MIN_MENTIONS`` times and few records write them together: the pair, as one
    subject ("manager cluster"). At most ``PHRASE_SCAN`` other records are read to count
    them; a pair of words that many records share is not taken as a subject."""
    title = [t for t in term_sequence(record.title) if not DROP_WORDS.search(t)]
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
