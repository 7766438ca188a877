"""Commands that answer questions: show, provenance, current, why, impact, ancestors,
descendants, path, goals, recent, search, at."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from decisis.cli.common import DepthOpt, EdgeTypesOpt, IdArg, LimitOpt, short_ids
from decisis.cli.state import State, get_state
from decisis.errors import NotFound
from decisis.graph import BELIEVED, DEFAULT_MAX_DEPTH

if TYPE_CHECKING:
    from decisis.graph import Graph, Reached
    from decisis.model import Edge

__all__ = ["register"]

BelieveOpt = Annotated[
    float,
    typer.Option(
        "--believe",
        help="Also follow replacements a rule proposed with at least this confidence (0 to 1).",
    ),
]


def _print_reached(state: State, title: str, reached: list[Reached]) -> None:
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import ReachedOut

        emit([ReachedOut.of(r).dump() for r in reached])
        return
    from decisis.cli.render import print_reached

    ids = [r.node.id for r in reached] + [r.via for r in reached]
    print_reached(title, reached, short_ids(state.graph, ids))


def show(ctx: typer.Context, *, ref: IdArg) -> None:
    """A node (or edge) with its edges in and out and its ledger history."""
    state = get_state(ctx)
    graph = state.graph
    try:
        node = graph.get(ref)
    except NotFound:
        _show_edge(state, ref)
        return
    edges, history = graph.edges(node.id), graph.history(node.id)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import NodeDetail

        emit(NodeDetail.of(node, edges, history).dump())
        return
    from decisis.cli.render import print_edges, print_events, print_node

    short = short_ids(graph, [node.id, *(e.id for e in edges), *_ends(edges)])
    print_node(node, short)
    print_edges("edges", edges, short)
    print_events("history", history, short)


def _ends(edges: list[Edge]) -> list[str]:
    return [end for edge in edges for end in (edge.source, edge.target)]


def _show_edge(state: State, ref: str) -> None:
    edge = state.graph.get_edge(ref)
    history = state.graph.history(edge.id)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import EdgeDetail

        emit(EdgeDetail.of(edge, history).dump())
        return
    from decisis.cli.render import print_edges, print_events

    short = short_ids(state.graph, [edge.id, edge.source, edge.target])
    print_edges("edge", [edge], short)
    print_events("history", history, short)


def provenance(ctx: typer.Context, *, ref: IdArg) -> None:
    """Who or what made a node or edge, how and from what source: its provenance entries,
    oldest first (agent and agent type, role, source with git blob and commit, confidence)."""
    state = get_state(ctx)
    entries = state.graph.provenance(ref)
    if state.json:
        from decisis.cli.jsonout import emit

        emit([entry.to_dict() for entry in entries])
        return
    from decisis.cli.render import print_provenance

    print_provenance(entries, short_ids(state.graph, [e.entity for e in entries]))


def current(ctx: typer.Context, *, ref: IdArg, believe: BelieveOpt = BELIEVED) -> None:
    """The decision that stands now in place of a node, and the supersession chain to it.

    Stated and confirmed replacements count, and a rule's proposals from --believe up.
    Records that rest on a replaced one and were not re-affirmed are listed too.
    """
    state = get_state(ctx)
    standing = state.graph.current(ref, believe=believe)
    found = state.graph.stale(premise=standing.node.id) if standing.superseded else []
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import CurrentOut

        emit(CurrentOut.with_stale(standing, found).dump())
        return
    from decisis.cli.render import print_stale, print_standing

    ids = [node.id for chain in standing.chains for node in chain]
    ids += [n.id for item in found for n in (item.node, item.premise, *item.standing)]
    short = short_ids(state.graph, ids)
    print_standing(standing, short)
    if found:
        print_stale("resting on what it replaced", found, short)


def why(ctx: typer.Context, *, ref: IdArg, depth: DepthOpt = DEFAULT_MAX_DEPTH) -> None:
    """What led to a node: its ancestors along causal edges, nearest first."""
    state = get_state(ctx)
    _print_reached(state, "why", state.graph.why(ref, max_depth=depth))


def impact(ctx: typer.Context, *, ref: IdArg, depth: DepthOpt = DEFAULT_MAX_DEPTH) -> None:
    """What a node led to: its descendants along causal edges, nearest first."""
    state = get_state(ctx)
    _print_reached(state, "impact", state.graph.impact(ref, max_depth=depth))


def ancestors(
    ctx: typer.Context,
    *,
    ref: IdArg,
    depth: DepthOpt = DEFAULT_MAX_DEPTH,
    edge_type: EdgeTypesOpt = None,
) -> None:
    """Every node with a path to this one, along any edges (or only --edge-type ones)."""
    state = get_state(ctx)
    reached = state.graph.ancestors(ref, edge_types=edge_type or None, max_depth=depth)
    _print_reached(state, "ancestors", reached)


def descendants(
    ctx: typer.Context,
    *,
    ref: IdArg,
    depth: DepthOpt = DEFAULT_MAX_DEPTH,
    edge_type: EdgeTypesOpt = None,
) -> None:
    """Every node this one has a path to, along any edges (or only --edge-type ones)."""
    state = get_state(ctx)
    reached = state.graph.descendants(ref, edge_types=edge_type or None, max_depth=depth)
    _print_reached(state, "descendants", reached)


def path(
    ctx: typer.Context,
    *,
    source: Annotated[str, typer.Argument(help="Id of the node to start from.")],
    target: Annotated[str, typer.Argument(help="Id of the node to reach.")],
    depth: DepthOpt = DEFAULT_MAX_DEPTH,
    edge_type: EdgeTypesOpt = None,
) -> None:
    """A shortest directed path from SOURCE to TARGET (nothing when there is none)."""
    state = get_state(ctx)
    nodes = state.graph.path_between(source, target, edge_types=edge_type or None, max_depth=depth)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import NodeOut

        emit(NodeOut.all_of(nodes))
        return
    from decisis.cli.render import print_path

    print_path(nodes, short_ids(state.graph, [n.id for n in nodes]))


def _goals_data(graph: Graph) -> list[dict[str, object]]:
    from decisis.forms import GoalTreeOut

    return GoalTreeOut.all_of(graph.goal_trees())


def _print_goals(graph: Graph, namer: Graph) -> None:
    """Goal trees of ``graph``, ids shortened among the ids of ``namer``."""
    from decisis.cli.render import print_goal_trees

    trees = graph.goal_trees()
    ids = [t.goal.id for t in trees] + [n.id for t in trees for _, n in t.children]
    print_goal_trees(trees, short_ids(namer, ids))


def _print_recent(graph: Graph, namer: Graph, limit: int) -> None:
    from decisis.cli.render import print_nodes

    nodes = graph.recent_decisions(limit)
    print_nodes("recent decisions", nodes, short_ids(namer, [n.id for n in nodes]))


def list_nodes(
    ctx: typer.Context,
    *,
    node_type: Annotated[
        list[str] | None, typer.Option("--type", help="Only these node types (repeat).")
    ] = None,
    status: Annotated[
        list[str] | None, typer.Option("--status", help="Only these statuses (repeat).")
    ] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="Only nodes this agent recorded.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", help="Only nodes recorded at or after this ISO 8601 time."),
    ] = None,
    tombstoned: Annotated[
        bool, typer.Option("--tombstoned", help="Include tombstoned nodes.")
    ] = False,
    oldest_first: Annotated[
        bool, typer.Option("--oldest-first", help="Oldest first (default: newest first).")
    ] = False,
    limit: LimitOpt = 50,
) -> None:
    """Nodes of the graph with filters, newest first: every status, superseded ones too."""
    from decisis.errors import InvalidInput
    from decisis.model import parse_time

    state = get_state(ctx)
    if isinstance(limit, bool) or limit < 1:
        raise InvalidInput("limit", f"{limit!r} is not a positive whole number", ">= 1")
    after = parse_time(since, "since") if since is not None else None
    found = state.graph.nodes(
        types=node_type or None,
        statuses=status or None,
        newest_first=not oldest_first,
        include_tombstoned=tombstoned,
    )
    nodes = [
        n
        for n in found
        if (agent is None or n.agent == agent) and (after is None or n.recorded_at >= after)
    ][:limit]
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import NodeOut

        emit(NodeOut.all_of(nodes))
        return
    from decisis.cli.render import print_nodes

    print_nodes("nodes", nodes, short_ids(state.graph, [n.id for n in nodes]))


def goals(ctx: typer.Context) -> None:
    """Active goals, each with its immediate children (options marked chosen or rejected)."""
    state = get_state(ctx)
    if state.json:
        from decisis.cli.jsonout import emit

        emit(_goals_data(state.graph))
        return
    _print_goals(state.graph, state.graph)


def recent(ctx: typer.Context, *, limit: LimitOpt = 5) -> None:
    """The most recent decisions, newest first."""
    state = get_state(ctx)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import NodeOut

        emit(NodeOut.all_of(state.graph.recent_decisions(limit)))
        return
    _print_recent(state.graph, state.graph, limit)


def search(
    ctx: typer.Context,
    *,
    query: Annotated[str, typer.Argument(help="Words to look for in labels and rationale.")],
    limit: LimitOpt = 10,
) -> None:
    """Full-text search over labels and rationale, best match first."""
    state = get_state(ctx)
    hits = state.graph.search(query, limit=limit)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import HitOut

        emit([HitOut.of(hit).dump() for hit in hits])
        return
    from decisis.cli.render import print_hits

    print_hits(hits, short_ids(state.graph, [hit.node.id for hit in hits]))


def precedents(
    ctx: typer.Context,
    *,
    text: Annotated[str, typer.Argument(help="The situation, in your own words.")],
    k: Annotated[int, typer.Option("--k", "-k", min=1, max=100, help="At most this many.")] = 5,
    node_type: Annotated[
        list[str] | None,
        typer.Option("--type", help="Node types to search (repeat; default: decision)."),
    ] = None,
    no_records: Annotated[
        bool, typer.Option("--no-records", help="Leave out decisions ingested from ADR files.")
    ] = False,
) -> None:
    """Decisions closest to a situation by meaning and words: how was this decided before?"""
    state = get_state(ctx)
    found = state.graph.precedents(text, k=k, types=node_type, records=not no_records)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import PrecedentOut

        emit([PrecedentOut.of(p).dump() for p in found])
        return
    from decisis.cli.render import print_precedents

    print_precedents(found, short_ids(state.graph, [p.node.id for p in found]))


def at(
    ctx: typer.Context,
    *,
    timestamp: Annotated[
        str, typer.Argument(help="ISO 8601 time, e.g. 2026-11-01 or 2026-11-01T12:00Z (UTC).")
    ],
    limit: LimitOpt = 5,
    nodes: Annotated[
        bool, typer.Option("--nodes", help="List every node of that view instead.")
    ] = False,
) -> None:
    """The graph as it stood at TIMESTAMP: its active goals and recent decisions, or its nodes."""
    state = get_state(ctx)
    with state.graph.at(timestamp) as view:
        if state.json:
            _emit_view(view, limit, nodes)
        else:
            _print_view(view, state.graph, limit, nodes)


def _emit_view(view: Graph, limit: int, all_nodes: bool) -> None:
    from decisis.cli.jsonout import emit
    from decisis.forms import AtNodesOut, AtOut

    emit(AtNodesOut.of(view).dump() if all_nodes else AtOut.of(view, limit).dump())


def _print_view(view: Graph, namer: Graph, limit: int, all_nodes: bool) -> None:
    """The view's goals and recent decisions (or all its nodes), ids as ``namer`` shortens them."""
    from decisis.cli.render import print_message, print_nodes

    assert view.as_of is not None
    print_message(f"as of {view.as_of:%Y-%m-%d %H:%M:%S} UTC", style="bold")
    if all_nodes:
        everything = view.nodes()
        print_nodes("nodes", everything, short_ids(namer, [n.id for n in everything]))
        return
    _print_goals(view, namer)
    _print_recent(view, namer, limit)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    for command in (
        show,
        provenance,
        current,
        why,
        impact,
        ancestors,
        descendants,
        path,
        goals,
        recent,
    ):
        app.command()(command)
    app.command("list")(list_nodes)
    app.command()(search)
    app.command()(precedents)
    app.command()(at)
