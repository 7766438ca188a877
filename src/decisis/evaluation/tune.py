"""Choose answering's weights and thresholds on question sets, with whole topics held out.

``python -m decisis.evaluation.tune QUESTIONS.jsonl [MORE.jsonl …] --corpus DIR [--folds K]``
prints, for a grid of ranking settings (folder boost, vector weight, full-text weight)
and abstention thresholds (coverage, cosine, subject):

* the in-sample best setting and its rate of right answers (learning off);
* the held-out rate: for each topic (or, with ``--folds K``, each of K groups of
  topics), the setting that does best on the *other* topics is used to answer its
  questions, so the number says how a setting chosen this way does on questions it
  was not chosen on.

Several files are pooled; a topic is named by its file as well, so two files' topics of
the same name stay apart. Ties are broken towards the middle of the best plateau (a
setting whose neighbours do as well), not towards its edge. The constants in
``decisis.adr.start`` and ``decisis.adr.answer`` were set from this script's output
(see each constant for the files it was run on).
"""

from __future__ import annotations

import argparse
import itertools
import os
from collections.abc import Container, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import astuple, dataclass, replace
from pathlib import Path
from typing import Any

import decisis.adr.answer as answering
import decisis.adr.start as starting
from decisis.adr.answer import decide, meaning_cosine, words_vouch
from decisis.adr.ingest import ingest
from decisis.adr.start import VOUCHED, start_points
from decisis.adr.view import view_of
from decisis.evaluation.questions import Question, load_questions, score
from decisis.graph import Graph
from decisis.graph import open as open_graph

__all__ = ["Case", "Setting", "cases", "choose", "held_out", "main", "pooled"]

FOLDER_BOOSTS = (0.0, 0.15, 0.3, 0.5)
VECTOR_WEIGHTS = (0.0, 0.25, 0.5, 1.0)
FULLTEXT_WEIGHTS = (0.05, 0.5)
COVERAGES = tuple(x / 100 for x in range(20, 52, 4))
COSINES = tuple(x / 100 for x in range(0, 64, 5))
SUBJECTS = (0.0, 0.15, 0.3)


@dataclass(frozen=True)
class Setting:
    folder_boost: float
    vector_weight: float
    fulltext_weight: float
    coverage: float = 0.0
    cosine: float = 0.0
    subject: float = 0.0


@dataclass(frozen=True)
class Case:
    """One question answered under one ranking setting, before abstention."""

    question: Question
    answer: str | None
    coverage: float
    cosine: float | None  # with the best start or, if closer, the answer; None: no embedder
    remembered: bool
    subject: float = 1.0  # share of the question's rarest known words the best start has
    # the best start cannot answer what the question's form asks for (a length of time, one of
    # the choices it offers)
    form_unmet: bool = False
    held_only: tuple[str, ...] = ()  # subject words only the best start uses

    def verdict(self, coverage: float, cosine: float, subject: float = 0.0) -> str:
        far = self.cosine is not None and self.cosine < cosine
        abstain = not self.remembered and (
            self.form_unmet
            or self.coverage < coverage
            or self.subject < subject
            or (
                far
                and not words_vouch(self.coverage, self.subject, self.held_only, self.cosine or 0.0)
            )
        )
        return score(self.question, None if abstain else self.answer)

    def right(self, coverage: float, cosine: float, subject: float = 0.0) -> bool:
        return self.verdict(coverage, cosine, subject) == "right"


@contextmanager
def _settings(setting: Setting) -> Iterator[None]:
    saved = (
        starting.FOLDER_BOOST,
        starting.VECTOR_WEIGHT,
        starting.VOTER_WEIGHTS,
        answering.ABSTAIN_COVERAGE,
        answering.ABSTAIN_COSINE,
        answering.ABSTAIN_SUBJECT,
    )
    starting.FOLDER_BOOST = setting.folder_boost
    starting.VECTOR_WEIGHT = setting.vector_weight
    starting.VOTER_WEIGHTS = {**saved[2], "fulltext": setting.fulltext_weight}
    answering.ABSTAIN_COVERAGE = -1.0
    answering.ABSTAIN_COSINE = -1.0
    answering.ABSTAIN_SUBJECT = -1.0
    try:
        yield
    finally:
        (
            starting.FOLDER_BOOST,
            starting.VECTOR_WEIGHT,
            starting.VOTER_WEIGHTS,
            answering.ABSTAIN_COVERAGE,
            answering.ABSTAIN_COSINE,
            answering.ABSTAIN_SUBJECT,
        ) = saved


def cases(graph: Graph, questions: Sequence[Question], setting: Setting) -> list[Case]:
    """Every question answered under ``setting`` with abstention off, and its evidence."""
    view = view_of(graph)
    out = []
    with _settings(setting):
        for q in questions:
            points = start_points(graph, view, q.question)
            answer = decide(view, points, q.question)
            top = points.fused[0].doc if points.fused else None
            cosine = meaning_cosine(points, answer.answer) if points.vector_scores and top else None
            out.append(
                Case(
                    q,
                    answer.answer,
                    points.coverage.get(top, 0.0) if top else 0.0,
                    cosine,
                    bool(points.fused and VOUCHED & points.fused[0].votes.keys()),
                    points.subject.get(top, 1.0) if top else 0.0,
                    points.form_unmet is not None,
                    tuple(points.held_only),
                )
            )
    return out


Table = dict[Setting, list[Case]]


MAX_OUTDATED = 0.05  # a setting answering more than this share with a replaced record is out


