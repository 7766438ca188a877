"""Test-then-train: ask each question, score it, then correct it; over K shuffled orders.

Each order gets fresh graphs (one SQLite file per learning system in a temporary
folder, or ``memory://``), so what one order learnt never leaks into the next.
Systems that do not learn share one graph. Every system sees the same orders.
"""

from __future__ import annotations

import os
import random
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decisis.adr import DEFAULT_SETTINGS, AnswerSettings, ingest
from decisis.errors import InvalidInput
from decisis.evaluation.questions import Question, Verdict, score
from decisis.evaluation.stats import clustered_interval, median
from decisis.evaluation.systems import Decisis, FullTextTop, NoGraph, System, VectorTop
from decisis.graph import Graph
from decisis.graph import open as open_graph

__all__ = ["SYSTEMS", "Outcome", "Summary", "evaluate", "misses", "summarise"]

SYSTEMS = ("fulltext", "vectors", "no-graph", "decisis-static", "decisis")
Progress = Callable[[int, int], None]  # (questions asked so far, questions to ask)


@dataclass(frozen=True)
class Outcome:
    system: str
    order: int
    question: str  # id
    kind: str
    answer: str | None
    verdict: Verdict
    tokens: int
    group: str = ""  # the corpus (or folder) the question is reported under


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


STORES = ("sqlite", "memory", "duckdb", "postgresql://…")


def _opener(folder: Path, store: str) -> Callable[[str], Graph]:
    """Fresh graphs for one evaluation: a SQLite or DuckDB file each in ``folder``, a memory
    store, or a graph of its own (named for this run) in the PostgreSQL database ``store``."""
    if store.startswith(("postgresql://", "postgres://")):
        run = uuid.uuid4().hex[:12]
        return lambda name: open_graph(store, graph=f"eval-{run}-{name}")
    if store not in ("sqlite", "memory", "duckdb"):
        raise InvalidInput("store", f"{store!r} is not a store to evaluate on", ", ".join(STORES))

    def make(name: str) -> Graph:
        if store == "memory":
            return open_graph("memory://")
        suffix = "duckdb" if store == "duckdb" else "db"
        return open_graph(f"{store}:///{folder / (name + '.' + suffix)}")

    return make


@dataclass
class _Run:
    """What every system's run shares: each question's group, and the progress to report."""

    group_of: Callable[[Question], str] = lambda q: ""
    progress: Progress | None = None
    done: int = 0
    total: int = 0
    settings: AnswerSettings = DEFAULT_SETTINGS

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


def _run(system: System, order: int, questions: Sequence[Question], run: _Run) -> list[Outcome]:
    out = []
    for q in questions:
        answer, tokens = system.ask(q.question)
        verdict = score(q, answer)
        group = run.group_of(q)
        out.append(Outcome(system.name, order, q.id, q.kind, answer, verdict, tokens, group))
        system.learn(q)
        run.tick()
    return out


def evaluate(
    questions: Sequence[Question],
    corpus: Sequence[str | os.PathLike[str]],
    *,
    orders: int = 5,
    seed: int = 0,
    store: str = "sqlite",
    systems: Sequence[str] = SYSTEMS,
    group_of: Callable[[Question], str] | None = None,
    progress: Progress | None = None,
    settings: AnswerSettings = DEFAULT_SETTINGS,
) -> list[Outcome]:
    """Every outcome of every system over ``orders`` shuffled orders of ``questions``;
    ``group_of`` names the corpus each question is reported under, ``progress`` is called
    after every answer with (answers so far, answers in all); decisis answers (and learns)
    with ``settings``."""
    if isinstance(orders, bool) or not isinstance(orders, int) or orders < 1:
        raise InvalidInput("orders", f"{orders!r} is not a positive whole number", ">= 1")
    unknown = [name for name in systems if name not in SYSTEMS]
    if unknown or not systems:
        raise InvalidInput("systems", f"{unknown or 'none'} given", ", ".join(SYSTEMS))
    run = _Run(
        group_of or (lambda q: ""), progress, 0, orders * len(systems) * len(questions), settings
    )
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
                    outcomes += _run_system(name, order, shuffled, static, make, corpus, run)
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
    run: _Run,
) -> list[Outcome]:
    if name == "fulltext":
        return _run(FullTextTop(static), order, questions, run)
    if name == "vectors":
        return _run(VectorTop(static), order, questions, run)
    if name == "decisis-static":
        return _run(Decisis(static, learning=False, settings=run.settings), order, questions, run)
    graph = make(f"{name}-{order}")
    try:
        ingest(graph, *corpus)
        system: System = (
            NoGraph(graph, run.settings)
            if name == "no-graph"
            else Decisis(graph, learning=True, settings=run.settings)
        )
        return _run(system, order, questions, run)
    finally:
        graph.close()


def _by_question(outcomes: Sequence[Outcome], test: Callable[[Outcome], bool]) -> list[list[bool]]:
    """``test`` of each outcome, grouped by question (over its orders)."""
    grouped: dict[tuple[str, str], list[bool]] = {}
    for o in outcomes:
        grouped.setdefault((o.group, o.question), []).append(test(o))
    return list(grouped.values())


def _is(verdict: str) -> Callable[[Outcome], bool]:
    return lambda o: o.verdict == verdict


def summarise(outcomes: Sequence[Outcome]) -> list[Summary]:
    """Rates (with 95% intervals from resampling questions) and median tokens per system."""
    out = []
    for name in dict.fromkeys(o.system for o in outcomes):
        mine = [o for o in outcomes if o.system == name]
        oos = [o for o in mine if o.kind == "out-of-scope"]
        summary = Summary(name, len(mine), median_tokens=median([o.tokens for o in mine]))
        for verdict in ("right", "outdated", "wrong"):
            summary.rates[verdict] = clustered_interval(_by_question(mine, _is(verdict)))
        summary.rates["abstained"] = clustered_interval(
            _by_question(mine, lambda o: o.answer is None)
        )
        summary.rates["out_of_scope_abstained"] = clustered_interval(
            _by_question(oos, lambda o: o.answer is None)
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
