"""The records a question may start from, each with the features its score is made of.

Candidates are the first ``depth`` records of each ranking (terms over weighted fields,
best sections, vectors) and those a remembered question or the question itself names. The
store's own full-text search is not one of them: each backend ranks differently (SQLite FTS5,
PostgreSQL's ``ts_rank``), and answers must not depend on the backend. Each candidate gets
the values of ``FEATURES`` (``settings``): all in [0, 1] but the cosines, which the default
embedder keeps in [-1, 1]. A start's score is the weighted sum (``AnswerSettings.weights``);
the fit chooses the weights, so no feature here is weighed by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from decisis.adr.answer.memory import learned_features, learned_values, learnt, profile
from decisis.adr.answer.passages import best_passages
from decisis.adr.answer.question import Question
from decisis.adr.answer.recall import Remembered, recalled, remembered
from decisis.adr.answer.scope import keep_exclusions, record_exclusions
from decisis.adr.answer.settings import FEATURES, LEARNED, AnswerSettings
from decisis.adr.answer.vectors import (
    closest_sentence,
    question_vector,
    record_matrix,
    similarities,
    title_similarities,
)
from decisis.adr.link.view import AdrView
from decisis.graph import Graph
from decisis.search.terms import term_counts

__all__ = ["Candidates", "candidates"]


@dataclass
class Candidates:
    """Every candidate start of one question, its feature values, and what else was found."""

    question: Question
    keys: list[str]
    values: list[tuple[float, ...]]
    relevance: dict[str, float]  # key -> lexical score relative to the best (for the walk)
    cosines: dict[str, float]  # key -> the question's cosine with it, where known
    sentences: dict[str, tuple[float, str]] = field(default_factory=dict)
    excluded: dict[str, list[str]] = field(default_factory=dict)  # key -> subject left out
    remembered: Remembered | None = None
    ranks: dict[str, dict[str, int]] = field(default_factory=dict)  # key -> ranking -> place
    folders: dict[str, str] = field(default_factory=dict)  # key -> its team's folder

    def value(self, key: str, feature: str) -> float:
        return self.values[self.keys.index(key)][FEATURES.index(feature)]

    def scores(self, settings: AnswerSettings) -> dict[str, float]:
        """Each candidate's score under ``settings``."""
        weights = settings.weights
        return {
            key: sum(w * v for w, v in zip(weights, row, strict=True))
            for key, row in zip(self.keys, self.values, strict=True)
        }

    def ranked(self, settings: AnswerSettings) -> list[tuple[str, float]]:
        """Candidates by score, best first (ties by key, so answers are deterministic)."""
        scores = self.scores(settings)
        return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def _ordered(*groups: list[str]) -> list[str]:
    out: dict[str, None] = {}
    for group in groups:
        for key in group:
            out.setdefault(key)
    return list(out)


def candidates(
    graph: Graph | None, view: AdrView, question: Question, settings: AnswerSettings
) -> Candidates:
    """The candidate starts of ``question`` with their features."""
    depth = settings.depth
    # ranked deeper than the candidates: a successor the walk weighs needs its relevance too
    found_hits = view.index.search(question.searched, limit=depth * 10)
    relevance_hits = {h.doc: h for h in found_hits}
    hits = {h.doc: h for h in found_hits[:depth]}
    best_hit = max((h.score for h in hits.values()), default=0.0) or 1.0
    passages = best_passages(view, question.searched, limit=depth)
    best_passage = max(passages.values(), default=0.0) or 1.0
    cosines = similarities(view, question.text, depth, list(hits), graph)
    by_vectors = sorted(cosines, key=lambda k: (-cosines[k], k))[:depth]
    recalled_by = remembered(view, question, settings) if settings.remember else None
    lent = recalled(view, question, settings) if settings.remember else {}
    by_terms, by_meaning = _learned(graph, view, question, settings)
    keys = _ordered(
        list(hits),
        list(passages),
        by_vectors,
        list(recalled_by.keys if recalled_by else ()),
        sorted(lent, key=lambda k: (-lent[k], k)),
        list(question.named),
    )
    keys = [k for k in keys if k in view.records]
    if keys and not cosines.keys() >= set(keys):
        cosines |= similarities(view, question.text, 0, keys, graph)
    title_cosines = title_similarities(view, question.text, keys)
    weights, origin = view.index.expanded_weights(question.searched)
    total = sum(w for t, w in weights.items() if t not in origin) or 1.0
    rankings = {
        "terms": list(hits),
        "sections": list(passages),
        "vectors": by_vectors,
        "questions": list(recalled_by.keys if recalled_by else ()),
        "named": list(question.named),
    }
    vouched = set(recalled_by.keys if recalled_by else ())
    relevance = {k: h.score / best_hit for k, h in relevance_hits.items()}
    found = Candidates(question, [], [], relevance, cosines, remembered=recalled_by)
    if question.subject:  # only a question with a subject asks what a record leaves out
        keep_exclusions(view, keys)
    for key in keys:
        hit = relevance_hits.get(key)
        lexical = hit.score / best_hit if hit else 0.0
        coverage = hit.coverage if hit else view.index.coverage(question.searched, key)
        subject = view.index.subject_coverage(question.asked, key, settings.subject_terms)
        said = closest_sentence(view, question.text, key)
        if said is not None:
            found.sentences[key] = said
        left_out = (
            sorted(set(question.subject) & record_exclusions(view, key)) if question.subject else []
        )
        if left_out:
            found.excluded[key] = left_out
        folder = str(view.meta(key).get("folder") or "")
        title = term_counts(view.records[key].label)
        held = {t for t in weights if t in title}
        held |= {origin[t] for t in held if t in origin}
        learned = learned_features(by_terms, by_meaning, key, settings.learned_floor)
        row = {
            "lexical": lexical,
            "passage": passages.get(key, 0.0) / best_passage,
            "title": min(1.0, sum(weights[t] for t in held if t not in origin) / total),
            "title_cosine": title_cosines.get(key, 0.0),
            "coverage": coverage,
            "subject": subject,
            "cosine": cosines.get(key, 0.0),
            "sentence": said[0] if said else 0.0,
            "team": 1.0 if question.folder and folder == question.folder else 0.0,
            "remembered": 1.0 if key in vouched else 0.0,
            "recalled": lent.get(key, 0.0),
            "model": 0.0,  # set by the reranker, when one is configured (``engine.consider``)
            "learned_terms": learned[0],
            "learned_cosine": learned[1],
        }
        found.keys.append(key)
        found.folders[key] = folder
        found.values.append(tuple(row[name] for name in FEATURES))
        found.ranks[key] = {
            name: ranked.index(key) + 1 for name, ranked in rankings.items() if key in ranked
        }
    return found


def _learned(
    graph: Graph | None, view: AdrView, question: Question, settings: AnswerSettings
) -> tuple[dict[str, float], dict[str, float]]:
    """What the corrected questions lend each record (``decisis.adr.answer.memory``); not
    worked out when neither learned feature weighs anything."""
    if not settings.remember or not any(settings.weight(name) for name in LEARNED):
        return {}, {}
    memory = learnt(view, graph)
    if not memory:
        return {}, {}
    pointed = profile(record_matrix(view, graph), question_vector(view, question.text))
    return learned_values(memory, question.terms, pointed, view.index.idf)
