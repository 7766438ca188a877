"""Fit what corrections lend (``learned_terms``, ``learned_cosine``, ``learned_floor``) in
simulated test-then-train orders.

With learning off no question has been corrected, so the fit of the other weights cannot see
these. Here each fitting corpus's questions are asked in ``ORDERS`` shuffled orders, each
with the learned features that the questions corrected before it give
(``decisis.adr.answer.memory.learned_values``, the function answering uses), then
"corrected"; every candidate weighting in the grid is scored on the same orders by answering's
own steps, the gate included. What corrections lend is kept out of the scale the gate reads
(``LEARNED``), so each weighting leaves every answer of learning off as it was, and the
question is only what it does once something was corrected.

The weighting chosen answers most questions right over the orders, and answers no fitting
corpus fewer right than learning off does; ties go to the smaller weights (nothing lent,
when nothing helps). What the simulation does not see: a real correction also judges links
(``decisis.adr.learn.corrections``), and a nearly identical question vouches for its record
(``decisis.adr.answer.recall``); ``decisis eval`` measures both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from decisis.adr.answer.features import Candidates
from decisis.adr.answer.memory import Learnt, learned_features, learned_values, profile
from decisis.adr.answer.settings import FEATURES, AnswerSettings

if TYPE_CHECKING:
    from decisis.adr.answer.fit_cases import FitCase

__all__ = [
    "FLOORS",
    "MEANING_WEIGHTS",
    "ORDERS",
    "TERM_WEIGHTS",
    "fit_learning",
    "right_learning",
]

TERM_WEIGHTS = (0.0, 0.5, 1.0, 2.0, 4.0)  # tried for ``learned_terms`` (its leads are small)
MEANING_WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0)  # tried for ``learned_cosine``
FLOORS = (0.2, 0.35, 0.5, 0.65)  # tried for ``learned_floor``
ORDERS = 3  # shuffled orders of each corpus every weighting is scored on
SEED = 25

# one simulated question: (its case, by record the learned_terms and the closest cosine)
_Asked = tuple[int, dict[str, float], dict[str, float]]


def _profiles(cases: Sequence[FitCase]) -> list[Any | None]:
    """Each question's ``profile`` over the records of its corpus."""
    from decisis.adr.answer.vectors import question_vector, record_matrix

    matrices: dict[int, Any] = {}
    out = []
    for case in cases:
        if id(case.view) not in matrices:
            matrices[id(case.view)] = record_matrix(case.view)
        vector = question_vector(case.view, case.question.text)
        out.append(profile(matrices[id(case.view)], vector))
    return out


def _orders(cases: Sequence[FitCase]) -> list[list[_Asked]]:
    """Each order of each corpus (the cases sharing one view) as asked: every question
    with what the questions before it lend (learned terms, and the closest cosine by
    record, which every floor cuts the same way)."""
    profiles = _profiles(cases)
    corpora: dict[int, list[int]] = {}
    for i, case in enumerate(cases):
        corpora.setdefault(id(case.view), []).append(i)
    rng = random.Random(SEED)
    out = []
    for _ in range(ORDERS):
        for members in corpora.values():
            shuffled = list(members)
            rng.shuffle(shuffled)
            memory: list[Learnt] = []
            asked = []
            for i in shuffled:
                case = cases[i]
                idf = case.view.index.idf
                terms_by, meaning = learned_values(
                    memory, case.found.question.terms, profiles[i], idf
                )
                asked.append((i, terms_by, meaning))
                expected = case.question.expected
                if expected is not None and expected in case.view.records:
                    terms = case.found.question.terms
                    memory.append(Learnt(str(i), expected, terms, None, profiles[i]))
            out.append(asked)
    return out


def _lent(
    found: Candidates, terms_by: dict[str, float], cosine: dict[str, float], floor: float
) -> Candidates:
    """``found`` with its learned features as the memory gives them at ``floor``."""
    at_terms, at_cos = FEATURES.index("learned_terms"), FEATURES.index("learned_cosine")
    rows = []
    for key, row in zip(found.keys, found.values, strict=True):
        values = list(row)
        values[at_terms], values[at_cos] = learned_features(terms_by, cosine, key, floor)
        rows.append(tuple(values))
    return replace(found, values=rows)


def right_learning(
    cases: Sequence[FitCase], settings: AnswerSettings, orders: list[list[_Asked]] | None = None
) -> dict[str, int]:
    """Questions right by group, over the simulated orders, learning on with ``settings``."""
    from decisis.adr.answer.fit_cases import answered

    out: dict[str, int] = {}
    for asked in orders if orders is not None else _orders(cases):
        for i, terms_by, cosine in asked:
            case = cases[i]
            found = case.found
            if terms_by or cosine:
                found = _lent(found, terms_by, cosine, settings.learned_floor)
            out[case.group] = out.get(case.group, 0) + answered(case, settings, found)
    return out


def fit_learning(cases: Sequence[FitCase], settings: AnswerSettings) -> AnswerSettings:
    """``settings`` with the learned weights and floor that answer most right in the
    simulated orders, no fitting corpus below learning off (see the module docstring)."""
    if not cases:
        return settings
    orders = _orders(cases)
    off = settings.with_weights(learned_terms=0.0, learned_cosine=0.0)
    floor_of = right_learning(cases, off, orders)
    best, best_right = off, sum(floor_of.values())
    for w_terms in TERM_WEIGHTS:
        for w_cos in MEANING_WEIGHTS:
            for floor in FLOORS if w_cos else FLOORS[-1:]:
                if not (w_terms or w_cos):
                    continue
                trial = replace(
                    off.with_weights(learned_terms=w_terms, learned_cosine=w_cos),
                    learned_floor=floor,
                )
                right = right_learning(cases, trial, orders)
                if any(right.get(g, 0) < n for g, n in floor_of.items()):
                    continue
                if sum(right.values()) > best_right:  # ties: the smaller weights, tried first
                    best, best_right = trial, sum(right.values())
    lent = {"simulated_right_off": sum(floor_of.values()), "simulated_right_on": best_right}
    return replace(best, extra={**best.extra, **lent})
