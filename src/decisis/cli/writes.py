"""Commands that change the graph: init, add, link, update, supersede, judge, tombstone."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from decisis.cli.common import EDGE_TYPES, NODE_TYPES, STATUSES, IdArg, parse_json_object, short_ids
from decisis.cli.state import STORE_DIR, STORE_FILE, State, get_state, sqlite_url
from decisis.errors import InvalidInput
from decisis.model import NodeType
from decisis.model.validation import check_enum

if TYPE_CHECKING:
    from decisis.model import Edge, Node

__all__ = ["register"]

TypeArg = Annotated[str, typer.Argument(metavar="TYPE", help=f"Node type: {NODE_TYPES}.")]
LabelArg = Annotated[str, typer.Argument(help="A short label, at most 500 characters.")]
ParentOpt = Annotated[
    str | None, typer.Option("--parent", "-p", help="Id of the node this one follows from.")
]
EdgeTypeOpt = Annotated[
    str | None,
    typer.Option(
        "--edge-type", help=f"Type of the edge from --parent, leads_to unless told: {EDGE_TYPES}."
    ),
]
ChosenOpt = Annotated[
    list[str] | None,
    typer.Option("--chosen", help="For a decision: the label of an option taken."),
]
RejectedOpt = Annotated[
    list[str] | None,
    typer.Option("--rejected", help="For a decision: the label of an option turned down."),
]
ConfidenceOpt = Annotated[
    float | None, typer.Option("--confidence", help="How sure, from 0.0 to 1.0.")
]
RationaleOpt = Annotated[str | None, typer.Option("--rationale", help="Why, in a sentence or two.")]
StatusOpt = Annotated[str | None, typer.Option("--status", help=f"One of: {STATUSES}.")]
AgentOpt = Annotated[
    str | None,
    typer.Option("--agent", envvar="DECISIS_AGENT", help="Who records this (a person or agent)."),
]
MetadataOpt = Annotated[
    str | None, typer.Option("--metadata", help="Extra data as a JSON object, e.g. '{\"pr\": 42}'.")
]
AffectsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--affects",
        help="A path, glob or module this governs, relative to the repository root: "
        "'src/auth/**', '*.sql', decisis.adr (repeatable; see decisis explain).",
    ),
]
CommitOpt = Annotated[
    bool,
    typer.Option("--commit", help="Join it to the commit HEAD names (inside a git work tree)."),
]
CommitRefOpt = Annotated[
    str | None,
    typer.Option(
        "--commit-ref",
        metavar="SHA",
        help="Join it to this commit instead of HEAD (a commit id "
        "or branch of the git work tree here).",
    ),
]


def _fields(**values: Any) -> dict[str, Any]:
    """The options the user gave (``None`` means "not given")."""
    return {name: value for name, value in values.items() if value is not None}


def _placed(
    metadata: dict[str, Any] | None, affects: list[str] | None, commit: bool, ref: str | None
) -> dict[str, Any] | None:
    """``metadata`` with the paths and the commit the options name (``decisis.files``)."""
    if not affects and not commit and ref is None:
        return metadata
    from decisis.files import with_affects, with_commit
    from decisis.files.git import resolve_commit, work_tree_root

    here = Path.cwd()
    out = with_affects(metadata, affects or [], work_tree_root(here)) if affects else metadata
    if commit or ref is not None:
        out = with_commit(out, resolve_commit(here, ref or "HEAD"))
    return out


def _print_node(state: State, verb: str, node: Node) -> None:
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import NodeOut

        emit(NodeOut.of(node).dump())
        return
    from decisis.cli.render import print_change

    print_change(verb, node, short_ids(state.graph, [node.id]))


def _print_edge(state: State, verb: str, edge: Edge) -> None:
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import EdgeOut

        emit(EdgeOut.of(edge).dump())
        return
    from decisis.cli.render import print_edge_change

    print_edge_change(verb, edge, short_ids(state.graph, [edge.id, edge.source, edge.target]))


def init(ctx: typer.Context) -> None:
    """Create a store in .decisis/decisis.db in this directory (or at --store); safe to repeat."""
    state = get_state(ctx)
    path = None if state.store else Path.cwd() / STORE_DIR / STORE_FILE
    existed = path is not None and path.is_file()
    if path is not None:
        path.parent.mkdir(exist_ok=True)
        state.store = sqlite_url(path)
    state.graph  # opening creates the file and its tables  # noqa: B018
    where = str(path) if path is not None else state.store_url()
    if state.json:
        from decisis.cli.jsonout import emit

        created = None if path is None else not existed
        emit({"store": state.store_url(), "path": str(path) if path else None, "created": created})
        return
    from decisis.cli.render import print_message

    verb = "Store already initialised in" if existed else "Initialised an empty decisis store in"
    print_message(f"{verb} {where}")


def _record_with_options(
    state: State,
    *,
    type_: str,
    label: str,
    parent: str | None,
    edge_type: str | None,
    chosen: list[str],
    rejected: list[str],
    fields: dict[str, Any],
) -> Node:
    """A decision with the options weighed (``Graph.record_decision``)."""
    if check_enum(NodeType, type_, "type") is not NodeType.DECISION:
        raise InvalidInput("chosen", "only a decision has options chosen or rejected", "decision")
    if edge_type not in (None, "leads_to"):
        raise InvalidInput("edge-type", "a decision joins its goal by leads_to", "leads_to")
    return state.graph.record_decision(
        label, goal=parent, chosen=chosen, rejected=rejected, **fields
    )


def add(
    ctx: typer.Context,
    *,
    type_: TypeArg,
    label: LabelArg,
    parent: ParentOpt = None,
    edge_type: EdgeTypeOpt = None,
    confidence: ConfidenceOpt = None,
    rationale: RationaleOpt = None,
    status: StatusOpt = None,
    agent: AgentOpt = None,
    metadata: MetadataOpt = None,
    chosen: ChosenOpt = None,
    rejected: RejectedOpt = None,
    affects: AffectsOpt = None,
    commit: CommitOpt = False,
    commit_ref: CommitRefOpt = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Print only the new node's id, for scripts: id=$(decisis add …)"
        ),
    ] = False,
) -> None:
    """Add a node, joined to --parent if given; a decision may list options chosen and rejected,
    the paths it governs (--affects) and the commit it belongs to (--commit)."""
    state = get_state(ctx)
    fields = _fields(
        confidence=confidence,
        rationale=rationale,
        status=status,
        agent=agent,
        metadata=_placed(parse_json_object(metadata, "metadata"), affects, commit, commit_ref),
    )
    if chosen or rejected:
        node = _record_with_options(
            state,
            type_=type_,
            label=label,
            parent=parent,
            edge_type=edge_type,
            chosen=chosen or [],
            rejected=rejected or [],
            fields=fields,
        )
    else:
        node = state.graph.add_node(
            type_, label, parent=parent, edge_type=edge_type or "leads_to", **fields
        )
    if quiet and not state.json:
        typer.echo(node.id)
        return
    _print_node(state, "added", node)


def link(
    ctx: typer.Context,
    *,
    source: Annotated[str, typer.Argument(help="Id of the node the edge leaves.")],
    target: Annotated[str, typer.Argument(help="Id of the node the edge enters.")],
    edge_type: Annotated[str, typer.Argument(metavar="TYPE", help=f"Edge type: {EDGE_TYPES}.")],
    confidence: ConfidenceOpt = None,
    rationale: RationaleOpt = None,
) -> None:
    """Join two nodes by a typed edge SOURCE -TYPE-> TARGET (use supersede to replace a node)."""
    state = get_state(ctx)
    fields = _fields(confidence=confidence, rationale=rationale)
    _print_edge(state, "linked", state.graph.link(source, target, edge_type, **fields))


def update(
    ctx: typer.Context,
    *,
    ref: IdArg,
    label: Annotated[str | None, typer.Option("--label", help="A new label.")] = None,
    status: StatusOpt = None,
    confidence: ConfidenceOpt = None,
    rationale: RationaleOpt = None,
    agent: AgentOpt = None,
    metadata: MetadataOpt = None,
    valid_from: Annotated[
        str | None, typer.Option("--valid-from", help="When it began to hold (ISO 8601).")
    ] = None,
    valid_until: Annotated[
        str | None, typer.Option("--valid-until", help="When it stopped holding (ISO 8601).")
    ] = None,
) -> None:
    """Change fields of a node; the change is one ledger event."""
    state = get_state(ctx)
    changes = _fields(
        label=label,
        status=status,
        confidence=confidence,
        rationale=rationale,
        agent=agent,
        metadata=parse_json_object(metadata, "metadata"),
        valid_from=valid_from,
        valid_until=valid_until,
    )
    _print_node(state, "updated", state.graph.update(ref, **changes))


def supersede(
    ctx: typer.Context,
    *,
    old: Annotated[str, typer.Argument(help="Id of the node replaced.")],
    new: Annotated[str, typer.Argument(help="Id of the node that replaces it.")],
    rationale: RationaleOpt = None,
) -> None:
    """Replace OLD by NEW: OLD becomes superseded and NEW -supersedes-> OLD, atomically."""
    state = get_state(ctx)
    edge = state.graph.supersede(old, new, rationale=rationale)
    if state.json:
        _print_edge(state, "superseded", edge)
        return
    from decisis.cli.render import print_message

    short = short_ids(state.graph, [edge.id, edge.source, edge.target])
    replaced, by = short[edge.target], short[edge.source]
    print_message(f"superseded {replaced} by {by} (edge {short[edge.id]})")
    resting = state.graph.stale(premise=edge.target)
    if resting:
        count = f"{len(resting)} record{'s' if len(resting) > 1 else ''}"
        print_message(
            f"{count} rested on it: see `decisis stale --premise {replaced}`", style="dim"
        )


def judge(
    ctx: typer.Context,
    *,
    old: Annotated[str, typer.Argument(help="Id of the node said to be replaced.")],
    new: Annotated[str, typer.Argument(help="Id of the node said to replace it.")],
    confirm: Annotated[
        bool, typer.Option("--confirm", help="NEW does replace OLD: OLD is retired.")
    ] = False,
    reject: Annotated[
        bool,
        typer.Option("--reject", help="NEW does not replace OLD: what the link retired stands."),
    ] = False,
    rationale: RationaleOpt = None,
) -> None:
    """Confirm or reject that NEW replaces OLD (a proposed link or a new pair), in one event."""
    if confirm == reject:
        from decisis.errors import InvalidInput

        raise InvalidInput(
            "verdict", "give one of --confirm and --reject", ["--confirm", "--reject"]
        )
    state = get_state(ctx)
    verdict = "confirmed" if confirm else "rejected"
    edge = state.graph.judge(old, new, verdict, rationale=rationale)
    if state.json:
        _print_edge(state, verdict, edge)
        return
    from decisis.cli.render import print_message

    short = short_ids(state.graph, [edge.id, edge.source, edge.target])
    standing = state.graph.get(edge.target).status.value
    print_message(
        f"{verdict} that {short[edge.source]} replaces {short[edge.target]} "
        f"(edge {short[edge.id]}); {short[edge.target]} is {standing}"
    )


def tombstone(
    ctx: typer.Context,
    *,
    ref: Annotated[
        str, typer.Argument(metavar="ID", help="Id of the node or edge (or a unique prefix).")
    ],
    reason: Annotated[str, typer.Option("--reason", help="Why it is withdrawn.")],
) -> None:
    """Withdraw a node or edge from every query; it stays in the ledger, the chain stays whole."""
    state = get_state(ctx)
    record_id = state.graph.resolve(ref)
    state.graph.tombstone(record_id, reason)
    if state.json:
        from decisis.cli.jsonout import emit

        emit({"tombstoned": record_id, "reason": reason.strip()})
        return
    from decisis.cli.render import print_message

    short = short_ids(state.graph, [record_id])[record_id]
    print_message(f"tombstoned {short}: {reason.strip()}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    for command in (init, add, link, update, supersede, judge, tombstone):
        app.command()(command)
