"""The context summary: goals as small trees, recent decisions, None when empty, bounded."""

from __future__ import annotations

import decisis
from decisis.adr.answer.tokens import count_tokens
from decisis.agent import Recorder, build_context


def test_nothing_to_say_is_none(graph: decisis.Graph) -> None:
    assert build_context(graph) is None


def test_goals_with_their_children_then_recent_decisions(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Ship auth", confidence=0.9)
    jwt = graph.record_decision("Use JWT", goal=goal.id, chosen=["JWT"], rejected=["cookies"])
    graph.link(goal.id, graph.add_node("option", "Magic links").id, "rejected")
    graph.add_goal("Old goal", status="completed")
    text = build_context(graph)
    assert text is not None
    short = graph.store.short_ids(graph.name, [goal.id, jwt.id], min_length=13)
    lines = text.splitlines()
    assert lines[:2] == ["## Decision memory", "### Active goals"]
    assert f"- `{short[goal.id]}` Ship auth (active, confidence 0.9)" in lines
    assert f"  - `{short[jwt.id]}` Use JWT (active)" in lines
    assert any(
        line.startswith("  - `") and line.endswith("Magic links [rejected]") for line in lines
    )
    assert "Old goal" not in text
    recent = lines[lines.index("### Recent decisions") + 1 :]
    assert recent == [f"- `{short[jwt.id]}` Use JWT (active)"]


def test_decision_limit_and_the_note_on_what_was_cut(graph: decisis.Graph) -> None:
    for n in range(17):
        graph.record_decision(f"Decision number {n}")
    text = build_context(graph, decision_limit=5)
    assert text is not None
    assert "Decision number 16" in text and "Decision number 11" not in text
    assert text.splitlines()[-1] == "+12 older decisions not shown"


def test_the_token_bound_holds_and_says_what_it_cut(graph: decisis.Graph) -> None:
    for n in range(40):
        graph.add_goal(f"Goal {n} with a fairly long label about the thing it is about")
    for n in range(30):
        graph.record_decision(f"Decision {n} with a long label that takes many tokens")
    text = build_context(graph, decision_limit=30, max_tokens=200)
    assert text is not None
    assert count_tokens(text) <= 200
    assert "more active goals not shown" in text
    assert text.splitlines()[-1] == "+30 older decisions not shown"


def test_run_records_stay_out_of_the_context(graph: decisis.Graph) -> None:
    with Recorder(graph).run(agent="a", role="plan"):
        pass
    assert build_context(graph) is None


def test_work_resting_on_a_replaced_decision_is_listed_until_reaffirmed(
    graph: decisis.Graph,
) -> None:
    old = graph.record_decision("Use JWT tokens")
    job = graph.add_node("action", "Write the token refresh job", parent=old.id)
    new = graph.record_decision("Use server sessions")
    graph.supersede(old.id, new.id)
    text = build_context(graph)
    assert text is not None
    lines = text.splitlines()
    at = lines.index("### Resting on replaced decisions")
    short = graph.store.short_ids(graph.name, [old.id, job.id, new.id], min_length=13)
    assert lines[at + 1] == (
        f"- `{short[job.id]}` Write the token refresh job rests on `{short[old.id]}` Use JWT "
        f"tokens, replaced by `{short[new.id]}` Use server sessions: re-affirm it or supersede it"
    )
    graph.reaffirm(job.id)
    assert "Resting on replaced" not in (build_context(graph) or "")


def test_many_stale_records_stay_within_the_budget(graph: decisis.Graph) -> None:
    old = graph.record_decision("Use JWT tokens")
    for n in range(60):
        graph.add_node("action", f"Token job number {n} that refreshes things", parent=old.id)
    graph.supersede(old.id, graph.record_decision("Use server sessions").id)
    text = build_context(graph, max_tokens=400)
    assert text is not None
    assert count_tokens(text) <= 400
    assert "more resting on replaced decisions not shown" in text
