"""Scoring, intervals, and the dev set end to end on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from decisis.evaluation import Question, evaluate, load_questions, score, summarise, to_table
from decisis.evaluation.stats import bootstrap_interval

DATA = Path(__file__).resolve().parents[2] / "data"


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
    # Reached on the development set (72.2% learning off, 71.5% on over 5 orders; out-of-scope
    # abstained 81.8%), rounded down a little; the held-out numbers are lower (70.4% right,
    # see decisis.evaluation.tune).
    assert right["decisis-static"] >= 0.7
    assert right["decisis"] >= 0.68
    for name in ("decisis", "decisis-static"):
        assert summaries[name].rates["outdated"][0] <= 0.05
        assert summaries[name].rates["out_of_scope_abstained"][0] >= 0.8
    assert summaries["decisis"].median_tokens <= 150


def test_tuning_picks_the_plateau_and_holds_topics_out() -> None:
    from decisis.evaluation.tune import Case, Setting, choose, held_out

    def case(topic: str, expected: str | None, answer: str, coverage: float) -> Case:
        return Case(Question(topic, "q?", expected, topic=topic), answer, coverage, None, False)

    base = Setting(0.0, 0.0, 0.05)
    table = {
        base: [
            case("a", "t:1", "t:1", 0.9),
            case("b", "t:2", "t:2", 0.5),
            case("c", None, "t:3", 0.1),
            case("d", None, "t:4", 0.15),
        ]
    }
    chosen, rate = choose(table, {"a", "b", "c", "d"})
    assert rate == 1.0 and 0.15 < chosen.coverage <= 0.5
    right, outdated = held_out(table, ["a", "b", "c", "d"])
    assert right == 1.0 and outdated == 0.0


def test_tuning_holds_out_folds_of_topics() -> None:
    from decisis.evaluation.tune import Case, Setting, held_out

    def case(topic: str, expected: str | None, answer: str, coverage: float) -> Case:
        return Case(Question(topic, "q?", expected, topic=topic), answer, coverage, None, False)

    # Two answerable topics and two out-of-scope ones; every second topic in sorted order
    # makes a fold ({a, c} and {b, d}), so each holds one of each: each fold's threshold is
    # chosen on the other and answers its own questions right.
    table = {
        Setting(0.0, 0.0, 0.05): [
            case("a", "t:1", "t:1", 0.9),
            case("b", "t:2", "t:2", 0.8),
            case("c", None, "t:3", 0.1),
            case("d", None, "t:4", 0.15),
        ]
    }
    assert held_out(table, ["a", "b", "c", "d"], folds=2) == (1.0, 0.0)
    # One fold holding every topic leaves nothing to choose on: one topic at a time instead.
    assert held_out(table, ["a", "b", "c", "d"], folds=1) == held_out(table, ["a", "b", "c", "d"])


def test_pooled_files_keep_their_topics_apart(tmp_path: Path) -> None:
    from decisis.evaluation.tune import pooled

    line = '{"id": "%s", "question": "q?", "expected": null, "topic": "shared"}\n'
    (tmp_path / "one.jsonl").write_text(line % "a")
    (tmp_path / "two.jsonl").write_text(line % "b" + line.replace('"shared"', '""') % "c")
    questions = pooled([tmp_path / "one.jsonl", tmp_path / "two.jsonl"])
    assert [q.topic for q in questions] == ["one/shared", "two/shared", "two/c"]
    assert [q.topic for q in pooled([tmp_path / "one.jsonl"])] == ["shared"]


def test_tuning_chooses_a_subject_threshold_when_it_helps() -> None:
    from decisis.evaluation.tune import Case, Setting, choose

    def case(topic: str, expected: str | None, answer: str, subject: float) -> Case:
        q = Question(topic, "q?", expected, topic=topic)
        return Case(q, answer, 0.9, None, False, subject)

    table = {
        Setting(0.0, 0.0, 0.05): [
            case("a", "t:1", "t:1", 1.0),
            case("b", "t:2", "t:2", 0.4),
            case("c", None, "t:3", 0.0),  # words in common, none of its subject
        ]
    }
    chosen, rate = choose(table, {"a", "b", "c"})
    assert rate == 1.0 and 0.0 < chosen.subject <= 0.4


def test_rates_by_kind_and_the_questions_missed() -> None:
    from decisis.evaluation import Outcome, misses, misses_table, to_json

    def outcome(order: int, question: str, kind: str, answer: str | None, verdict: str) -> Outcome:
        return Outcome("decisis", order, question, kind, answer, verdict, 40)  # type: ignore[arg-type]

    outcomes = [
        outcome(0, "c1", "chain", "t:2", "right"),
        outcome(1, "c1", "chain", "t:1", "outdated"),
        outcome(0, "s1", "stable", "t:5", "right"),
        outcome(1, "s1", "stable", "t:5", "right"),
        outcome(0, "o1", "out-of-scope", "t:9", "wrong"),
        outcome(1, "o1", "out-of-scope", "t:9", "wrong"),
    ]
    (summary,) = summarise(outcomes)
    assert summary.by_kind == {"chain": (0.5, 2), "out-of-scope": (0.0, 2), "stable": (1.0, 2)}
    assert '"right_by_kind"' in to_json([summary]) and "right, by kind" in to_table([summary])
    found = misses(outcomes, "decisis")
    assert [(q, m, n, dict(a)) for q, m, n, a in found] == [
        ("o1", 2, 2, {"t:9": 2}),
        ("c1", 1, 2, {"t:1": 1}),
    ]
    assert "o1  2/2  t:9 x2" in misses_table(outcomes, "decisis")
    assert misses_table(outcomes, "fulltext").endswith("none")
