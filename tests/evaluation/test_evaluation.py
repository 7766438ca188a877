"""Scoring, intervals, and the dev set end to end on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from decisis.evaluation import Question, evaluate, load_questions, score, summarise, to_table
from decisis.evaluation.stats import bootstrap_interval

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def test_score_follows_the_readme() -> None:
    q = Question("1", "q?", "t:2", acceptable=("t:3",), outdated=("t:1",))
    assert [score(q, k) for k in ("t:2", "t:3", "t:1", "t:9", None)] == [
        "right",
        "right",
        "outdated",
        "wrong",
        "wrong",
    ]
    assert score(Question("2", "q?", None), None) == "right"


def test_bootstrap_interval_brackets_the_rate() -> None:
    rate, low, high = bootstrap_interval([True] * 8 + [False] * 2)
    assert rate == 0.8 and low <= rate <= high


@pytest.mark.slow
def test_dev_set_end_to_end() -> None:
    questions = load_questions(DATA / "questions-dev.jsonl")
    outcomes = evaluate(questions, [DATA / "adr-corpus"], orders=1)
    summaries = {s.system: s for s in summarise(outcomes)}
    assert to_table(list(summaries.values()))
    right = {name: s.rates["right"][0] for name, s in summaries.items()}
    assert right["decisis"] > right["fulltext"]
    assert right["decisis"] >= right["no-graph"]
    assert summaries["decisis"].rates["outdated"][0] <= 0.05
    assert summaries["decisis"].median_tokens <= 150
