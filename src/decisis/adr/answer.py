"""``ask``: what do we do about X today? The record that stands, its history, or no answer.

1. Start points by votes (``decisis.adr.start``).
2. Walk trusted links from the best start to what stands (``decisis.adr.walk``).
3. Abstain when nothing on record answers: the best start covers too little of the
   question's distinctive weight or of its subject (its rarest words the records know),
   neither it nor where the walk ends is close to the question in meaning, or a
   remembered question like this one was corrected to "no record".
4. Say it in about 130 tokens: the standing record, its decision in a sentence, the
   passage of it that speaks to the question when the sentence does not
   (``decisis.adr.excerpt``), what it replaced and when, and whether it replaced only part
   of a record or was split.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from decisis.adr.excerpt import Excerpt, excerpt
from decisis.adr.start import VOUCHED, StartPoints, start_points
from decisis.adr.tokens import count_tokens
from decisis.adr.view import AdrView, view_of
from decisis.adr.walk import JUDGED_ONLY, WALK_THRESHOLD, Walk, walk
from decisis.errors import InvalidInput
from decisis.graph import Graph
from decisis.search.text import terms

__all__ = [
    "ABSTAIN_COSINE",
    "ABSTAIN_COVERAGE",
    "ABSTAIN_SUBJECT",
    "MAX_QUESTION_CHARS",
    "NOTHING_INGESTED",
    "Answer",
    "ask",
    "check_question",
    "decide",
    "prepare",
]

# The best start must match this share of the question's IDF weight and, when an embedder
# is installed, be this close to it in meaning (cosine), and cover ABSTAIN_SUBJECT of the
# question's subject (its rarest known words, ``decisis.adr.start.SUBJECT_TERMS``). Chosen
# with ``python -m decisis.evaluation.tune`` on four question files pooled (the development
# file, ours, the independent one and the second blind one: 357 questions, topics held out
# in ten folds; docs/benchmarks.md, session 13). The development file alone chose 0.28 /
# 0.5: its 54 questions could not tell these apart, the pooled ones can (questions worded
# away from the records' words reach a cosine of 0.45-0.5 with the record that answers
# them). Of the pooled plateau, the setting where no file loses a right answer.
ABSTAIN_COVERAGE = 0.32
ABSTAIN_COSINE = 0.45
ABSTAIN_SUBJECT = 0.15
# ... unless the best start holds this share of the question's IDF weight and all of its
# subject (``words_vouch``). No development question is near it either way (the closest
# out-of-scope one holds 0.84), so it was set, not tuned.
FULL_COVERAGE = 0.95
# ... or is the one record using a word of the question's subject, and not farther from it in
# meaning than this: a product named once in passing ("Hoodaw reports" in the record on the
# manager cluster, cosine 0.24) does not make the record an answer to a question about it.
# Set from probes of our own; no answer of the three question files moves between 0.25 and
# 0.35 (the lowest right answer it gives is at 0.36).
HELD_ONLY_COSINE = 0.3
# ... or one of its sentences says nearly what the question asks (``closest_sentence``):
# "What stops two teams from using one hostname in their ingresses?" is far from the whole
# record on bringing in a policy agent (0.36) but close to its "Our immediate need was to
# prevent users from reusing hostnames in Ingresses" (0.85).
# 0.75 measured on six question files (docs/benchmarks.md, session 17): from 0.75 to 0.8
# no file loses an answer; at 0.7 out-of-scope questions start to be answered.
SENTENCE_VOUCH = 0.75
MAX_SUMMARY_CHARS = 300
MAX_QUESTION_CHARS = 4000  # a question, even a pasted paragraph, not a document
# Why a graph with no records answers nothing, and what to do about it.
NOTHING_INGESTED = (
    "no records are ingested in this graph yet: `decisis ingest FOLDER` reads a folder of ADRs"
)
RETIRED = frozenset({"superseded", "deprecated"})  # statuses of a record nobody should follow


@dataclass
class Answer:
    """The answer to one question; ``answer`` is a record key, or ``None`` for "no record"."""

    question: str
    answer: str | None
    chain: list[str]
    text: str
    confidence: float
    replaced: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    start: str | None = None
    # why it started where it did: the best start's votes and how well it matched
    evidence: dict[str, Any] = field(default_factory=dict)
    # the standing record's passage on what was asked, when its decision sentence is not
    quote: Excerpt | None = None

    @functools.cached_property
    def tokens(self) -> int:
        """The text's length in tokens, counted when first asked for: the tokenizer's
        tables take about half a second to load, which a command that only prints the
        answer (``decisis ask``, ``decisis correct``) need not pay."""
        return count_tokens(self.text)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "chain": self.chain,
            "text": self.text,
            "tokens": self.tokens,
            "confidence": round(self.confidence, 4),
            "replaced": self.replaced,
            "notes": self.notes,
            "evidence": self.evidence,
            "excerpt": (
                {"text": self.quote.text, "about": list(self.quote.about)} if self.quote else None
            ),
        }


def _sentence(text: str) -> str:
    """``text`` on one line, cut at ``MAX_SUMMARY_CHARS``, ending as a sentence ends: a
    summary taken from a list item ("We have decided to: adopt a multi-cluster approach")
    would otherwise run into the next sentence of the answer."""
    text = " ".join(text.split())
    if len(text) > MAX_SUMMARY_CHARS:
        return text[:MAX_SUMMARY_CHARS].rsplit(" ", 1)[0] + "\u2026"
    if text and text[-1] not in ".!?\u2026":
        text = text.rstrip(":;,") + "."
    return text


def _describe(view: AdrView, key: str) -> str:
    meta = view.meta(key)
    date = meta.get("date") or "undated"
    return f'{key} "{view.records[key].label}" ({meta.get("status")}, {date})'


def _summary(view: AdrView, key: str) -> str:
    """Record ``key``'s decision in a sentence, as the answer says it."""
    return _sentence(str(view.meta(key).get("summary") or view.records[key].label))


