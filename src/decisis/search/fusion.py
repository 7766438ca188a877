"""Reciprocal rank fusion: several rankings, each a weighted vote, one list.

Scores from bm25, term overlap and cosine similarity live on different scales;
ranks do not. Each voter adds ``weight / (k + rank)`` for every document it ranks,
so a document most voters place high wins, and a voter that is missing (no
embedder, no remembered questions) simply does not vote.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["RRF_K", "Fused", "fuse"]

RRF_K = 10.0


@dataclass(frozen=True, slots=True)
class Fused:
    doc: str
    score: float
    votes: dict[str, int]  # voter -> rank it gave


def fuse(
    rankings: Mapping[str, Sequence[str]],
    weights: Mapping[str, float] | None = None,
    *,
    k: float = RRF_K,
    limit: int = 20,
) -> list[Fused]:
    """Fuse ranked document lists (best first) by weighted reciprocal rank, best first."""
    scores: dict[str, float] = {}
    votes: dict[str, dict[str, int]] = {}
    for voter, ranked in rankings.items():
        weight = 1.0 if weights is None else weights.get(voter, 1.0)
        for rank, doc in enumerate(dict.fromkeys(ranked), start=1):
            scores[doc] = scores.get(doc, 0.0) + weight / (k + rank)
            votes.setdefault(doc, {})[voter] = rank
    best = sorted(scores, key=lambda d: (-scores[d], d))[:limit]
    return [Fused(d, scores[d], votes[d]) for d in best]
