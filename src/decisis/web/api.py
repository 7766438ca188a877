"""The JSON API under ``/api``: the graph's reads, the ledger and its verification, ADR
answers and corrections, and the decision tools agents use (same schemas as over MCP)."""

from __future__ import annotations

from enum import StrEnum
from itertools import islice
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import JSONResponse
from pydantic import BeforeValidator, Field

from decisis.binding import MAX_BODY_BYTES
from decisis.errors import answer_for
from decisis.forms import (
    TEXT_PATTERN,
    AnswerOut,
    AskBody,
    AtOut,
    CorrectionBody,
    CorrectionOut,
    EdgeDetail,
    ErrorBody,
    EventOut,
    GoalTreeOut,
    HitOut,
    LearnedOut,
    NeighbourhoodOut,
    NodeDetail,
    NodeOut,
    PathDecisionsOut,
    PrecedentOut,
    ReachedOut,
    StandingOut,
    ToolSpecOut,
    VerifyOut,
)
from decisis.graph import BELIEVED, DEFAULT_MAX_DEPTH
from decisis.model import NodeStatus, NodeType
from decisis.model.ids import ID_PREFIX_MEANS, ID_PREFIX_PATTERN
from decisis.web.site import Site, site_of

__all__ = ["router"]


def _error(description: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": description}


router = APIRouter(
    prefix="/api",
    responses={
        401: _error("The token is missing or wrong (a server started with one)."),
        403: _error("A change sent from a page of another site (Origin, Sec-Fetch-Site)."),
        404: _error("No node, edge, record or tool by that name."),
        409: _error("A conflict: an ambiguous id, or a change the graph refuses."),
        413: _error(f"A request body over {MAX_BODY_BYTES:,} bytes (MAX_BODY_BYTES)."),
        421: _error("A Host this server does not answer to (--allow-host adds names)."),
        422: _error("The request was refused: the field that was wrong and what it allows."),
        503: _error("The store cannot be reached."),
    },
)

MAX_LIMIT = 1000  # rows one request may ask for
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="At most this many rows.")]
Believe = Annotated[
    float,
    Query(
        ge=0.0,
        le=1.0,
        description="Also follow replacements a rule proposed with this confidence (0 to 1).",
    ),
]
Depth = Annotated[int, Query(ge=1, le=DEFAULT_MAX_DEPTH, description="Edges to follow at most.")]


SiteDep = Annotated[Site, Depends(site_of)]

E = TypeVar("E", bound=StrEnum)
# An enum's value in any case and with white space around it, as the CLI and the Python API
# take it ("Decision"); the document lists the values as they are.
AnyCase = Annotated[E, BeforeValidator(lambda v: v.strip().lower() if isinstance(v, str) else v)]

# A node or edge by its id or a unique prefix of it
_REF_HELP = f"{ID_PREFIX_MEANS[0].upper()}{ID_PREFIX_MEANS[1:]}."
Ref = Annotated[str, Path(pattern=ID_PREFIX_PATTERN, description=_REF_HELP)]
RefQuery = Annotated[str, Query(pattern=ID_PREFIX_PATTERN, description=_REF_HELP)]


@router.get("/nodes", summary="Nodes, oldest first or newest first", response_model=list[NodeOut])
def list_nodes(
    site: SiteDep,
    type: Annotated[
        list[AnyCase[NodeType]] | None, Query(description="Node types to keep.")
    ] = None,
    status: Annotated[
        list[AnyCase[NodeStatus]] | None, Query(description="Statuses to keep.")
    ] = None,
    newest_first: bool = False,
    limit: Limit = 100,
) -> list[dict[str, Any]]:
    with site.using() as graph:
        found = graph.nodes(
            types=type or None, statuses=status or None, newest_first=newest_first, limit=limit
        )
        return NodeOut.all_of(found)


@router.get(
    "/nodes/{ref}",
    summary="A node with its edges and its ledger history",
    response_model=NodeDetail,
)
def show_node(site: SiteDep, ref: Ref) -> dict[str, Any]:
    with site.using() as graph:
        node = graph.get(ref)
        edges, history = graph.edges(node.id), graph.history(node.id)
    return NodeDetail.of(node, edges, history).dump()