def _quoted(quote: Excerpt) -> str:
    about = ", ".join(f'"{word}"' for word in quote.about)
    ends = "" if quote.text.endswith((".", "!", "?", "\u2026")) else "."  # then a sentence follows
    return f'On {about} it says: "{quote.text}"{ends}'


def _render(
    view: AdrView, result: Walk, notes: list[str], summary: str, quote: Excerpt | None
) -> str:
    key = result.standing
    status = view.meta(key).get("status")
    if status in RETIRED:  # replaced, but by nothing on record: say so, don't say it stands
        parts = [
            f"Latest on record: {_describe(view, key)}, marked {status} with no later "
            f"record saying what replaced it. Decision: {summary}"
        ]
    elif status == "rejected":
        parts = [f"Stands: {_describe(view, key)}: the proposal was turned down. {summary}"]
    else:
        parts = [f"Stands: {_describe(view, key)}. Decision: {summary}"]
    if quote is not None:
        parts.append(_quoted(quote))
    if result.steps:
        older = ", ".join(
            f'{"part of " if s.partial else ""}{s.old} "{view.records[s.old].label}" '
            f"({view.meta(s.old).get('date') or 'undated'})"
            for s in reversed(result.steps)
        )
        parts.append(f"It replaced {older}.")
    parts += notes
    return " ".join(parts)


def _abstain(question: str, why: str, points: StartPoints | None) -> Answer:
    text = f"No decision on record answers this ({why})."
    evidence = evidence_of(points) if points is not None else {}
    return Answer(question, None, [], text, 0.0, notes=[why], evidence=evidence)


