"""Suites of corpora: reading the TOML file, grouping questions, running every corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decisis.errors import InvalidInput
from decisis.evaluation.questions import Question
from decisis.evaluation.report import group_table
from decisis.evaluation.stats import clustered_interval
from decisis.evaluation.suite import load_suite, run_suite

ROOT = Path(__file__).resolve().parents[2]
RECORD = "# {n}. {title}\n\nDate: 2021-01-0{n}\n\n## Status\n\nAccepted\n\n## Decision\n\n{text}\n"


def _corpus(tmp_path: Path) -> Path:
    for folder, n, title, text in [
        ("alpha", 1, "Use Postgres for orders", "We keep orders in PostgreSQL."),
        ("alpha", 2, "Use Kafka for events", "Order events go through Kafka topics."),
        ("beta", 1, "Deploy with Helm", "Every service ships as a Helm chart."),
    ]:
        (tmp_path / "records" / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / "records" / folder / f"000{n}-x.md").write_text(
            RECORD.format(n=n, title=title, text=text)
        )
    rows = [
        {"id": "a-1", "question": "Where do we keep orders?", "expected": "alpha:0001"},
        {"id": "b-1", "question": "How do services ship?", "expected": "beta:0001"},
        {"id": "b-2", "question": "What is the canteen menu?", "expected": None},
    ]
    (tmp_path / "q.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return tmp_path


def test_suite_groups_questions_by_folder_and_prefix(tmp_path: Path) -> None:
    base = _corpus(tmp_path)
    (base / "suite.toml").write_text(
        '[[corpus]]\nname = "teams"\nrecords = ["records"]\nquestions = ["q.jsonl"]\n'
        'by_folder = true\nfolder_of_prefix = { b = "beta" }\n'
    )
    suite = load_suite(base / "suite.toml")
    assert suite.groups == ["alpha", "beta"]
    outcomes = run_suite(suite, orders=2, systems=("decisis-static", "fulltext"))
    assert {(o.group, o.question) for o in outcomes} == {
        ("alpha", "a-1"),
        ("beta", "b-1"),
        ("beta", "b-2"),
    }
    assert len(outcomes) == 2 * 2 * 3
    table = group_table(outcomes, ["decisis-static"])
    assert "alpha" in table and "pooled" in table


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "names no [[corpus]]"),
        ("[[corpus]]\nrecords = ['records']\nquestions = ['q.jsonl']\n", "name is None"),
        ("[[corpus]]\nname = 'x'\nrecords = ['nowhere']\nquestions = ['q.jsonl']\n", "missing"),
        ("[[corpus]]\nname = 'x'\nrecords = 3\nquestions = ['q.jsonl']\n", "records is 3"),
        ("not toml =", "is not TOML"),
    ],
)
def test_bad_suites_are_refused(tmp_path: Path, text: str, problem: str) -> None:
    base = _corpus(tmp_path)
    (base / "suite.toml").write_text(text)
    with pytest.raises(InvalidInput, match=problem.replace("[", r"\[").replace("]", r"\]")):
        load_suite(base / "suite.toml")


def test_the_repository_suite_names_the_five_corpora() -> None:
    suite = load_suite(ROOT / "bench" / "suite.toml")
    assert sorted(suite.groups) == [
        "cloud-platform",
        "govuk-aws",
        "hydra",
        "mc-review",
        "modernisation-platform",
    ]
    assert sum(len(c.questions) for c in suite.corpora) == 171
    question = Question("mp-39", "q?", None)
    assert suite.corpora[0].group_of(question) == "modernisation-platform"


def test_clustered_interval_resamples_questions_not_orders() -> None:
    # two questions, each asked five times: one always right, one never
    rate, low, high = clustered_interval([[True] * 5, [False] * 5])
    assert rate == 0.5 and low == 0.0 and high == 1.0
    assert clustered_interval([]) == (0.0, 0.0, 0.0)


def _kinds() -> list[str]:
    return ["memory", "duckdb", "postgres"]


@pytest.mark.parametrize("kind", _kinds())
def test_every_backend_answers_the_suite_as_sqlite_does(tmp_path: Path, kind: str) -> None:
    """The answer engine reads no backend's own ranking: every store gives the same answers."""
    from tests.stores.postgres.server import drop_schema, new_schema, schema_url

    base = _corpus(tmp_path)
    (base / "suite.toml").write_text(
        '[[corpus]]\nname = "teams"\nrecords = ["records"]\nquestions = ["q.jsonl"]\n'
    )
    suite = load_suite(base / "suite.toml")
    systems = ("decisis-static", "decisis")
    expected = [
        (o.system, o.question, o.answer) for o in run_suite(suite, orders=1, systems=systems)
    ]
    schema = new_schema() if kind == "postgres" else None
    try:
        store = schema_url(schema) if schema else kind
        found = run_suite(suite, orders=1, systems=systems, store=store)
    finally:
        if schema:
            drop_schema(schema)
    assert [(o.system, o.question, o.answer) for o in found] == expected


def test_an_unknown_store_kind_is_refused(tmp_path: Path) -> None:
    base = _corpus(tmp_path)
    (base / "suite.toml").write_text(
        '[[corpus]]\nname = "teams"\nrecords = ["records"]\nquestions = ["q.jsonl"]\n'
    )
    with pytest.raises(InvalidInput, match="not a store to evaluate on"):
        run_suite(load_suite(base / "suite.toml"), orders=1, store="mongodb")
