"""Remembered questions: corrected questions nearly the same as the one asked.

A correction keeps its question in the graph, resolved to a record (or to "no record").
A new question nearly the same as one of them (each holds ``question_match`` of the other's
distinctive weight, and their cosine is at least ``question_cosine`` when an embedder is
installed) is answered as that one was: its record is a candidate that the remembered
question vouches for.
"""

from __future__ import annotations

from dataclasses import dataclass

from decisis.adr.answer.question import Question
from decisis.adr.answer.settings import AnswerSettings
from decisis.adr.link.view import AdrView
from decisis.search.terms import TermIndex

__all__ = ["Remembered", "recalled", "remembered"]


@dataclass(frozen=True)
class Remembered:
    """The closest remembered question and what it was resolved to; ``keys``: the records
    every close one was resolved to, closest first."""

    label: str
    answer: str | None
    keys: tuple[str, ...]


def _covers(index: TermIndex, doc: str, asked: set[str]) -> float:
    """The share of remembered question ``doc``'s weight that the words ``asked`` match."""
    slot = index.slot(doc)
    if slot is None:
        return 0.0
    own = {t: index.idf(t) for t in index.vectors[slot]}
    total = sum(own.values())
    return sum(w for t, w in own.items() if t in asked) / total if total else 0.0


def remembered(view: AdrView, question: Question, settings: AnswerSettings) -> Remembered | None:
    """The remembered questions close to ``question``, or ``None``."""
    index = view.question_index
    if not index.docs:
        return None
    asked = set(index.query_weights(question.text))
    hits = [
        h
        for h in index.search(question.text, limit=5)
        if h.coverage >= settings.question_match
        and _covers(index, h.doc, asked) >= settings.question_match
    ]
    if hits:
        from decisis.adr.answer.vectors import question_similarities

        close = question_similarities(view, question.text, [h.doc for h in hits])
        if close:
            hits = [h for h in hits if close.get(h.doc, 0.0) >= settings.question_cosine]
    if not hits:
        return None
    keys = []
    for hit in hits:
        answer = view.questions[index.positions[hit.doc]].metadata.get("answer")
        if isinstance(answer, str) and answer in view.records and answer not in keys:
            keys.append(answer)
    node = view.questions[index.positions[hits[0].doc]]
    answer = node.metadata.get("answer")
    return Remembered(node.label, answer if isinstance(answer, str) else None, tuple(keys))


def recalled(view: AdrView, question: Question, settings: AnswerSettings) -> dict[str, float]:
    """For each record a corrected question was resolved to, the closest cosine of such a
    question with ``question``, where it reaches ``recall_floor``: what a correction lends to
    questions on its topic in other words (empty without an embedder or corrections)."""
    from decisis.adr.answer.vectors import question_similarities

    answers = {
        node.id: node.metadata.get("answer")
        for node in view.questions
        if isinstance(node.metadata.get("answer"), str)
    }
    if not answers:
        return {}
    out: dict[str, float] = {}
    for node_id, cosine in question_similarities(view, question.text, list(answers)).items():
        key = answers[node_id]
        if isinstance(key, str) and key in view.records and cosine >= settings.recall_floor:
            out[key] = max(out.get(key, 0.0), cosine)
    return out
