"""Test-then-train: ask each question, score it, then correct it; over K shuffled orders.

Each order gets fresh graphs (one SQLite file per learning system in a temporary
folder, or ``memory://``), so what one order learnt never leaks into the next.
Systems that do not learn share one graph. Every system sees the same orders.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decisis.adr.ingest import ingest
from decisis.errors import InvalidInput
from decisis.evaluation.questions import Question, Verdict, score
from decisis.evaluation.stats import bootstrap_interval, median
from decisis.evaluation.systems import Decisis, FullTextTop, NoGraph, System
from decisis.graph import Graph
from decisis.graph import open as open_graph

__all__ = ["SYSTEMS", "Outcome", "Summary", "evaluate", "misses", "summarise"]

SYSTEMS = ("fulltext", "no-graph", "decisis-static", "decisis")


@dataclass(frozen=True)
class Outcome:
    system: str
    order: int
    question: str  # id
    kind: str
    answer: str | None
    verdict: Verdict
    tokens: int


@dataclass
class Summary:
    system: str
    n: int
    rates: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    median_tokens: float = 0.0
    # kind of question ("chain", "stable", "paraphrase", "out-of-scope") -> (right rate, answers)
    by_kind: dict[str, tuple[float, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "n": self.n,
            "median_tokens": self.median_tokens,
            **{
                name: {"rate": round(r, 4), "low": round(lo, 4), "high": round(hi, 4)}
                for name, (r, lo, hi) in self.rates.items()
            },
            "right_by_kind": {
                kind: {"rate": round(rate, 4), "n": n} for kind, (rate, n) in self.by_kind.items()
            },
        }


def _opener(folder: Path, store: str) -> Callable[[str], Graph]:
    def make(name: str) -> Graph:
        url = "memory://" if store == "memory" else f"sqlite:///{folder / (name + '.db')}"
        return open_graph(url)

    return make


def _run(system: System, order: int, questions: Sequence[Question]) -> list[Outcome]:
    out = []
    for q in questions:
        answer, tokens = system.ask(q.question)
        out.append(Outcome(system.name, order, q.id, q.kind, answer, score(q, answer), tokens))
        system.learn(q)
    return out


def evaluate(
    questions: Sequence[Question],
    corpus: Sequence[str | os.PathLike[str]],
    *,
    orders: int = 5,
    seed: int = 0,
    store: str = "sqlite",
    systems: Sequence[str] = SYSTEMS,
) -> list[Outcome]:
    """Every outcome of every system over ``orders`` shuffled orders of ``questions``."""
    if isinstance(orders, bool) or not isinstance(orders, int) or orders < 1:
        raise InvalidInput("orders", f"{orders!r} is not a positive whole number", ">= 1")
    unknown = [name for name in systems if name not in SYSTEMS]
    if unknown or not systems:
        raise InvalidInput("systems", f"{unknown or 'none'} given", ", ".join(SYSTEMS))
    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="decisis-eval-") as tmp:
        make = _opener(Path(tmp), store)
        static = make("static")
        ingest(static, *corpus)
        try:
            for order in range(orders):
                shuffled = list(questions)
                rng.shuffle(shuffled)
                for name in systems:
                    outcomes += _run_system(name, order, shuffled, static, make, corpus)
        finally:
            static.close()
    return outcomes


def _run_system(
    name: str,
    order: int,
    questions: Sequence[Question],
    static: Graph,
    make: Callable[[str], Graph],
    corpus: Sequence[str | os.PathLike[str]],
) -> list[Outcome]:
    if name == "fulltext":
        return _run(FullTextTop(static), order, questions)
    if name == "decisis-static":
        return _run(Decisis(static, learning=False), order, questions)
    graph = make(f"{name}-{order}")
    try:
        ingest(graph, *corpus)
        system: System = NoGraph(graph) if name == "no-graph" else Decisis(graph, learning=True)
        return _run(system, order, questions)
    finally:
        graph.close()


def summarise(outcomes: Sequence[Outcome]) -> list[Summary]:
    """Rates (with 95% bootstrap intervals) and median tokens for each system."""
    out = []
    for name in dict.fromkeys(o.system for o in outcomes):
        mine = [o for o in outcomes if o.system == name]
        oos = [o for o in mine if o.kind == "out-of-scope"]
        summary = Summary(name, len(mine), median_tokens=median([o.tokens for o in mine]))
        for verdict in ("right", "outdated", "wrong"):
            summary.rates[verdict] = bootstrap_interval([o.verdict == verdict for o in mine])
        summary.rates["abstained"] = bootstrap_interval([o.answer is None for o in mine])
        summary.rates["out_of_scope_abstained"] = bootstrap_interval(
            [o.answer is None for o in oos]
        )
        for kind in sorted({o.kind for o in mine}):
            of_kind = [o.verdict == "right" for o in mine if o.kind == kind]
            summary.by_kind[kind] = (sum(of_kind) / len(of_kind), len(of_kind))
        out.append(summary)
    return out


def misses(outcomes: Sequence[Outcome], system: str) -> list[tuple[str, int, int, Counter[str]]]:
    """The questions ``system`` did not get right in every order, most often missed first:
    (question id, orders missed, orders run, what it answered when wrong: key or "none")."""
    runs: dict[str, list[Outcome]] = {}
    for o in outcomes:
        if o.system == system:
            runs.setdefault(o.question, []).append(o)
    out = []
    for question, mine in runs.items():
        wrong = [o for o in mine if o.verdict != "right"]
        if wrong:
            answered = Counter(o.answer or "none" for o in wrong)
            out.append((question, len(wrong), len(mine), answered))
    return sorted(out, key=lambda m: (-m[1], m[0]))