def evidence_of(points: StartPoints, standing: str | None = None) -> dict[str, Any]:
    """What made the best start the best, and how well it matches the question: its votes
    (each voter's rank for it), the share of the question's distinctive weight and of its
    subject it holds, its cosine (or that of where the walk ends, if closer), its sentence
    closest to the question and that one's cosine, the words of
    the subject only it uses, and a remembered question like this one."""
    if not points.fused:
        return {}
    top = points.fused[0]
    found: dict[str, Any] = {
        "start": top.doc,
        "votes": dict(top.votes),
        "coverage": round(points.coverage.get(top.doc, 0.0), 4),
        "subject": round(points.subject.get(top.doc, 0.0), 4),
    }
    if top.doc in points.vector_scores or standing in points.vector_scores:
        found["cosine"] = round(meaning_cosine(points, standing), 4)
    if points.sentence_cosine is not None:
        found["sentence_cosine"] = round(points.sentence_cosine, 4)
        found["sentence"] = points.sentence
    if points.held_only:
        found["held_only"] = list(points.held_only)
    if points.remembered is not None:
        found["remembered"] = points.remembered
    return found


def _which_record(view: AdrView, question: str, keys: list[str]) -> Answer:
    """No answer, and the records a number the question gives could mean."""
    why = "the record number is that of several records"
    text = (
        "Which record? The number is that of "
        + "; ".join(f'{k} "{view.records[k].label}"' for k in keys)
        + ". Name the team, or ask with the record's key."
    )
    return Answer(question, None, [], text, 0.0, notes=[why])


def _should_abstain(points: StartPoints, standing: str | None = None) -> str | None:
    """Why nothing on record answers, or ``None``. ``standing`` is where the walk from the
    best start ends: when it is close in meaning to the question, a start far from it (a
    record deciding many things, one of which a later record took over) does not veto."""
    if not points.fused and points.excluded:
        key, left_out = next(iter(points.excluded.items()))
        return f"{key}, the closest record, says it does not cover {', '.join(left_out)}"
    if not points.fused:
        return "no record shares its words"
    if points.remembered is not None and points.remembered_answer is None:
        return f'a question like it ("{points.remembered}") was answered: no record'
    top = points.fused[0]
    if VOUCHED & top.votes.keys():
        return None
    if points.form_unmet is not None:
        return f"{top.doc}, the closest record, {points.form_unmet}"
    if (points.sentence_cosine or 0.0) >= SENTENCE_VOUCH:
        return None
    if points.coverage.get(top.doc, 0.0) < ABSTAIN_COVERAGE:
        return "the closest records miss most of its distinctive words"
    if points.subject.get(top.doc, 1.0) < ABSTAIN_SUBJECT:
        return "the closest record misses the words that say what it is about"
    cosine = meaning_cosine(points, standing) if points.vector_scores else 1.0
    if cosine < ABSTAIN_COSINE and not words_vouch(
        points.coverage.get(top.doc, 0.0),
        points.subject.get(top.doc, 1.0),
        points.held_only,
        cosine,
    ):
        return "the closest record is about something else"
    return None


def meaning_cosine(points: StartPoints, standing: str | None) -> float:
    """The question's cosine with the best start or, if closer, the record its walk ends at."""
    top = points.fused[0].doc
    scores = points.vector_scores
    return max(scores.get(top, 0.0), scores.get(standing, 0.0) if standing else 0.0)


def words_vouch(
    coverage: float, subject: float, held_only: Sequence[str] = (), cosine: float = 1.0
) -> bool:
    """Whether the words say the record is what the question is about, so that the static
    embedder's low ``cosine`` (short questions, "the Modernisation Platform's core
    languages", "the stdout my pods print") does not outvote them: the record holds every
    distinctive word of the question, its subject included, or (at a cosine of at least
    ``HELD_ONLY_COSINE``) a word of its subject that no other record uses."""
    all_met = coverage >= FULL_COVERAGE and subject >= 1.0
    return all_met or (bool(held_only) and cosine >= HELD_ONLY_COSINE)


