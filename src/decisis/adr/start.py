"""Where a question starts: votes from full-text rank, distinctive terms, remembered
questions and (when an embedder is installed) vectors, fused by reciprocal rank.

Each voter ranks record keys; ``fuse`` adds the votes. Besides the ranking, the
evidence that the question is answered at all is kept (how much of the question's
distinctive weight the best record covers, how close a remembered question is),
for the abstention rule in ``decisis.adr.answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from decisis.adr.view import AdrView
from decisis.graph import Graph
from decisis.search.fulltext import fulltext_rank
from decisis.search.fusion import Fused, fuse
from decisis.search.terms import Scored

__all__ = ["VOTER_WEIGHTS", "StartPoints", "start_points"]

VOTER_WEIGHTS: Mapping[str, float] = {
    "fulltext": 0.5,
    "terms": 1.0,
    "questions": 1.5,
    "vectors": 1.0,
}
DEPTH = 20
QUESTION_MATCH = 0.6  # share of a question's weight a remembered question must cover


@dataclass
class StartPoints:
    """The fused ranking and the evidence behind it."""

    fused: list[Fused]
    coverage: dict[str, float] = field(default_factory=dict)  # key -> matched IDF share
    remembered: str | None = None  # a remembered question that matches closely
    remembered_answer: str | None = None
    vector_scores: dict[str, float] = field(default_factory=dict)
    term_scores: dict[str, float] = field(default_factory=dict)

    @property
    def relevance(self) -> dict[str, float]:
        """How well each record matches the question, relative to the best match (0 to 1)."""
        if not self.term_scores:
            return {}
        top = max(self.term_scores.values())
        return {k: s / top for k, s in self.term_scores.items()}


def _term_votes(view: AdrView, question: str) -> list[Scored]:
    return view.index.search(question, limit=DEPTH)


def _question_votes(view: AdrView, question: str) -> tuple[list[str], Scored | None]:
    """Keys that remembered questions like this one were resolved to, and the closest one."""
    hits = [
        h for h in view.question_index.search(question, limit=5) if h.coverage >= QUESTION_MATCH
    ]
    keys = []
    for hit in hits:
        answer = view.questions[view.question_index.positions[hit.doc]].metadata.get("answer")
        if isinstance(answer, str) and answer in view.records:
            keys.append(answer)
    return keys, hits[0] if hits else None


def start_points(graph: Graph, view: AdrView, question: str) -> StartPoints:
    """Rank the records where ``question`` may start, by fused votes."""
    scored = _term_votes(view, question)
    rankings: dict[str, list[str]] = {"terms": [s.doc for s in scored]}
    rankings["fulltext"] = [
        view.key_of[node_id]
        for node_id in fulltext_rank(graph, question, DEPTH)
        if node_id in view.key_of
    ]
    remembered, closest = _question_votes(view, question)
    if remembered:
        rankings["questions"] = remembered
    vectors = vector_scores(view, question)
    if vectors:
        rankings["vectors"] = sorted(vectors, key=lambda k: -vectors[k])[:DEPTH]
    points = StartPoints(fuse(rankings, VOTER_WEIGHTS, limit=DEPTH))
    points.coverage = {s.doc: s.coverage for s in scored}
    points.term_scores = {s.doc: s.score for s in scored}
    points.vector_scores = vectors
    if closest is not None:
        node = view.questions[view.question_index.positions[closest.doc]]
        points.remembered = node.label
        answer = node.metadata.get("answer")
        points.remembered_answer = answer if isinstance(answer, str) else None
    return points


def vector_scores(view: AdrView, question: str) -> dict[str, float]:
    """Cosine of the question with each record, when an embedder is available (else empty)."""
    from decisis.adr.vectors import similarities

    return similarities(view, question, DEPTH)
