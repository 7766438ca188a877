"""Commands on work that rests on what no longer stands: stale, reaffirm, check."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from decisis.cli.common import short_ids
from decisis.cli.state import State, get_state

if TYPE_CHECKING:
    from decisis.stale import Stale

__all__ = ["print_found", "register"]


def print_found(state: State, title: str, found: list[Stale]) -> None:
    """Stale dependents as a list (``--json``: their JSON forms) or as lines."""
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import StaleOut

        emit(StaleOut.all_of(found))
        return
    from decisis.cli.render import print_stale

    ids = [n.id for item in found for n in (item.node, item.premise, *item.standing)]
    print_stale(title, found, short_ids(state.graph, ids))


def stale(
    ctx: typer.Context,
    *,
    ref: Annotated[
        str | None, typer.Argument(metavar="ID", help="Only this node's replaced premises.")
    ] = None,
    premise: Annotated[
        str | None,
        typer.Option("--premise", help="Only what rests on this replaced decision (or its chain)."),
    ] = None,
) -> None:
    """Records resting on a replaced decision, with what stands now in its place.

    A record rests on a decision it requires, one that enables it or is a precedent for it (a
    decision), or one that led to it (an action). Each stays listed until it is re-affirmed
    (`decisis reaffirm`) or superseded."""
    state = get_state(ctx)
    print_found(state, "resting on a replaced decision", state.graph.stale(ref, premise=premise))


def reaffirm(
    ctx: typer.Context,
    *,
    ref: Annotated[str, typer.Argument(metavar="ID", help="The record that still holds.")],
    premise: Annotated[
        str | None,
        typer.Option("--premise", help="Only for this replaced premise (default: all of them)."),
    ] = None,
    note: Annotated[str | None, typer.Option("--note", help="Why it still holds.")] = None,
) -> None:
    """Say that a record still holds with what replaced its premise: one ledger event.

    It is listed by `decisis stale` again if what stands now is replaced in turn."""
    state = get_state(ctx)
    node = state.graph.reaffirm(ref, premise=premise, note=note)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import NodeOut

        emit(NodeOut.of(node).dump())
        return
    from decisis.cli.render import print_change

    print_change("re-affirmed", node, short_ids(state.graph, [node.id]))


def check(
    ctx: typer.Context,
    *,
    plan: Annotated[
        str,
        typer.Argument(
            metavar="PLAN",
            help="The plan: steps as lines, numbered or bulleted items, or "
            "sentences; - reads it from standard input.",
        ),
    ],
) -> None:
    """Check a plan against what stands: what each step uses that was replaced or turned down.

    For each step, the replaced decisions it leans on and what standing decisions turned down
    that it uses, each with what stands now and why; nothing against a step that goes
    against nothing."""
    import sys

    state = get_state(ctx)
    text = sys.stdin.read() if plan == "-" else plan
    checked = state.graph.check_plan(text)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import PlanCheckOut

        emit(PlanCheckOut.of(checked).dump())
        return
    from decisis.cli.render import print_plan_check

    print_plan_check(checked)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(stale)
    app.command()(reaffirm)
    app.command()(check)
