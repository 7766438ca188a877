"""``decisis demo``: the main job of decisis, recorded and answered on a real SQLite file.

Two parts: a decision story recorded through the API (goal, decision, outcome, the decision
replacing it) and read back; then a team's architecture decision records (example records
shipped in ``decisis/data/example-adrs``, copied next to the store so they can be read and
ingested again) asked what stands today.

It leaves nothing behind unless asked: the store and the records live in a temporary folder
removed at the end, or in ``--keep DIR`` (or the store named by ``--store``) to explore
after."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from decisis.cli import adr, ledger, reads
from decisis.cli.state import State, get_state, sqlite_url

if TYPE_CHECKING:
    from decisis.graph import Graph
    from decisis.model import Node

__all__ = [
    "ADR_QUESTIONS",
    "DEMO_ADRS",
    "DEMO_FILE",
    "Story",
    "example_adrs",
    "record_story",
    "register",
]

DEMO_FILE = "decisis-demo.db"
DEMO_ADRS = "decisis-demo-adrs"  # where the example records are copied, beside the store
# The questions the demo asks of the example records: a chain the status line states, one a
# later record's text tells (with --why), and one no record answers.
ADR_QUESTIONS = (
    ("Which CI system builds our services now?", False),
    ("Do we still keep our secrets in Vault?", True),
    ("Which service mesh do we run?", False),
)


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


def example_adrs(into: Path) -> Path:
    """Copy the example ADR folders shipped with decisis into ``into`` (made if missing; files
    already there are overwritten) and return it."""
    import shutil
    from importlib.resources import as_file, files

    with as_file(files("decisis") / "data" / "example-adrs") as shipped:
        shutil.copytree(shipped, into, dirs_exist_ok=True)
    return into


def _fresh_graph_name(url: str) -> str:
    """``demo``, or ``demo-2``, ``demo-3``… when earlier runs used the same store."""
    from decisis.graph import open_store

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


def _emit_json(state: State, story: Story, adrs: Path, *, kept: bool) -> None:
    from decisis.adr import ask, ingest
    from decisis.cli import jsonout
    from decisis.forms import AnswerOut, GoalTreeOut, NodeOut, ReachedOut, StandingOut, VerifyOut

    graph = state.graph
    story_reads = {  # read before the records are ingested, as the printed demo does
        "goals": GoalTreeOut.all_of(graph.goal_trees()),
        "recent": NodeOut.all_of(graph.recent_decisions(5)),
        "current": StandingOut.of(graph.current(story.first.id)).dump(),
        "why": [ReachedOut.of(r).dump() for r in graph.why(story.outcome.id)],
    }
    ingested = ingest(graph, adrs)
    answers = [AnswerOut.of(ask(graph, question)).dump() for question, _ in ADR_QUESTIONS]
    report = graph.verify()
    jsonout.emit(
        {
            "store": state.store_url(),
            "kept": kept,
            "graph": graph.name,
            **story_reads,
            "adrs": {"folder": str(adrs), "ingest": ingested.to_dict(), "answers": answers},
            "verify": VerifyOut.of(report).dump(),
        }
    )
    if not report.ok:
        raise typer.Exit(ledger.EXIT_VERIFY_FAILED)


def _heading(text: str) -> None:
    from decisis.cli.render import console

    console().rule(text, align="left", style="dim")


def _print_story(ctx: typer.Context, state: State, story: Story, adrs: Path, *, kept: bool) -> None:
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
    _heading(f"decisis ingest {adrs}  (a team's decision records)")
    adr.ingest(ctx, [adrs])
    for question, why in ADR_QUESTIONS:
        _heading(f"decisis ask {question!r}" + (" --why" if why else ""))
        adr.ask(ctx, question, why=why)
    _heading("decisis verify")
    ledger.verify(ctx)
    if not kept:
        print_message("Nothing was kept: run `decisis demo --keep DIR` to explore it after.")
        return
    where = f"decisis --store {state.store_url()} --graph {state.graph_name}"
    print_message(f"Explore it: {where} goals", style="bold")
    print_message(f'Ask the records: {where} ask "How long are database backups kept?"')


def demo(
    ctx: typer.Context,
    *,
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            help="Store URL for the demo (default: the global --store, else "
            f"{DEMO_FILE} in --keep DIR, else a temporary file).",
        ),
    ] = None,
    keep: Annotated[
        Path | None,
        typer.Option(
            "--keep",
            help=f"Keep {DEMO_FILE} and the example records ({DEMO_ADRS}) in this folder, "
            "to explore after; without it the demo leaves nothing behind.",
        ),
    ] = None,
) -> None:
    """Record a small decision story on SQLite and show goals, recent, current, why; ingest
    example decision records and ask what stands; verify the ledger.

    Each run records into a fresh graph (demo, demo-2, ...), so it can be repeated on one
    store. Nothing is left behind unless --keep DIR (or --store) says where.
    """
    import tempfile

    state = get_state(ctx)
    with tempfile.TemporaryDirectory(prefix="decisis-demo-") as scratch:
        folder = keep if keep is not None else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        state.store = store or state.store or sqlite_url(folder / DEMO_FILE)
        state.graph_name = _fresh_graph_name(state.store)
        story = record_story(state.graph)
        adrs = example_adrs(folder / DEMO_ADRS)
        if state.json:
            _emit_json(state, story, adrs, kept=keep is not None or store is not None)
        else:
            _print_story(ctx, state, story, adrs, kept=keep is not None or store is not None)
        state.close()  # before the temporary folder goes


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(demo)
