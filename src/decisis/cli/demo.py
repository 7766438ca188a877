"""``decisis demo``: the main job of decisis, recorded and answered on a real SQLite file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from decisis.cli import ledger, reads
from decisis.cli.state import State, get_state, sqlite_url

if TYPE_CHECKING:
    from decisis.graph import Graph
    from decisis.model import Node

__all__ = ["DEMO_FILE", "Story", "record_story", "register"]

DEMO_FILE = "decisis-demo.db"


@dataclass(frozen=True, slots=True)
class Story:
    """The nodes of the demo story that the demo asks questions about."""

    goal: Node
    first: Node  # the decision later superseded
    second: Node  # the decision that stands
    outcome: Node


def record_story(graph: Graph) -> Story:
    """A goal, a decision with options weighed, what came of it, and the decision replacing it."""
    goal = graph.add_goal(
        "Authenticate users of the public API",
        confidence=0.9,
        rationale="Partners need programmatic access by Q1",
    )
    jwt = graph.record_decision(
        "Use JWT access tokens",
        goal=goal.id,
        chosen=["Signed JWTs with a 15-minute expiry"],
        rejected=["Server-side sessions", "Long-lived API keys"],
        rationale="Stateless: no session store to run",
        confidence=0.7,
    )
    action = graph.add_node("action", "Issue JWTs from the auth service", parent=jwt.id)
    outcome = graph.record_outcome(
        "A leaked token stayed usable for 15 minutes",
        decision=action.id,
        rationale="Incident review: a JWT cannot be revoked before it expires",
    )
    sessions = graph.record_decision(
        "Use server-side sessions in Redis",
        goal=goal.id,
        chosen=["Redis sessions, revoked instantly on logout or incident"],
        rationale="Revocation within seconds matters more than statelessness",
        confidence=0.85,
    )
    graph.link(outcome.id, sessions.id, "influenced", rationale="the incident prompted the change")
    graph.supersede(jwt.id, sessions.id, rationale="Sessions can be revoked at once; JWTs cannot")
    return Story(goal, jwt, sessions, outcome)


def _fresh_graph_name(url: str) -> str:
    """``demo``, or ``demo-2``, ``demo-3``… when earlier runs used the same store."""
    from decisis.stores import open_store

    store = open_store(url)
    try:
        taken = set(store.graphs())
    finally:
        store.close()
    name, number = "demo", 1
    while name in taken:
        number += 1
        name = f"demo-{number}"
    return name


def _emit_json(state: State, story: Story) -> None:
    from decisis import forms
    from decisis.cli import jsonout

    graph = state.graph
    report = graph.verify()
    jsonout.emit(
        {
            "store": state.store_url(),
            "graph": graph.name,
            "goals": [forms.goal_tree_dict(tree) for tree in graph.goal_trees()],
            "recent": forms.nodes_list(graph.recent_decisions(5)),
            "current": forms.standing_dict(graph.current(story.first.id)),
            "why": [forms.reached_dict(r) for r in graph.why(story.outcome.id)],
            "verify": forms.verify_dict(report),
        }
    )
    if not report.ok:
        raise typer.Exit(ledger.EXIT_VERIFY_FAILED)


def _heading(text: str) -> None:
    from decisis.cli.render import console

    console().rule(text, align="left", style="dim")


def _print_story(ctx: typer.Context, state: State, story: Story) -> None:
    from decisis.cli.render import print_message

    print_message(f"Recorded the demo story in graph {state.graph_name!r} of {state.store_url()}")
    _heading("decisis goals")
    reads.goals(ctx)
    _heading("decisis recent")
    reads.recent(ctx)
    _heading(f"decisis current  (what stands instead of {story.first.label!r}?)")
    reads.current(ctx, ref=story.first.id)
    _heading(f"decisis why  (what led to {story.outcome.label!r}?)")
    reads.why(ctx, ref=story.outcome.id)
    _heading("decisis verify")
    ledger.verify(ctx)
    print_message(
        f"Explore it: decisis --store {state.store_url()} --graph {state.graph_name} goals",
        style="bold",
    )


def demo(
    ctx: typer.Context,
    *,
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            help=f"Store URL for the demo (default: the global --store, else ./{DEMO_FILE}).",
        ),
    ] = None,
) -> None:
    """Record a small decision story on SQLite and show goals, recent, current, why and verify.

    Each run records into a fresh graph (demo, demo-2, ...), so it can be repeated.
    """
    state = get_state(ctx)
    state.store = store or state.store or sqlite_url(Path.cwd() / DEMO_FILE)
    state.graph_name = _fresh_graph_name(state.store)
    story = record_story(state.graph)
    if state.json:
        _emit_json(state, story)
    else:
        _print_story(ctx, state, story)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(demo)
