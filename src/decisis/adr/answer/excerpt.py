"""The passage of the standing record that speaks to the question asked.

A record's decision in a sentence says what it decided ("The VPCs will be assigned the
following IP ranges"); a question often asks about one detail of it ("Is the production
VPC's IP range 10.3.0.0/16?"), which the record answers a few lines further down
("Production moves from 10.3.0.0/16 to 10.13.0.0/16"). An answer that stops at the summary
sends the asker, or the agent, to open the record. ``excerpt`` quotes the sentence, list
item or table row of what the record decided that holds the question's subject (one of its
two rarest words the records know) and most of its distinctive weight that the summary
does not already carry (IDF over the ingested records, as the start points rank). A
passage holding one word of the question only is quoted when that word is the rarest:
"Teams move their services in spring" is not about "Which region do our services move to?".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from decisis.adr.link.view import AdrView
from decisis.adr.read.markdown import (
    blocks,
    heading_key,
    is_list_item,
    parse_markdown,
    sentences,
    strip_markdown,
)
from decisis.search.text import as_written, terms

__all__ = ["EXCERPT_MIN_SHARE", "MAX_EXCERPT_CHARS", "Excerpt", "excerpt", "passages"]

# A passage is quoted when the question words it holds and the summary does not carry this
# share of the question's weight (over the terms the records know). Read off the answers
# to the development questions and ours: from 0.2 up the quotes mostly hold what was asked
# ("the eu-west-1 region" for "Which AWS region …?", at 0.20-0.22), below it mostly a word
# in passing.
EXCERPT_MIN_SHARE = 0.2
SUBJECT_TERMS = 2  # a quote holds one of the question's this many rarest known words
MIN_WORDS = 5  # shorter passages are labels ("Monitoring and Alerting"), not statements
MAX_EXCERPT_CHARS = 240
# Sections whose passages are not what the record decided: the context often describes the
# state of things the record changed ("All pods' stdout get shipped to ElasticSearch" in the
# record that moved logging off it), options include the ones turned down; the status line,
# dates, links and notes say nothing of the subject. A passage in any of them, at any depth,
# is not quoted.
_NOT_DECIDED = frozenset(
    {
        "context",
        "context and problem statement",
        "background",
        "problem",
        "problem statement",
        "options",
        "considered options",
        "options considered",
        "pros and cons of the options",
        "decision drivers",
        "alternatives",
        "alternatives considered",
        "reason for rejection",
        "user needs",
        "status",
        "date",
        "links",
        "useful links",
        "references",
        "notes",
        "deciders",
    }
)
_TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|?$")


def passages(text: str) -> Iterator[str]:
    """The plain passages of what a record's markdown ``text`` decided: the sentences of
    each paragraph, each list item, each table row (its cells joined by " | "); code blocks,
    headings, the lines before the first section (title, date) and every passage of a
    section in ``_NOT_DECIDED`` left out. A record without sections is all decision."""
    doc = parse_markdown(text)
    sections = [(s.body_start, s.end, heading_key(s.heading)) for s in doc.sections]
    for start, end in blocks(doc.text):
        within = {key for s_start, s_end, key in sections if s_start <= start < s_end}
        if within & _NOT_DECIDED or (sections and not within):
            continue
        raw = doc.text[start:end]
        if raw.lstrip().startswith("|"):
            for line in raw.splitlines():
                row = line.strip()
                if row and not _TABLE_RULE.match(row):
                    cells = [strip_markdown(c) for c in row.strip("|").split("|")]
                    yield " | ".join(c for c in cells if c)
            continue
        plain = strip_markdown(raw)
        if is_list_item(raw):
            yield plain
            continue
        yield from sentences(plain)


def _decided(view: AdrView, key: str) -> list[tuple[str, frozenset[str]]]:
    """Record ``key``'s passages of ``MIN_WORDS`` or more with their terms, worked out once
    per view (a long record takes a millisecond to split)."""
    kept: dict[str, list[tuple[str, frozenset[str]]]] = view.cache.setdefault("decided", {})
    found = kept.get(key)
    if found is None:
        text = str(view.meta(key).get("text") or "")
        found = kept[key] = [
            (p, frozenset(terms(p)))
            for p in passages(text)
            if len(p.split()) >= MIN_WORDS and not p.endswith(":")  # a lead-in to a list
        ]
    return found


@dataclass(frozen=True, slots=True)
class Excerpt:
    """A quoted passage and the question's words it is about, as the passage writes them."""

    text: str
    about: tuple[str, ...]


def _cut(text: str) -> str:
    if len(text) <= MAX_EXCERPT_CHARS:
        return text
    return text[:MAX_EXCERPT_CHARS].rsplit(" ", 1)[0].rstrip(",;:-") + "\u2026"


def excerpt(view: AdrView, key: str, question: str, summary: str) -> Excerpt | None:
    """The passage of record ``key`` that speaks to ``question`` beyond ``summary`` (the
    record's decision in a sentence, already in the answer), or ``None`` when no passage
    holds a subject word of the question and ``EXCERPT_MIN_SHARE`` of its weight besides."""
    weights: Mapping[str, float] = {
        t: w for t, w in view.index.query_weights(question).items() if t in view.index.postings
    }
    total = sum(weights.values())
    if total <= 0:
        return None
    said = set(terms(summary))
    ranked = [t for t, _ in view.index.subject_terms(question, SUBJECT_TERMS)]
    subject = set(ranked) - said
    best, best_score, best_about = "", 0.0, frozenset[str]()
    for passage, passage_terms in _decided(view, key):
        held = (passage_terms - said) & weights.keys()
        # one question word alone says what the passage is about only when it is the rarest
        if not held & subject or (len(held) < 2 and held != {ranked[0]}):
            continue
        score = sum(weights[t] for t in held)
        if score > best_score:
            best, best_score, best_about = passage, score, held & subject
    if best_score / total < EXCERPT_MIN_SHARE:
        return None
    # two terms can come from one written word ("organisation-wide"): name it once
    about = tuple(dict.fromkeys(as_written(best, t) for t in sorted(best_about)))
    return Excerpt(_cut(best), about)