@router.get(
    "/nodes/{ref}/neighbourhood",
    summary="A node, its edges one hop out and in, and its supersession chains",
    response_model=NeighbourhoodOut,
)
def show_neighbourhood(site: SiteDep, ref: Ref) -> dict[str, Any]:
    from decisis.web.views import neighbourhood

    with site.using() as graph:
        return NeighbourhoodOut.model_validate(neighbourhood(graph, ref)).dump()


@router.get("/edges/{ref}", summary="An edge with its ledger history", response_model=EdgeDetail)
def show_edge(site: SiteDep, ref: Ref) -> dict[str, Any]:
    with site.using() as graph:
        edge = graph.get_edge(ref)
        return EdgeDetail.of(edge, graph.history(edge.id)).dump()


@router.get(
    "/goals",
    summary="Active goals with their immediate children",
    response_model=list[GoalTreeOut],
)
def goals(site: SiteDep) -> list[dict[str, Any]]:
    with site.using() as graph:
        return GoalTreeOut.all_of(graph.goal_trees())


@router.get("/recent", summary="Recent decisions, newest first", response_model=list[NodeOut])
def recent(site: SiteDep, limit: Limit = 5) -> list[dict[str, Any]]:
    with site.using() as graph:
        return NodeOut.all_of(graph.recent_decisions(limit))


@router.get(
    "/current/{ref}",
    summary="The decision that stands now, and the chains to it",
    response_model=StandingOut,
)
def current(site: SiteDep, ref: Ref, believe: Believe = BELIEVED) -> dict[str, Any]:
    with site.using() as graph:
        return StandingOut.of(graph.current(ref, believe=believe)).dump()


@router.get(
    "/why/{ref}",
    summary="What led to a node (causal and structural ancestors)",
    response_model=list[ReachedOut],
)
def why(site: SiteDep, ref: Ref, max_depth: Depth = DEFAULT_MAX_DEPTH) -> list[dict[str, Any]]:
    with site.using() as graph:
        return [ReachedOut.of(r).dump() for r in graph.why(ref, max_depth=max_depth)]


@router.get(
    "/impact/{ref}",
    summary="What a node led to (causal and structural descendants)",
    response_model=list[ReachedOut],
)
def impact(site: SiteDep, ref: Ref, max_depth: Depth = DEFAULT_MAX_DEPTH) -> list[dict[str, Any]]:
    with site.using() as graph:
        return [ReachedOut.of(r).dump() for r in graph.impact(ref, max_depth=max_depth)]


@router.get(
    "/path",
    summary="A shortest directed path between two nodes ([] if none)",
    response_model=list[NodeOut],
)
def path(site: SiteDep, source: RefQuery, target: RefQuery) -> list[dict[str, Any]]:
    with site.using() as graph:
        return NodeOut.all_of(graph.path_between(source, target))


@router.get(
    "/explain",
    summary="The standing decisions that govern each path, nearest first",
    response_model=list[PathDecisionsOut],
)
def explain(
    site: SiteDep,
    path: Annotated[
        list[Annotated[str, Field(max_length=1000, pattern=TEXT_PATTERN)]],
        Query(description="A path from the repository root (repeat for more).", max_length=100),
    ],
) -> list[dict[str, Any]]:
    with site.using() as graph:
        return [PathDecisionsOut.of(entry).dump() for entry in graph.decisions_for(path)]


@router.get(
    "/search",
    summary="Full-text search over labels, rationales and records",
    response_model=list[HitOut],
)
def search(
    site: SiteDep,
    q: Annotated[str, Query(max_length=4000, pattern=TEXT_PATTERN)],
    limit: Limit = 10,
) -> list[dict[str, Any]]:
    with site.using() as graph:
        return [HitOut.of(hit).dump() for hit in graph.search(q, limit=limit)]


