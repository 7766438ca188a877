"""Abstention from one calibrated score: does the best start answer the question?

The probability is a logistic model over what the best start shows (``GATE_FEATURES``): its
score and its lead over the next start, how much of the question it holds, and how close
its closest sentence is in meaning. ``gate_readings`` also gives the start's subject
coverage and its cosine (or that of where its walk ends), which the gate no longer reads:
left out, leave-one-corpus-out gained a question (docs/benchmarks.md).
``decisis.evaluation.fit`` fits the model and its threshold on whether the best start was
right, one corpus held out at a time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from decisis.adr.answer.features import Candidates
from decisis.adr.answer.settings import FEATURES, GATE_FEATURES, LEARNED, AnswerSettings

__all__ = ["gate_readings", "gate_values", "probability"]


def gate_readings(
    found: Candidates,
    ranked: Sequence[tuple[str, float]],
    settings: AnswerSettings,
    standing: str | None = None,
    chain: Sequence[str] = (),
) -> dict[str, float]:
    """What the gate can read of the best of ``ranked`` (``GATE_FEATURES`` chooses what it
    does read); ``standing`` is where the walk from it ends (its cosine counts when closer: a
    record deciding many things is far from a question about one of them, the later record
    that took that part over is not). The margin is over the best start off the walk's
    ``chain``: an old record and the one that replaced it both match a question about them,
    and agree on the answer."""
    top, score = ranked[0]
    on_chain = {top, *chain}
    # what corrections lend counts for the best start only: lent to another, it did not make
    # that one the best, and it must not make the gate doubt the best one either
    second = next((s - _lent(found, k, settings) for k, s in ranked[1:] if k not in on_chain), 0.0)
    # the scale leaves out what corrections lend (``LEARNED``): weighing it must not move
    # the scores of questions no correction reaches
    most = sum(
        w for n, w in zip(FEATURES, settings.weights, strict=True) if w > 0 and n not in LEARNED
    )
    most = most or 1.0
    cosine = found.cosines.get(top, 0.0)
    if standing is not None:
        cosine = max(cosine, found.cosines.get(standing, cosine))
    return {
        "score": score / most,
        "margin": (score - second) / most,
        "coverage": found.value(top, "coverage"),
        "subject": found.value(top, "subject"),
        "cosine": cosine,
        "sentence": found.value(top, "sentence"),
    }


def gate_values(
    found: Candidates,
    ranked: Sequence[tuple[str, float]],
    settings: AnswerSettings,
    standing: str | None = None,
    chain: Sequence[str] = (),
) -> tuple[float, ...]:
    """The values of ``GATE_FEATURES`` for the best of ``ranked`` (``gate_readings``)."""
    readings = gate_readings(found, ranked, settings, standing, chain)
    return tuple(readings[name] for name in GATE_FEATURES)


def _lent(found: Candidates, key: str, settings: AnswerSettings) -> float:
    """The part of ``key``'s score that corrections lend (``LEARNED``)."""
    if key not in found.keys:
        return 0.0
    return sum(settings.weight(name) * found.value(key, name) for name in LEARNED)


def probability(values: Sequence[float], settings: AnswerSettings) -> float:
    """The modelled probability that the best start answers the question."""
    z = settings.abstain_bias + sum(
        w * v for w, v in zip(settings.abstain_weights, values, strict=True)
    )
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