def _rate(table: Table, setting: Setting, keep: set[str], verdict: str = "right") -> float:
    base = Setting(setting.folder_boost, setting.vector_weight, setting.fulltext_weight)
    mine = [c for c in table[base] if c.question.topic in keep]
    if not mine:
        return 0.0
    return sum(
        c.verdict(setting.coverage, setting.cosine, setting.subject) == verdict for c in mine
    ) / len(mine)


def _score(table: Table, setting: Setting, keep: set[str]) -> float:
    """Right answers, with settings over the outdated limit ranked below every other."""
    right = _rate(table, setting, keep)
    return right - (1.0 if _rate(table, setting, keep, "outdated") > MAX_OUTDATED else 0.0)


def _all(table: Table) -> list[Setting]:
    return [
        Setting(b.folder_boost, b.vector_weight, b.fulltext_weight, cov, cos, sub)
        for b in table
        for cov, cos, sub in itertools.product(COVERAGES, COSINES, SUBJECTS)
    ]


def _neighbours(setting: Setting, grid: Container[Setting]) -> list[Setting]:
    """The settings of ``grid`` at most one step from ``setting`` on every axis (itself too),
    looked up rather than searched for: the grid has thousands of settings."""
    # the axes in the order of Setting's fields
    axes = (FOLDER_BOOSTS, VECTOR_WEIGHTS, FULLTEXT_WEIGHTS, COVERAGES, COSINES, SUBJECTS)
    steps = []
    for axis, value in zip(axes, astuple(setting), strict=True):
        at = axis.index(value)
        steps.append(axis[max(0, at - 1) : at + 2])
    return [n for n in itertools.starmap(Setting, itertools.product(*steps)) if n in grid]


def choose(table: Table, keep: set[str]) -> tuple[Setting, float]:
    """The best setting on the questions of topics ``keep``, towards the plateau's middle."""
    grid = _all(table)
    rates = {s: _score(table, s, keep) for s in grid}
    best = max(rates.values())
    top = [s for s in grid if rates[s] == best]
    # Prefer the setting whose neighbourhood does best on average (a broad plateau).
    smooth = {}
    for s in top:
        near = _neighbours(s, rates)
        smooth[s] = sum(rates[n] for n in near) / len(near)
    chosen = max(top, key=lambda s: (smooth[s], -s.coverage, -s.cosine, -s.subject))
    return chosen, _rate(table, chosen, keep)


def held_out(table: Table, topics: Sequence[str], folds: int = 0) -> tuple[float, float]:
    """Rates of right and of outdated answers with each topic's setting chosen on the others:
    leave one topic out, or (``folds`` > 0) one of ``folds`` groups of topics (every
    ``folds``-th topic in sorted order), which is as honest and much faster on many topics."""
    right = total = outdated = 0
    everything = set(topics)
    ordered = sorted(everything)
    groups = (
        [set(ordered[i::folds]) for i in range(folds)]
        if 0 < folds < len(ordered)
        else [{t} for t in ordered]
    )
    for group in groups:
        setting, _ = choose(table, everything - group)
        base = Setting(setting.folder_boost, setting.vector_weight, setting.fulltext_weight)
        mine = [c for c in table[base] if c.question.topic in group]
        right += sum(c.right(setting.coverage, setting.cosine, setting.subject) for c in mine)
        outdated += sum(
            c.verdict(setting.coverage, setting.cosine, setting.subject) == "outdated" for c in mine
        )
        total += len(mine)
    return (right / total, outdated / total) if total else (0.0, 0.0)


def pooled(paths: Sequence[str | os.PathLike[str]]) -> list[Question]:
    """The questions of every file; with more than one file, each topic (or, lacking one, the
    question's id) is named by its file's stem too, so topics of the same name in two files
    are held out apart."""
    if len(paths) == 1:
        return load_questions(paths[0])
    out = []
    for path in paths:
        stem = Path(path).stem
        out += [replace(q, topic=f"{stem}/{q.topic or q.id}") for q in load_questions(path)]
    return out


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m decisis.evaluation.tune")
    parser.add_argument("questions", nargs="+")
    parser.add_argument("--corpus", action="append", required=True)
    parser.add_argument(
        "--folds", type=int, default=0, help="hold out K groups of topics (0: one topic at a time)"
    )
    args = parser.parse_args(argv)
    questions = pooled(args.questions)
    graph = open_graph("memory://")
    ingest(graph, *[os.fspath(c) for c in args.corpus])
    table: Table = {}
    for boost, vectors, fulltext in itertools.product(
        FOLDER_BOOSTS, VECTOR_WEIGHTS, FULLTEXT_WEIGHTS
    ):
        setting = Setting(boost, vectors, fulltext)
        table[setting] = cases(graph, questions, setting)
    topics = sorted({q.topic or q.id for q in questions})
    chosen, in_sample = choose(table, set(topics))
    held, held_outdated = held_out(table, topics, args.folds)
    current = Setting(
        starting.FOLDER_BOOST,
        starting.VECTOR_WEIGHT,
        starting.VOTER_WEIGHTS.get("fulltext", 0.0),
        answering.ABSTAIN_COVERAGE,
        answering.ABSTAIN_COSINE,
        answering.ABSTAIN_SUBJECT,
    )
    result = {
        "chosen": chosen.__dict__,
        "in_sample_right": round(in_sample, 4),
        "in_sample_outdated": round(_rate(table, chosen, set(topics), "outdated"), 4),
        "held_out_right": round(held, 4),
        "held_out_outdated": round(held_outdated, 4),
        "current": current.__dict__,
        "current_in_sample_right": (
            round(_rate(table, current, set(topics)), 4)
            if Setting(current.folder_boost, current.vector_weight, current.fulltext_weight)
            in table
            else None
        ),
    }
    for key, value in result.items():
        print(f"{key}: {value}")
    return result


if __name__ == "__main__":
    main()
