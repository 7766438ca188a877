"""Fit the answer settings on labelled questions, and hold one group out at a time.

For each labelled question the candidates and their features are worked out once
(``decisis.adr.answer.consider``); a setting is then scored by running answering's own
steps on them (``decisis.adr.answer.engine.settle``), so a fit is minutes, not hours:

1. the feature weights, by a listwise ranking loss (the softmax probability of the starts
   that walk to a right answer), from the same neutral start whatever settings are given
   (the lexical weight is fixed at 1: only ratios rank);
2. the abstention model, by logistic regression of "the best start was right" on its gate
   features, over every question (out-of-scope ones are the negatives they should be);
3. its threshold, as the value that answers most questions right;
4. what corrections lend to later questions, learning on, in simulated test-then-train
   orders (``decisis.adr.answer.fit_learning``).

``leave_one_out`` fits on every group but one and gives the settings for that one: a figure
measured with them on the group held out is a held-out figure for that group.
``decisis.evaluation.fit`` builds the cases from a suite of corpora.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from decisis.adr.answer.fit_cases import FitCase, Labelled, answered, fit_case, settle_case
from decisis.adr.answer.fit_learning import fit_learning
from decisis.adr.answer.settings import DEFAULT_SETTINGS, FEATURES, LEARNED, AnswerSettings

__all__ = ["FitCase", "Labelled", "fit", "fit_case", "held_out_right", "leave_one_out"]

THRESHOLDS = tuple(i / 40 for i in range(1, 40))
FIXED = "lexical"  # the scale: only the ratios of the weights rank starts
# Not fitted: with learning off no question is remembered, so the fit cannot see this weight;
# it stays what the settings say (a remembered question outranks any words' match).
UNFITTED = frozenset({FIXED, "remembered", "recalled", "model"}) | LEARNED


def _starts_right(cases: Sequence[FitCase], settings: AnswerSettings) -> int:
    right = 0
    for case in cases:
        if case.question.expected is None:
            continue
        walked = settle_case(case, settings).walked
        right += walked is not None and case.question.right(walked.standing)
    return right


START = 0.5  # every fitted weight starts here, whatever the settings given hold
L2 = 0.01  # the listwise loss's penalty on the weights
SHARPNESS = 8.0  # how sharp the softmax is over scores of order 1
STEPS = 300


def _fit_weights(cases: Sequence[FitCase], settings: AnswerSettings) -> AnswerSettings:
    """The feature weights maximising, over the answerable questions, the softmax
    probability of the starts that walk to a right answer (a listwise ranking loss, smooth
    where the count of right starts is a staircase), with an L2 penalty; non-negative,
    lexical fixed at 1, from ``START`` for every fitted weight: never from the settings' own
    weights, which were fitted on every corpus, a held-out one among them. Adam steps."""
    import numpy as np

    lists = []
    for case in cases:
        q = case.question
        if q.expected is None or not case.found.keys:
            continue
        good = {q.expected, *q.acceptable}
        right = np.array([case.end(k, None)[0] in good for k in case.found.keys], dtype=bool)
        if right.any() and not right.all():
            lists.append((np.array(case.found.values, dtype=np.float64), right))
    fitted = [i for i, name in enumerate(FEATURES) if name not in UNFITTED]
    w = np.array(settings.weights, dtype=np.float64)
    w[fitted] = START
    w[FEATURES.index(FIXED)] = 1.0
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, STEPS + 1) if lists else ():
        grad = L2 * w
        for x, right in lists:
            s = SHARPNESS * (x @ w)
            p = np.exp(s - s.max())
            p /= p.sum()
            q_right = np.where(right, p, 0.0)
            q_right /= q_right.sum()
            grad -= SHARPNESS * (x.T @ (q_right - p)) / len(lists)
        mask = np.zeros_like(w)
        mask[fitted] = 1.0
        grad *= mask
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        w[fitted] = np.maximum(w[fitted], 0.0)
    return replace(settings, weights=tuple(round(float(x), 3) for x in w))


def _logistic(
    rows: Sequence[tuple[float, ...]], labels: Sequence[int], l2: float = 0.1, steps: int = 50
) -> tuple[float, tuple[float, ...]]:
    """Intercept and weights of a logistic regression (Newton's method, L2 on the weights)."""
    import numpy as np

    x = np.hstack([np.ones((len(rows), 1)), np.array(rows, dtype=np.float64)])
    y = np.array(labels, dtype=np.float64)
    beta = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -60, 60)))
        gradient = x.T @ (p - y) + penalty * beta
        hessian = (x.T * (p * (1 - p))) @ x + np.diag(penalty) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return float(beta[0]), tuple(float(b) for b in beta[1:])