@router.get(
    "/precedents",
    summary="The decisions closest to a situation, by meaning and words (full text and vectors)",
    response_model=list[PrecedentOut],
)
def precedents(
    site: SiteDep,
    q: Annotated[str, Query(max_length=4000, pattern=TEXT_PATTERN)],
    k: Annotated[int, Query(ge=1, le=100)] = 5,
    records: Annotated[bool, Query(description="Include decisions ingested from ADRs.")] = True,
) -> list[dict[str, Any]]:
    with site.using() as graph:
        return [PrecedentOut.of(p).dump() for p in graph.precedents(q, k=k, records=records)]


@router.get(
    "/at",
    summary="The graph as it stood at a time: goals and recent decisions",
    response_model=AtOut,
)
def at(
    site: SiteDep,
    time: Annotated[
        str,
        Query(
            description="ISO 8601, e.g. 2026-11-01T12:00Z (or a date: 2026-11-01).",
            json_schema_extra={"format": "date-time"},
        ),
    ],
    limit: Limit = 5,
) -> dict[str, Any]:
    with site.using() as graph, graph.at(time) as view:
        return AtOut.of(view, limit).dump()


@router.get(
    "/ledger",
    summary="Ledger events after a sequence number, oldest first",
    response_model=list[EventOut],
)
def ledger(
    site: SiteDep, after: Annotated[int, Query(ge=0)] = 0, limit: Limit = 100
) -> list[dict[str, Any]]:
    with site.using() as graph:
        return EventOut.all_of(list(islice(graph.events(after_seq=after), limit)))


_BROKEN = {
    "description": "The ledger is not intact: the same report, with the first bad entry.",
    "model": VerifyOut,
}


@router.get(
    "/verify",
    summary="Check the hash chain and replay it against the tables",
    responses={200: {"model": VerifyOut}, 409: _BROKEN},
)
def verify(site: SiteDep) -> JSONResponse:
    report = VerifyOut.of(site.verify()).dump()  # outside the lock: the replay takes seconds
    return JSONResponse(report, status_code=200 if report["ok"] else 409)


@router.post(
    "/ask",
    summary="What do we do about X today? The ADR that stands",
    response_model=AnswerOut,
    response_model_exclude_unset=True,  # evidence and steps name only what they have
)
def ask(site: SiteDep, body: AskBody) -> dict[str, Any]:
    from decisis.adr import ask as run

    with site.using() as graph:
        return AnswerOut.of(run(graph, body.question)).dump()


@router.post(
    "/corrections",
    summary="Teach the right answer to a question, or undo it",
    response_model=CorrectionOut,
)
def corrections(site: SiteDep, body: CorrectionBody) -> dict[str, Any]:
    from decisis import adr as teach

    with site.using() as graph:
        if body.undo:
            return CorrectionOut.of(teach.undo(graph, body.question)).dump()
        return CorrectionOut.of(teach.correct(graph, body.question, body.key)).dump()


@router.get(
    "/learned",
    summary="Inferred links, their rules' trust and the corrections",
    response_model=LearnedOut,
)
def learned(site: SiteDep) -> dict[str, Any]:
    from decisis.adr import learned as run

    with site.using() as graph:
        return LearnedOut.of(run(graph)).dump()


@router.get(
    "/tools",
    summary="The decision tools, with their JSON Schemas",
    response_model=list[ToolSpecOut],
)
def tools(site: SiteDep) -> list[dict[str, Any]]:
    return [
        ToolSpecOut(name=spec.name, description=spec.description, input_schema=spec.schema).dump()
        for spec in site.tools.specs.values()
    ]


@router.post("/tools/{name}", summary="Call a decision tool (record_decision, add_goal, …)")
def call_tool(
    site: SiteDep, name: str, arguments: Annotated[dict[str, Any], Body()]
) -> JSONResponse:
    with site.lock:
        result = site.tools.call(name, arguments)
    if not result.is_error:
        return JSONResponse(result.data)
    kind = result.data.get("error", {}).get("type", "")
    status = 404 if name not in site.tools.specs else answer_for(kind).http
    return JSONResponse(result.data, status_code=status)
