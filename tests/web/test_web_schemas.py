"""The API's response models describe the forms it sends, field for field.

Each form built from real values (a SQLite graph, the ADR corpus in data/ and its development
questions, a correction and its undo) must validate against its model, and dumping it
through the model must give the same data back: the API sends what the CLI's ``--json``
prints. A field the model does not name, or one it lacks, is refused."""

from __future__ import annotations

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
    event_dict,
    goal_tree_dict,
    hit_dict,
    reached_dict,
    standing_dict,
    verify_dict,
)
from decisis.web.schemas import (
    AnswerOut,
    CorrectionOut,
    EdgeOut,
    EventOut,
    GoalTreeOut,
    HitOut,
    LearnedOut,
    NodeDetail,
    NodeOut,
    ReachedOut,
    StandingOut,
    ToolSpecOut,
    VerifyOut,
)

CORPUS = Path(__file__).resolve().parents[2] / "data" / "adr-corpus"


def _same_through(model: type[BaseModel], form: dict[str, Any]) -> None:
    """``form`` validates as ``model`` and comes back out of it unchanged (as the API sends
    it: optional fields only where the form has them)."""
    dumped = model.model_validate(form).model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dumped == form


@pytest.fixture
def graph(tmp_path: Path) -> decisis.Graph:
    graph = decisis.open(f"sqlite:///{tmp_path / 'g.db'}")
    goal = graph.add_goal("Ship the payments service")
    old = graph.record_decision("Use JWT tokens", goal=goal.id, rationale="Stateless")
    new = graph.record_decision("Use server sessions", goal=goal.id, confidence=0.8)
    graph.supersede(old.id, new.id, rationale="Sessions can be revoked")
    graph.record_decision("Log as JSON", metadata={"nested": {"list": [1, "two", None]}})
    return graph


def test_graph_forms_match_their_models(graph: decisis.Graph) -> None:
    nodes = graph.nodes(limit=100)
    old = next(n for n in nodes if n.label == "Use JWT tokens")
    goal = next(n for n in nodes if n.label == "Ship the payments service")
    for node in nodes:
        _same_through(NodeOut, node.to_dict())
    edges = graph.edges(old.id)
    for edge in edges:
        _same_through(EdgeOut, edge.to_dict())
    _same_through(
        NodeDetail,
        {
            "node": old.to_dict(),
            "out": [e.to_dict() for e in edges if e.source == old.id],
            "in": [e.to_dict() for e in edges if e.target == old.id],
            "history": [event_dict(e) for e in graph.history(old.id)],
        },
    )
    for event in graph.events():
        _same_through(EventOut, event_dict(event))
    _same_through(StandingOut, standing_dict(graph.current(old.id)))
    for tree in graph.goal_trees():
        _same_through(GoalTreeOut, goal_tree_dict(tree))
    for reached in [*graph.why(old.id), *graph.impact(goal.id)]:
        _same_through(ReachedOut, reached_dict(reached))
    for hit in graph.search("JWT"):
        _same_through(HitOut, hit_dict(hit))
    _same_through(VerifyOut, verify_dict(graph.verify()))
    for spec in TOOLS:
        _same_through(
            ToolSpecOut,
            {"name": spec.name, "description": spec.description, "input_schema": spec.schema},
        )


def test_every_answer_on_the_corpus_matches_its_model(tmp_path: Path) -> None:
    """Chains, partial and named links, excerpts, abstentions, records asked by number."""
    questions = [q.question for q in load_questions(CORPUS.parent / "questions-dev.jsonl")]
    questions += ["Is ADR 22 still in force?", "Is cloud-platform:003 still in force?", "?!"]
    with decisis.open(f"sqlite:///{tmp_path / 'corpus.db'}") as graph:
        ingest(graph, CORPUS)
        answers = [ask(graph, q).to_dict() for q in questions]
        for answer in answers:
            _same_through(AnswerOut, answer)
        assert any(a["replaced"] for a in answers) and any(a["excerpt"] for a in answers)
        assert any(a["answer"] is None for a in answers)
        fixed = correct(graph, questions[0], "cloud-platform:040")
        _same_through(CorrectionOut, fixed.to_dict())
        _same_through(LearnedOut, learned(graph))
        _same_through(CorrectionOut, undo(graph, questions[0]).to_dict())
        report = learned(graph)
        assert any(r["moves"] for r in report["rules"].values())
        _same_through(LearnedOut, report)


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