def _notes(view: AdrView, result: Walk) -> list[str]:
    notes = []
    if any(s.partial for s in result.steps):
        notes.append("Part of an older record still stands where the newer one is silent.")
    if result.split:
        notes.append("Also replaced by " + ", ".join(result.split) + ": the decision was split.")
    if result.parts:
        notes.append(
            "Part of it was taken over by "
            + ", ".join(
                f'{k} "{view.records[k].label}" ({view.meta(k).get("date") or "undated"})'
                for k in result.parts
            )
            + "."
        )
    return notes


def decide(
    view: AdrView,
    points: StartPoints,
    question: str,
    *,
    walk_links: bool = True,
    graph: Graph | None = None,
) -> Answer:
    """Turn start points into an answer: abstain, or walk from the best start (its links
    fetched from ``graph``'s store in one query when given, else from the view)."""
    if points.named:
        return _which_record(view, question, points.named)
    if not points.fused:
        return _abstain(question, _should_abstain(points) or "no record shares its words", points)
    start = points.fused[0].doc
    votes = points.fused[0].votes
    # A start a corrected question vouches for moves on only along judged links.
    threshold = JUDGED_ONLY if "questions" in votes else WALK_THRESHOLD
    # A record asked about by name is asked about whole: every believed link counts, whatever
    # the question's words match.
    whole = "named" in votes
    result = (
        walk(
            view,
            start,
            points.relevance,
            threshold,
            graph=graph,
            whole=whole,
            meaning=points.vector_scores,
            asked=frozenset(terms(question)),
        )
        if walk_links
        else Walk([start])
    )
    why = _should_abstain(points, result.standing)
    if why is not None:
        return _abstain(question, why, points)
    notes = _notes(view, result)
    summary = _summary(view, result.standing)
    quote = excerpt(view, result.standing, question, summary)
    text = _render(view, result, notes, summary, quote)
    belief = 1.0
    for step in result.steps:
        belief *= step.belief
    confidence = min(1.0, points.coverage.get(start, 0.5) + 0.25) * belief
    replaced = [
        {
            "key": s.old,
            "date": view.meta(s.old).get("date"),
            "by": s.new,
            "rules": list(s.rules),
            **({"named": list(s.named)} if s.named else {}),
        }
        for s in result.steps
    ]
    return Answer(
        question,
        result.standing,
        result.chain,
        text,
        confidence,
        replaced,
        notes,
        start,
        evidence_of(points, result.standing),
        quote,
    )


def check_question(question: object) -> str:
    """``question`` if it is one: text, not empty, at most ``MAX_QUESTION_CHARS`` long."""
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("question", "is empty", "a question in words")
    if "\x00" in question:  # no label can hold it, so no correction could remember it
        raise InvalidInput("question", "contains a NUL character", "text without NUL characters")
    if len(question) > MAX_QUESTION_CHARS:
        raise InvalidInput(
            "question",
            f"is {len(question):,} characters long",
            f"a question of at most {MAX_QUESTION_CHARS:,} characters",
        )
    return question


def prepare(graph: Graph) -> int:
    """Derive now what the first question on ``graph`` would: the view of its records, the
    index of their sections, their vectors (kept in the store) and the words naming each
    team. A server calls it before taking requests so that its first asker does not wait
    for it (seconds at 5,000 records, a minute at 50,000). Returns the number of records."""
    from decisis.adr.passages import passage_index
    from decisis.adr.start import folder_words
    from decisis.adr.vectors import record_matrix

    view = view_of(graph)
    if view.records:
        passage_index(view)
        folder_words(view)
        record_matrix(view, graph)
    return len(view.records)


def ask(graph: Graph, question: str) -> Answer:
    """Answer ``question`` from the records ingested into ``graph``."""
    check_question(question)
    view = view_of(graph)
    if not view.records:
        return _abstain(question, NOTHING_INGESTED, None)
    points = start_points(graph, view, question)
    return decide(view, points, question, graph=graph)
