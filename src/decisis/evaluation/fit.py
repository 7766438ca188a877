"""Fit the answer settings on a suite of corpora, one corpus held out at a time.

``python -m decisis.evaluation.fit bench/suite.toml`` prints, for each corpus, its share of
right answers (learning off) under the settings fitted on the others, and the settings
fitted on all of them (the shipped defaults are that). The fitting itself is
``decisis.adr.fit_settings`` (``decisis.adr.answer.fit``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from decisis.adr import (
    DEFAULT_SETTINGS,
    AnswerSettings,
    FitCase,
    Labelled,
    fit_case,
    fit_settings,
    held_out_right,
    ingest,
    leave_one_out,
)
from decisis.evaluation.suite import Suite, load_suite
from decisis.graph import open as open_graph

__all__ = ["cases_of", "main"]


def cases_of(
    suite: Suite,
    settings: AnswerSettings = DEFAULT_SETTINGS,
    progress: Callable[[int, int], None] | None = None,
) -> list[FitCase]:
    """Every question of ``suite`` with its candidates, each corpus ingested once in memory."""
    total = sum(len(c.questions) for c in suite.corpora)
    out: list[FitCase] = []
    for corpus in suite.corpora:
        graph = open_graph("memory://")
        ingest(graph, *corpus.records)
        for q in corpus.questions:
            labelled = Labelled(q.question, q.expected, q.acceptable)
            out.append(fit_case(graph, corpus.group_of(q), labelled, settings))
            if progress is not None:
                progress(len(out), total)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", type=Path)
    args = parser.parse_args(argv)
    began = time.monotonic()
    cases = cases_of(load_suite(args.suite))
    chosen = leave_one_out(cases)
    for group, right in held_out_right(cases, chosen).items():
        print(f"{group:24s} held out {100 * right:5.1f}% right  {chosen[group].to_dict()}")
    print("all:", json.dumps(fit_settings(cases).to_dict()))
    print(f"in {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
