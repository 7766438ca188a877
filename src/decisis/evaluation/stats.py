"""Rates with 95% bootstrap intervals, and medians: small, seeded, dependency-free."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

__all__ = ["bootstrap_interval", "clustered_interval", "median"]


def bootstrap_interval(
    outcomes: Sequence[bool], *, resamples: int = 2000, seed: int = 7
) -> tuple[float, float, float]:
    """The share of true outcomes and its 95% percentile bootstrap interval."""
    n = len(outcomes)
    if n == 0:
        return (0.0, 0.0, 0.0)
    rate = sum(outcomes) / n
    rng = random.Random(seed)
    values = sorted(sum(rng.choices(outcomes, k=n)) / n for _ in range(resamples))
    return rate, values[int(0.025 * resamples)], values[min(resamples - 1, int(0.975 * resamples))]


def clustered_interval(
    groups: Sequence[Sequence[bool]], *, resamples: int = 2000, seed: int = 7
) -> tuple[float, float, float]:
    """The share of true outcomes and its 95% interval, resampling *groups* (one a question,
    holding its outcomes over every order): the orders of one question are not independent
    draws, so resampling question x order would make the interval too narrow."""
    groups = [g for g in groups if g]
    if not groups:
        return (0.0, 0.0, 0.0)
    means = [sum(g) / len(g) for g in groups]
    n = len(means)
    rate = sum(sum(g) for g in groups) / sum(len(g) for g in groups)
    rng = random.Random(seed)
    values = sorted(sum(rng.choices(means, k=n)) / n for _ in range(resamples))
    return rate, values[int(0.025 * resamples)], values[min(resamples - 1, int(0.975 * resamples))]


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else 0.0
