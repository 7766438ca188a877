"""The question files under bench/ load, and every key they name is a record of the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from decisis.evaluation import load_questions

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data" / "adr-corpus"


@pytest.fixture(scope="module")
def keys() -> set[str]:
    with decisis.open("memory://") as g:
        ingest(g, CORPUS)
        return set(view_of(g).records)


@pytest.mark.parametrize(
    "name",
    [
        "questions-fresh.jsonl",
        "questions-indep.jsonl",
        "questions-blind.jsonl",
        "questions-blind2.jsonl",
        "questions-blind3.jsonl",
    ],
)
def test_every_named_key_is_a_record(name: str, keys: set[str]) -> None:
    questions = load_questions(ROOT / "bench" / name)
    assert len({q.id for q in questions}) == len(questions)
    named = {k for q in questions for k in (q.expected, *q.acceptable, *q.outdated) if k}
    assert named <= keys, sorted(named - keys)
    assert any(q.expected is None for q in questions)  # out-of-scope questions are there too