def _monotone_logistic(
    rows: Sequence[tuple[float, ...]], labels: Sequence[int]
) -> tuple[float, tuple[float, ...]]:
    """A logistic regression whose weights are all at least zero: each gate feature is
    evidence that the start answers, never against it (a negative weight is two features
    sharing what one says). A feature given a negative weight is left out and the rest
    refitted, until none is."""
    kept = list(range(len(rows[0])))
    while True:
        bias, weights = _logistic([tuple(r[i] for i in kept) for r in rows], labels)
        negative = [i for i, w in zip(kept, weights, strict=True) if w < 0]
        if not negative:
            full = [0.0] * len(rows[0])
            for i, w in zip(kept, weights, strict=True):
                full[i] = w
            return bias, tuple(full)
        kept = [i for i in kept if i not in negative]
        if not kept:
            return bias, tuple(0.0 for _ in rows[0])


def _right_with_gate(cases: Sequence[FitCase], settings: AnswerSettings) -> int:
    return sum(answered(case, settings) for case in cases)


def _fit_gate(cases: Sequence[FitCase], settings: AnswerSettings) -> AnswerSettings:
    rows, labels = [], []
    for case in cases:
        settled = settle_case(case, settings)
        if settled.gate is None or settled.walked is None:
            continue
        rows.append(settled.gate)
        answered = settled.walked.standing
        labels.append(int(case.question.expected is not None and case.question.right(answered)))
    if len(set(labels)) < 2:
        return settings
    bias, weights = _monotone_logistic(rows, labels)
    fitted = replace(
        settings, abstain_bias=round(bias, 4), abstain_weights=tuple(round(w, 4) for w in weights)
    )
    best, best_right = fitted, -1
    for t in THRESHOLDS:
        trial = replace(fitted, abstain_below=t)
        right = _right_with_gate(cases, trial)
        # ties go to the middle of the best run of thresholds, recorded below
        if right > best_right:
            best, best_right = trial, right
    run = [
        t
        for t in THRESHOLDS
        if _right_with_gate(cases, replace(fitted, abstain_below=t)) == best_right
    ]
    middle = run[len(run) // 2] if run else best.abstain_below
    return replace(fitted, abstain_below=middle)


def fit(
    cases: Sequence[FitCase],
    settings: AnswerSettings = DEFAULT_SETTINGS,
    name: str = "",
) -> AnswerSettings:
    """Settings fitted on ``cases``: weights, then the abstention model and threshold."""
    weighted = _fit_weights(cases, settings)
    gated = _fit_gate(cases, weighted)
    groups = sorted({c.group for c in cases})
    right = _right_with_gate(cases, gated)
    # then what corrections lend, learning on, in simulated orders (``fit_learning``)
    learned = fit_learning(cases, gated)
    return replace(
        learned,
        fitted_on=name or ", ".join(groups),
        extra={**learned.extra, "right": right, "questions": len(cases)},
    )


def leave_one_out(
    cases: Sequence[FitCase],
    settings: AnswerSettings = DEFAULT_SETTINGS,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, AnswerSettings]:
    """For each group, the settings fitted on every other group."""
    groups = list(dict.fromkeys(c.group for c in cases))
    out = {}
    for i, group in enumerate(groups, start=1):
        others = [c for c in cases if c.group != group]
        out[group] = fit(others, settings, "all but " + group)
        if progress is not None:
            progress(i, len(groups))
    return out


def held_out_right(cases: Sequence[FitCase], chosen: dict[str, AnswerSettings]) -> dict[str, float]:
    """Each group's share of right answers (learning off) under the settings chosen for it."""
    out = {}
    for group, settings in chosen.items():
        mine = [c for c in cases if c.group == group]
        out[group] = _right_with_gate(mine, settings) / len(mine) if mine else math.nan
    return out
