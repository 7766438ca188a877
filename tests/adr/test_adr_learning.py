"""Learning that carries over: a corrected question's terms and meaning, kept beside its
node, reach the next question worded like it, and only that one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import decisis
from decisis.adr.answer import DEFAULT_SETTINGS, AnswerSettings, ask, consider
from decisis.adr.answer.engine import order
from decisis.adr.answer.features import Candidates
from decisis.adr.answer.gate import gate_values
from decisis.adr.answer.memory import (
    QUESTION_SPACE,
    Learnt,
    learned_features,
    learned_values,
    learnt,
    term_cosine,
)
from decisis.adr.answer.settings import FEATURES, GATE_FEATURES
from decisis.adr.learn.corrections import correct, undo
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from tests.adr.conftest import WriteFn

RECORD = (
    "# {n}. {title}\n\nDate: 2021-{n:02d}-01\n\n## Status\n\nAccepted\n\n## Decision\n\n{text}\n"
)
RECORDS = [
    ("Run builds on Jenkins", "Every build of every service runs on our Jenkins server."),
    ("Keep build artefacts in S3", "What a build produces is uploaded to one S3 bucket."),
    ("Deploy services with Helm", "Every service is released to the cluster as a Helm chart."),
    ("Send logs to Elasticsearch", "Application logs are shipped to a hosted Elasticsearch."),
    ("Keep secrets in Vault", "Services read their passwords and API keys from Vault."),
    ("Use PostgreSQL for new services", "A new service keeps its data in a PostgreSQL database."),
    ("Alert through PagerDuty", "Alerts page the engineer on call through PagerDuty."),
    ("Write services in Go", "New back-end services are written in Go."),
    ("Sign in with single sign-on", "Staff sign in to internal tools through Okta."),
    ("Review every pull request", "Every change is merged only after one reviewer approves it."),
    ("Cache sessions in Redis", "User sessions are cached in a managed Redis cluster."),
    ("Schedule jobs with cron", "Periodic jobs run as Kubernetes CronJobs."),
]
# Worded unlike the record they are about: "binaries", "CI", "spits out" are no record's words.
CORRECTED = "Where do the binaries our CI spits out end up?"
REWORDED = "Where do I find the binaries that CI spits out?"
UNRELATED = "Who waters the plants in the office kitchen?"
LEARNING = replace(
    DEFAULT_SETTINGS.with_weights(learned_terms=2.0, learned_cosine=2.0), learned_floor=0.5
)


@pytest.fixture
def records(write: WriteFn, team: Path) -> Path:
    for n, (title, text) in enumerate(RECORDS, start=1):
        write(f"{n:04d}-r.md", RECORD.format(n=n, title=title, text=text))
    return team


def _start(graph: decisis.Graph, question: str, settings: AnswerSettings) -> str | None:
    ordered = order(consider(graph, view_of(graph), question, settings), settings)
    return ordered.ranked[0][0] if ordered.ranked else None


def _scores(graph: decisis.Graph, question: str, settings: AnswerSettings) -> dict[str, float]:
    return consider(graph, view_of(graph), question, settings).scores(settings)


def test_a_correction_carries_to_a_reworded_question(records: Path, tmp_path: Path) -> None:
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, records)
        before = consider(g, view_of(g), REWORDED, LEARNING)
        assert all(before.value(k, "learned_terms") == 0.0 for k in before.keys)
        correct(g, CORRECTED, "team:0002", LEARNING)
        after = consider(g, view_of(g), REWORDED, LEARNING)
        assert "team:0002" in after.keys
        assert after.value("team:0002", "learned_terms") > 0.3
        assert _start(g, REWORDED, LEARNING) == "team:0002"
        assert ask(g, REWORDED, LEARNING).answer == "team:0002"
        # learning off reads nothing of it: the weights are 0, or remembering is off
        static = replace(LEARNING, remember=False)
        assert _scores(g, REWORDED, static) == _scores_without(records, tmp_path, static)


def _scores_without(records: Path, tmp_path: Path, settings: AnswerSettings) -> dict[str, float]:
    with decisis.open(f"sqlite:///{tmp_path / 'fresh.db'}") as fresh:
        ingest(fresh, records)
        return _scores(fresh, REWORDED, settings)


def test_an_unrelated_question_is_not_moved(records: Path, tmp_path: Path) -> None:
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, records)
        asked = ask(g, UNRELATED, LEARNING)
        scores = _scores(g, UNRELATED, LEARNING)
        correct(g, CORRECTED, "team:0002", LEARNING)
        assert _scores(g, UNRELATED, LEARNING) == scores
        assert ask(g, UNRELATED, LEARNING).answer == asked.answer


def test_undo_removes_what_a_correction_lent(records: Path, tmp_path: Path) -> None:
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, records)
        scores = _scores(g, REWORDED, LEARNING)
        done = correct(g, CORRECTED, "team:0002", LEARNING)
        space = _space_of(g)
        assert done.node in g.store.get_derived(g.name, space)  # beside its node
        assert _scores(g, REWORDED, LEARNING) != scores
        undo(g, CORRECTED)
        assert _scores(g, REWORDED, LEARNING) == scores
        assert learnt(view_of(g), g) == []
        assert done.node not in g.store.get_derived(g.name, space)


def _space_of(g: decisis.Graph) -> str:
    spaces = [s for s in g.store.derived_spaces(g.name) if s.startswith(QUESTION_SPACE + "@")]
    assert len(spaces) == 1, spaces
    return spaces[0]


def test_what_is_kept_is_read_back_by_a_new_process(records: Path, tmp_path: Path) -> None:
    """Another process (a new view, nothing cached) reads the kept terms and vector."""
    path = tmp_path / "g.db"
    with decisis.open(f"sqlite:///{path}") as g:
        ingest(g, records)
        correct(g, CORRECTED, "team:0002", LEARNING)
        first = learnt(view_of(g), g)
    with decisis.open(f"sqlite:///{path}") as again:
        view = view_of(again)
        view.cache.pop("learnt", None)
        read = learnt(view, again)
    assert [(x.node, x.answer, x.terms) for x in read] == [
        (x.node, x.answer, x.terms) for x in first
    ]
    assert "binari" in read[0].terms or any(t.startswith("binar") for t in read[0].terms)


def test_weighing_what_is_learned_leaves_learning_off_as_it_was(
    records: Path, tmp_path: Path
) -> None:
    """The gate's scale leaves the learned weights out: with nothing corrected, any learned
    weighting gives every start the same score and the gate the same values."""
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, records)
        for question in (REWORDED, UNRELATED, "How are services released?"):
            a = consider(g, view_of(g), question, DEFAULT_SETTINGS)
            b = consider(g, view_of(g), question, LEARNING)
            ranked_a, ranked_b = a.ranked(DEFAULT_SETTINGS), b.ranked(LEARNING)
            assert ranked_a == ranked_b
            if ranked_a:
                assert gate_values(a, ranked_a, DEFAULT_SETTINGS) == gate_values(
                    b, ranked_b, LEARNING
                )


def test_the_lead_goes_only_to_the_closest_record() -> None:
    """A record lent evidence is the one whose corrected question is closest, by how much it
    is closer than any other record's (and than the floor, for meaning)."""
    import numpy as np

    def unit(*xs: float) -> np.ndarray:
        v = np.array(xs, dtype=np.float32)
        return v / np.linalg.norm(v)

    memory = [
        Learnt("q1", "a:1", frozenset({"binari", "ci"}), None, unit(1, 0, 0)),
        Learnt("q2", "a:2", frozenset({"ci", "helm"}), None, unit(0.8, 0.6, 0)),
    ]
    idf = {"binari": 3.0, "ci": 1.0, "helm": 2.0}.get
    by_terms, by_meaning = learned_values(
        memory, frozenset({"binari", "ci"}), unit(1, 0, 0), lambda t: idf(t) or 4.0
    )
    assert by_terms["a:1"] == pytest.approx(1.0)
    assert 0 < by_terms["a:2"] < by_terms["a:1"]
    terms_1, cosine_1 = learned_features(by_terms, by_meaning, "a:1", 0.5)
    terms_2, cosine_2 = learned_features(by_terms, by_meaning, "a:2", 0.5)
    assert terms_2 == 0.0 and cosine_2 == 0.0  # not the closest: nothing lent
    assert terms_1 == pytest.approx(1.0 - by_terms["a:2"])
    assert cosine_1 == pytest.approx((1.0 - 0.8) / 0.5)
    assert term_cosine({"x"}, frozenset({"y"}), lambda t: 1.0) == 0.0


