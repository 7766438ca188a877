"""An answer in about 130 tokens: the standing record, its decision in a sentence, the
passage of it that speaks to the question when the sentence does not
(``decisis.adr.answer.excerpt``), what it replaced and when, whether it replaced only part of a
record or was split; or "no decision on record" and why.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from decisis.adr.answer.excerpt import Excerpt
from decisis.adr.answer.limits import MAX_QUESTION_CHARS
from decisis.adr.answer.tokens import count_tokens
from decisis.adr.answer.walk import Walk
from decisis.adr.link.view import AdrView
from decisis.errors import InvalidInput

__all__ = [
    "MAX_QUESTION_CHARS",
    "NOTHING_INGESTED",
    "Answer",
    "abstained",
    "check_question",
    "notes_of",
    "render",
    "summary_of",
    "which_record",
]

MAX_SUMMARY_CHARS = 300
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


def summary_of(view: AdrView, key: str) -> str:
    """Record ``key``'s decision in a sentence, as the answer says it."""
    return _sentence(str(view.meta(key).get("summary") or view.records[key].label))


def _quoted(quote: Excerpt) -> str:
    about = ", ".join(f'"{word}"' for word in quote.about)
    ends = "" if quote.text.endswith((".", "!", "?", "\u2026")) else "."  # then a sentence follows
    return f'On {about} it says: "{quote.text}"{ends}'


def render(
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


def which_record(view: AdrView, question: str, keys: list[str]) -> Answer:
    """No answer, and the records a number the question gives could mean."""
    why = "the record number is that of several records"
    text = (
        "Which record? The number is that of "
        + "; ".join(f'{k} "{view.records[k].label}"' for k in keys)
        + ". Name the team, or ask with the record's key."
    )
    return Answer(question, None, [], text, 0.0, notes=[why])


def notes_of(view: AdrView, result: Walk) -> list[str]:
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


def abstained(question: str, why: str, evidence: dict[str, Any] | None = None) -> Answer:
    """No record answers ``question``, and why."""
    text = f"No decision on record answers this ({why})."
    return Answer(question, None, [], text, 0.0, notes=[why], evidence=evidence or {})
