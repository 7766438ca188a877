"""``model-judged``: a model asked which record replaces which, over real HTTP to a local
scripted model server (``tests/got/fake_server.py``); off unless configured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.adr import forget_model, ingest, use_model
from decisis.adr.link.rules import rules
from decisis.adr.link.rules.model import MODEL_RULE, verdict
from decisis.adr.link.view import view_of
from decisis.got.clients import make_client
from decisis.model import LinkState
from tests.got.fake_server import Reply, serve, user_text

HEAD = "# {n}. {t}\n\nDate: 202{n}-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\n{d}\n"


def _team(tmp_path: Path) -> Path:
    team = tmp_path / "team"
    team.mkdir()
    records = [
        ("Scale nodes with Fargate", "Worker pods run on Fargate; node scaling is left to AWS."),
        ("Scale nodes with Karpenter", "Karpenter scales the worker nodes of every cluster."),
        ("Name clusters", "Clusters are named after their environment."),
    ]
    for n, (title, decision) in enumerate(records, start=1):
        (team / f"00{n}-r.md").write_text(HEAD.format(n=n, t=title, d=decision))
    return team


def _judge(body: dict[str, Any], attempt: int) -> Reply:
    text = user_text(body)
    earlier, later = text.split("Later record:")
    if "Fargate" in earlier and "Karpenter" in later:
        return Reply("REPLACES: Karpenter now scales the nodes Fargate did.")
    return Reply("NO, it decides something else.")


@pytest.fixture(autouse=True)
def _off_again() -> Any:
    yield
    forget_model()


def test_the_model_is_asked_and_its_replacement_is_a_candidate(tmp_path: Path) -> None:
    assert MODEL_RULE not in {r.name for r in rules()}  # off by default
    with serve(_judge) as server, decisis.open("memory://") as g:
        rule = use_model(make_client("openai", "scripted", base_url=server.openai_url))
        ingest(g, _team(tmp_path))
        links = [e for e in view_of(g).links if e.metadata.get("rule") == MODEL_RULE]
        assert rule.asked == len(server.requests) > 0 and rule.failed == 0
    assert [(e.metadata["old"], e.metadata["new"], e.state) for e in links] == [
        ("team:001", "team:002", LinkState.CANDIDATE)
    ]
    assert "Karpenter now scales" in (links[0].rationale or "")


def test_a_failing_model_proposes_nothing_and_the_ingest_goes_on(tmp_path: Path) -> None:
    with serve(lambda body, attempt: Reply(status=500)) as server, decisis.open("memory://") as g:
        rule = use_model(make_client("openai", "scripted", base_url=server.openai_url))
        report = ingest(g, _team(tmp_path))
        assert len(report.added) == 3 and rule.failed == rule.asked > 0
        assert not [e for e in view_of(g).links if e.metadata.get("rule") == MODEL_RULE]


def test_links_a_model_proposed_stay_when_it_is_turned_off(tmp_path: Path) -> None:
    team = _team(tmp_path)
    with serve(_judge) as server, decisis.open("memory://") as g:
        use_model(make_client("openai", "scripted", base_url=server.openai_url))
        ingest(g, team)
        forget_model()
        (team / "003-r.md").write_text(HEAD.format(n=3, t="Name clusters", d="By environment."))
        report = ingest(g, team)
        assert report.links_removed == 0
        assert [e for e in view_of(g).links if e.metadata.get("rule") == MODEL_RULE]


@pytest.mark.parametrize(
    ("said", "meant"),
    [("REPLACES.", "full"), ("Partly: the scaling part", "partial"), ("no", "none"), ("?", None)],
)
def test_what_the_model_said(said: str, meant: str | None) -> None:
    assert verdict(said) == meant


def test_ingest_model_on_the_command_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from decisis.cli.app import app

    store = f"sqlite:///{tmp_path / 'm.db'}"
    with serve(_judge) as server:
        result = CliRunner().invoke(
            app, ["--store", store, "ingest", str(_team(tmp_path)), "--model", server.openai_url]
        )
    assert result.exit_code == 0, result.output
    with decisis.open(store) as g:
        assert [e for e in view_of(g).links if e.metadata.get("rule") == MODEL_RULE]
    assert MODEL_RULE not in {r.name for r in rules()}  # only for that ingest


def _rerank(body: dict[str, Any], attempt: int) -> Reply:
    """A scripted model that picks the Karpenter record whenever it is shown."""
    text = user_text(body)
    return Reply("team:002" if "team:002" in text else "NONE")


def test_a_reranker_picks_among_the_best_starts(tmp_path: Path) -> None:
    from decisis.adr import ask, forget_reranker, use_reranker

    question = "How are the worker nodes of our clusters scaled?"
    with decisis.open("memory://") as g:
        ingest(g, _team(tmp_path))
        plain = ask(g, question)
        with serve(_rerank) as server:
            reranker = use_reranker(make_client("openai", "scripted", base_url=server.openai_url))
            try:
                picked = ask(g, question)
            finally:
                forget_reranker()
    assert reranker.asked == 1 and reranker.failed == 0
    assert picked.evidence["start"] == "team:002" and picked.evidence["votes"]["model"] == 1
    assert "model" not in plain.evidence.get("votes", {})
    assert reranker.top == 5 and "team:001" in user_text(server.requests[0])  # shown the best


def test_a_reranker_that_fails_changes_nothing(tmp_path: Path) -> None:
    from decisis.adr import ask, forget_reranker, use_reranker

    question = "How are the worker nodes of our clusters scaled?"
    with decisis.open("memory://") as g:
        ingest(g, _team(tmp_path))
        plain = ask(g, question)
        with serve(lambda body, attempt: Reply(status=503)) as server:
            reranker = use_reranker(make_client("openai", "scripted", base_url=server.openai_url))
            try:
                again = ask(g, question)
            finally:
                forget_reranker()
    assert reranker.failed == 1 and again.answer == plain.answer
