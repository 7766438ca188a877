"""The JSON forms (``decisis.forms``) hold what the values they show hold, field for field.

Each form built from real values (a SQLite graph, the ADR corpus in data/ and its development
questions, a correction and its undo) must give the value's own data and survive a trip
through its model: the API sends what the CLI's ``--json`` prints, from one model. A field
the model does not name, or one it lacks, is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError

import decisis
from decisis.adr.answer import ask
from decisis.adr.learn.corrections import correct, undo
from decisis.adr.learn.learned import learned
from decisis.adr.link.ingest import ingest
from decisis.agent import TOOLS
from decisis.evaluation import load_questions
from decisis.forms import (
    AnswerOut,
    CorrectionOut,
    CurrentOut,
    EdgeOut,
    ErrorBody,
    EventOut,
    GoalTreeOut,
    HitOut,
    LearnedOut,
    NodeDetail,
    NodeOut,
    PlanCheckOut,
    ReachedOut,
    StaleOut,
    StandingOut,
    ToolSpecOut,
    VerifyOut,
)

CORPUS = Path(__file__).resolve().parents[2] / "data" / "adr-corpus"


def _same_through(model: type[BaseModel], form: dict[str, Any]) -> None:
    """``form`` validates as ``model`` and comes back out of it unchanged, in its order
    (as the CLI prints it: optional fields only where the form has them)."""
    dumped = model.model_validate(form).model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert json.dumps(dumped) == json.dumps(form)


@pytest.fixture
def graph(tmp_path: Path) -> decisis.Graph:
    graph = decisis.open(f"sqlite:///{tmp_path / 'g.db'}")
    goal = graph.add_goal("Ship the payments service")
    old = graph.record_decision("Use JWT tokens", goal=goal.id, rationale="Stateless")
    new = graph.record_decision("Use server sessions", goal=goal.id, confidence=0.8)
    signing = graph.record_decision("Sign tokens with RS256")
    graph.link(signing.id, old.id, "requires")
    graph.supersede(old.id, new.id, rationale="Sessions can be revoked")
    graph.record_decision("Log as JSON", metadata={"nested": {"list": [1, "two", None]}})
    return graph


def test_graph_forms_match_their_models(graph: decisis.Graph) -> None:
    """Each form gives the value's own data (``to_dict``) for the records it holds, and
    survives a trip through its model."""
    nodes = graph.nodes(limit=100)
    old = next(n for n in nodes if n.label == "Use JWT tokens")
    goal = next(n for n in nodes if n.label == "Ship the payments service")
    for node in nodes:
        assert json.dumps(NodeOut.of(node).dump()) == json.dumps(node.to_dict())
    edges = graph.edges(old.id)
    for edge in edges:
        assert json.dumps(EdgeOut.of(edge).dump()) == json.dumps(edge.to_dict())
    detail = NodeDetail.of(old, edges, graph.history(old.id)).dump()
    assert [e["id"] for e in detail["out"] + detail["in"]] == [
        e.id for e in edges if e.source == old.id
    ] + [e.id for e in edges if e.target == old.id]
    _same_through(NodeDetail, detail)
    for event in graph.events():
        _same_through(EventOut, EventOut.of(event).dump())
    standing = graph.current(old.id)
    _same_through(StandingOut, StandingOut.of(standing).dump())
    stale = graph.stale(premise=old.id)
    assert stale
    current = CurrentOut.with_stale(standing, stale).dump()
    assert current["stale"] == StaleOut.all_of(stale)
    assert current["stale"][0]["premise"] == old.to_dict()
    for tree in graph.goal_trees():
        _same_through(GoalTreeOut, GoalTreeOut.of(tree).dump())
    for reached in [*graph.why(old.id), *graph.impact(goal.id)]:
        assert ReachedOut.of(reached).dump()["node"] == reached.node.to_dict()
    for hit in graph.search("JWT"):
        _same_through(HitOut, HitOut.of(hit).dump())
    checked = PlanCheckOut.of(graph.check_plan("1. Use JWT tokens\n2. Log as JSON")).dump()
    assert checked["findings"] == sum(len(s["findings"]) for s in checked["steps"]) > 0
    _same_through(VerifyOut, VerifyOut.of(graph.verify()).dump())
    for spec in TOOLS:
        _same_through(
            ToolSpecOut,
            {"name": spec.name, "description": spec.description, "input_schema": spec.schema},
        )


def test_every_answer_on_the_corpus_matches_its_model(tmp_path: Path) -> None:
    """Chains, partial and named links, excerpts, abstentions, records asked by number:
    each answer's form holds the answer's data (``to_dict``) and nothing else."""
    questions = [q.question for q in load_questions(CORPUS.parent / "questions-dev.jsonl")]
    questions += ["Is ADR 22 still in force?", "Is cloud-platform:003 still in force?", "?!"]
    with decisis.open(f"sqlite:///{tmp_path / 'corpus.db'}") as graph:
        ingest(graph, CORPUS)
        answers = [ask(graph, q) for q in questions]
        for answer in answers:
            assert AnswerOut.of(answer).dump() == answer.to_dict()
        forms = [answer.to_dict() for answer in answers]
        assert any(a["replaced"] for a in forms) and any(a["excerpt"] for a in forms)
        assert any(a["answer"] is None for a in forms)
        fixed = correct(graph, questions[0], "cloud-platform:040")
        assert CorrectionOut.of(fixed).dump() == fixed.to_dict()
        _same_through(LearnedOut, learned(graph))
        undone = undo(graph, questions[0])
        assert CorrectionOut.of(undone).dump() == undone.to_dict()
        report = learned(graph)
        assert any(r["moves"] for r in report["rules"].values())
        _same_through(LearnedOut, report)


def test_every_error_body_is_the_documented_one() -> None:
    """``decisis.errors.error_body`` gives what ``ErrorBody`` tells the OpenAPI document,
    no field more or less, with a field and what it allows or without."""
    from decisis.errors import error_body

    for error in (
        decisis.InvalidInput("limit", "is 0", ">= 1"),
        decisis.NotFound("node", "0abc", "default"),
        decisis.ToolsDisabled("no store is configured"),
        RuntimeError("a bug"),
    ):
        body = error_body(error)
        assert ErrorBody.model_validate(body).model_dump() == body


def test_a_field_the_model_does_not_name_or_lacks_is_refused(graph: decisis.Graph) -> None:
    form = graph.nodes(limit=1)[0].to_dict()
    with pytest.raises(ValidationError, match="extra"):
        NodeOut.model_validate({**form, "secret": "x"})
    form.pop("label")
    with pytest.raises(ValidationError, match="label"):
        NodeOut.model_validate(form)
    with pytest.raises(ValidationError, match="type"):
        NodeOut.model_validate({**graph.nodes(limit=1)[0].to_dict(), "type": "banana"})


def test_the_text_pattern_reads_alike_in_python_pydantic_and_json_schema() -> None:
    """A question the OpenAPI document calls valid is one ``check_question`` takes: text
    that ``str.strip`` leaves something of, without NUL. Python, pydantic (Rust) and JSON
    Schema (ECMA) disagree on what ``\\s`` is, so the pattern spells white space out."""
    import re

    from decisis.web.site import TEXT_PATTERN

    class Text(BaseModel):
        text: str = Field(pattern=TEXT_PATTERN)

    assert "\\s" not in TEXT_PATTERN
    python = re.compile(TEXT_PATTERN)
    for code in [*range(0x3100), 0xFEFF, 0x1F600, 0x10FFFF]:
        for text in (chr(code), f" {chr(code)}\t"):
            wanted = bool(text.strip()) and "\x00" not in text
            assert bool(python.search(text)) is wanted, hex(code)
            try:
                Text(text=text)
                taken = True
            except ValidationError:
                taken = False
            assert taken is wanted, hex(code)
