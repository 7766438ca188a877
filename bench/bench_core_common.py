"""Shared helpers for the core benchmarks: interleaved timing, percentiles, tables.

Machines here are noisy, so every script times its subject and its baselines in
the same process, in alternating rounds (the order rotates each round), and
reports ratios of medians rather than trusting any absolute number alone.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Stats", "cpu_timed", "interleave", "machine_line", "ms", "print_table", "stats"]


@dataclass(frozen=True)
class Stats:
    """Summary of one set of timings, in nanoseconds."""

    n: int
    median: float
    p95: float
    mean: float

    def ratio(self, other: Stats) -> float:
        """How many times faster ``self`` is than ``other`` (by median)."""
        return other.median / self.median if self.median else float("inf")


def stats(samples_ns: Sequence[int]) -> Stats:
    """Median, 95th percentile (nearest rank) and mean of ``samples_ns``."""
    ordered = sorted(samples_ns)
    n = len(ordered)
    p95 = ordered[min(n - 1, max(0, int(0.95 * n + 0.5) - 1))]
    return Stats(n, statistics.median(ordered), p95, statistics.fmean(ordered))


def interleave(
    subjects: Mapping[str, Callable[[], object]],
    *,
    rounds: int,
    per_round: dict[str, int] | None = None,
    warmup: int = 1,
) -> dict[str, list[int]]:
    """Time each subject ``per_round[name]`` calls per round, rotating the order each round.

    Returns the per-call times in nanoseconds. ``warmup`` untimed calls of each
    subject come first.
    """
    names = list(subjects)
    per_round = per_round or {}
    for name in names:
        for _ in range(warmup):
            subjects[name]()
    times: dict[str, list[int]] = {name: [] for name in names}
    clock = time.perf_counter_ns
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            call, out = subjects[name], times[name]
            for _ in range(per_round.get(name, 1)):
                t0 = clock()
                call()
                out.append(clock() - t0)
    return times


def cpu_timed(call: Callable[[], object], into: list[int]) -> Callable[[], None]:
    """``call``, appending the process CPU time of each run to ``into``.

    CPU time leaves out the time the process waited for a core, so its tail shows
    what the code costs where wall-clock p95 on a shared machine shows preemption.
    """
    clock = time.process_time_ns

    def timed() -> None:
        t0 = clock()
        call()
        into.append(clock() - t0)

    return timed


def ms(ns: float) -> str:
    """Nanoseconds as milliseconds with three significant decimals."""
    value = ns / 1e6
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A Markdown table (readable in a terminal, pasteable into docs)."""
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"

    print(line(cells[0]))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells[1:]:
        print(line(row))
    sys.stdout.flush()


def machine_line() -> str:
    """``nproc``, Python and SQLite versions, platform and load, for the results header."""
    import sqlite3

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, {platform.system()} {platform.machine()}; "
        f"load average {load}"
    )