def _with_learned(found: Candidates, key: str, value: float) -> Candidates:
    at = FEATURES.index("learned_terms")
    rows = [
        tuple(value if (k == key and i == at) else v for i, v in enumerate(row))
        for k, row in zip(found.keys, found.values, strict=True)
    ]
    return replace(found, values=rows)


def test_the_gate_reads_what_is_lent_to_the_best_start_only(records: Path, tmp_path: Path) -> None:
    """Lent to the best start, a correction raises its margin; lent to another start that
    stays behind, it leaves the gate's values as they were (it did not make that start the
    best, and must not make the gate doubt the best one)."""
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, records)
        found = consider(g, view_of(g), "How are services released to the cluster?", LEARNING)
    ranked = found.ranked(LEARNING)
    (top, _), (other, _) = ranked[0], ranked[1]
    plain = gate_values(found, ranked, LEARNING)
    behind = _with_learned(found, other, 0.05)
    assert behind.ranked(LEARNING)[0][0] == top
    assert gate_values(behind, behind.ranked(LEARNING), LEARNING) == plain
    ahead = _with_learned(found, top, 0.2)
    margin = GATE_FEATURES.index("margin")
    lifted = gate_values(ahead, ahead.ranked(LEARNING), LEARNING)
    assert lifted[margin] > plain[margin]
