"""From a start record along trusted links to the record that stands.

A link ``old -> new`` is believed with its confidence (stated and confirmed links
near 1, a rule's candidates at the rule's trust, rejected ones 0); several rules
proposing the same pair combine as independent evidence (noisy-OR). A candidate
is walked only when its belief passes ``threshold`` and ``new`` itself matches the
question well enough (belief scaled down below ``RELEVANCE_MIN``): a record that
replaced another *in part*
(a later record on node scaling replacing one paragraph of a cluster record) is
not where a question about the other part should end. Cycles (two records naming
each other) stop the walk at the first repeat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from decisis.adr.trust import link_confidence
from decisis.adr.view import AdrView
from decisis.model import Edge, LinkState

__all__ = ["JUDGED_ONLY", "WALK_THRESHOLD", "Step", "Walk", "walk"]

WALK_THRESHOLD = 0.5
JUDGED_ONLY = 0.95  # a threshold only stated and confirmed links pass
RELEVANCE_MIN = 0.35  # a candidate's successor must match the question this well (vs the best)
MAX_STEPS = 20


@dataclass(frozen=True, slots=True)
class Step:
    """One hop: ``new`` replaces ``old``, believed with ``belief``, by these rules."""

    old: str
    new: str
    belief: float
    rules: tuple[str, ...]
    partial: bool


@dataclass
class Walk:
    chain: list[str]
    steps: list[Step] = field(default_factory=list)
    split: list[str] = field(default_factory=list)  # other records that also replace a step

    @property
    def standing(self) -> str:
        return self.chain[-1]


def _options(view: AdrView, current: str, relevance: Mapping[str, float]) -> list[Step]:
    """The successors of ``current`` with the belief that they replace it for this question."""
    by_new: dict[str, list[Edge]] = {}
    for edge in view.successors.get(current, ()):
        new = view.key_of.get(edge.source)
        if new is not None:
            by_new.setdefault(new, []).append(edge)
    steps = []
    for new, edges in by_new.items():
        doubt, judged = 1.0, False
        for edge in edges:
            doubt *= 1.0 - link_confidence(edge, view.trust)
            judged |= edge.state in (LinkState.STATED, LinkState.CONFIRMED)
        if any(e.state is LinkState.REJECTED for e in edges):
            continue
        belief = 1.0 - doubt
        if judged:
            belief = max(belief, JUDGED_ONLY)
        elif relevance.get(new, 0.0) < RELEVANCE_MIN:
            belief *= relevance.get(new, 0.0) / RELEVANCE_MIN
        rules = tuple(sorted({str(e.metadata.get("rule")) for e in edges}))
        partial = any(bool(e.metadata.get("partial")) for e in edges)
        steps.append(Step(current, new, belief, rules, partial))
    # Among believed successors the newest stands: a record written later decides last.
    return sorted(steps, key=lambda s: (-round(s.belief, 1), view.order(s.new), s.new))


def walk(
    view: AdrView,
    start: str,
    relevance: Mapping[str, float],
    threshold: float = WALK_THRESHOLD,
) -> Walk:
    """Follow the best believed successor from ``start`` until none passes ``threshold``."""
    result = Walk([start])
    seen = {start}
    for _ in range(MAX_STEPS):
        options = [s for s in _options(view, result.chain[-1], relevance) if s.new not in seen]
        passing = [s for s in options if s.belief >= threshold]
        if not passing:
            break
        best = passing[0]
        result.split += [s.new for s in passing[1:]]
        result.steps.append(best)
        result.chain.append(best.new)
        seen.add(best.new)
    return result
