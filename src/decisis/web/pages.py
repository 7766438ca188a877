"""Pages for people: the graph to browse (goals, recent decisions, a node with its edges and
history), "what do we do about X?" with a form to correct the answer, what was learnt, and
the ledger with its verification. Plain HTML forms and links: no script is needed but for
the picture of a node's neighbourhood (``static/graph.js``), which the edge table repeats."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from decisis.adr import MAX_QUESTION_CHARS
from decisis.errors import NotFound
from decisis.files import affects_of, commits_of
from decisis.forms import VerifyOut
from decisis.model import EdgeType, LinkState
from decisis.web.access import safe_next
from decisis.web.site import Site, site_of
from decisis.web.templates import render
from decisis.web.views import entities, shown_status

if TYPE_CHECKING:
    from decisis.graph import Graph
    from decisis.model import Edge

__all__ = ["render", "router"]  # ``render`` is ``decisis.web.templates.render``

router = APIRouter(include_in_schema=False)
PAGE_EVENTS = 50  # ledger events on one page of the audit, unless ?limit= says otherwise
CANDIDATE = LinkState.CANDIDATE
MAX_PAGE_EVENTS = 1000  # the most ?limit= may ask for (as the API's MAX_LIMIT)


SiteDep = Annotated[Site, Depends(site_of)]


def _labels(graph: Graph, edges: list[Edge]) -> dict[str, str]:
    """The label of every node the edges join, for their links."""
    ends = {end for edge in edges for end in (edge.source, edge.target)}
    return {node_id: graph.get(node_id).label for node_id in ends}


@router.get("/", response_class=HTMLResponse)
def home(site: SiteDep) -> str:
    with site.using() as graph:
        trees, recent = graph.goal_trees(), graph.recent_decisions(10)
        short = graph.short_ids([n.id for n in recent] + [t.goal.id for t in trees])
    return render("home.html", title="Decisions", trees=trees, recent=recent, short=short)


@router.get("/nodes/{ref}", response_class=HTMLResponse)
def node(site: SiteDep, ref: str) -> str:
    """A node's page; an edge's when ``ref`` is one (the ledger names both)."""
    with site.using() as graph:
        try:
            found = graph.get(ref)
        except NotFound:
            edge = graph.get_edge(ref)
            labels = _labels(graph, [edge])
            history = graph.history(edge.id)
            return render("edge.html", title="Edge", edge=edge, labels=labels, history=history)
        edges, history = graph.edges(found.id), graph.history(found.id)
        standing = graph.current(found.id)
        labels = _labels(graph, edges)
        short = graph.short_ids([found.id, *labels])
    return render(
        "node.html",
        title=found.label,
        node=found,
        out=[e for e in edges if e.source == found.id],
        into=[e for e in edges if e.target == found.id],
        history=history,
        standing=standing,
        badge=shown_status(found, standing),
        affects=affects_of(found.metadata),
        commits=commits_of(found.metadata),
        candidates=[e for e in edges if e.type is EdgeType.SUPERSEDES and e.state is CANDIDATE],
        labels=labels,
        short=short,
    )


@router.post("/nodes/{ref}/judge")
def judge(
    site: SiteDep,
    ref: str,
    old: Annotated[str, Form(max_length=100)],
    new: Annotated[str, Form(max_length=100)],
    verdict: Annotated[str, Form(max_length=20)],
) -> RedirectResponse:
    """Confirm or reject a candidate replacement (``Graph.judge``), then show the node's
    page again. Only from this server's own pages: ``binding.Guard`` refuses other sites'
    posts before this runs; a verdict other than confirmed or rejected is refused by
    ``judge`` itself."""
    with site.using() as graph:
        page = graph.get(ref).id
        graph.judge(old, new, verdict)
    return RedirectResponse(f"/nodes/{page}", status_code=303)


@router.get("/explain", response_class=HTMLResponse)
def explain(site: SiteDep, path: Annotated[str, Query(max_length=1000)] = "") -> str:
    """The standing decisions that govern a path (``Graph.decisions_for``), nearest first."""
    found = None
    if path.strip():
        with site.using() as graph:
            found = graph.decisions_for([path])[0]
    return render("explain.html", title="Files", path=path, found=found)


@router.get("/search", response_class=HTMLResponse)
def search(
    site: SiteDep,
    q: Annotated[str, Query(max_length=4000)] = "",
    records: Annotated[str, Query(max_length=10)] = "",
) -> str:
    """Decisions by meaning and words (``Graph.precedents``); ADR records when ticked (a
    fresh page, with no question yet, ticks it)."""
    with_records = records == "on" or not q
    hits = []
    if q.strip():
        with site.using() as graph:
            hits = graph.precedents(q, k=20, records=with_records)
    return render("search.html", title="Search", q=q, hits=hits, records=with_records)


def _record_ids(graph: Graph, keys: list[str]) -> dict[str, str]:
    """Node id of each record key the answer names, for links to the record's page."""
    from decisis.adr import view_of

    records = view_of(graph).records
    return {key: records[key].id for key in keys if key in records}


@router.get("/login", response_class=HTMLResponse)
def login(request: Request, next: str = "/") -> Response:
    """The sign-in form of a server started with a token; elsewhere, nothing to do."""
    if request.app.state.gate is None:
        return RedirectResponse(safe_next(next), status_code=303)
    return HTMLResponse(render("login.html", title="Sign in", next=safe_next(next), wrong=False))


@router.post("/login", response_class=HTMLResponse)
def sign_in(
    request: Request, token: Annotated[str, Form()] = "", next: Annotated[str, Form()] = "/"
) -> Response:
    gate = request.app.state.gate
    if gate is None:
        return RedirectResponse(safe_next(next), status_code=303)
    if not gate.signs_in(token):
        page = render("login.html", title="Sign in", next=safe_next(next), wrong=True)
        return HTMLResponse(page, status_code=401)
    response = RedirectResponse(safe_next(next), status_code=303)
    gate.set_cookie(response, request)
    return response


@router.get("/ask", response_class=HTMLResponse)
def ask(
    site: SiteDep,
    q: Annotated[str, Query(max_length=MAX_QUESTION_CHARS)] = "",
    corrected: str | None = None,
) -> str:
    from decisis.adr import ask as run
    from decisis.adr import why_lines

    answer, ids, why = None, {}, []
    if q.strip():
        with site.using() as graph:
            answer = run(graph, q)
            ids = _record_ids(graph, answer.chain)  # the answer and what it replaced
        why = why_lines(answer)
    return render(
        "ask.html", title="Ask", q=q, answer=answer, ids=ids, why=why, corrected=corrected
    )


@router.post("/ask/correct")
def correct(
    site: SiteDep,
    question: Annotated[str, Form(max_length=MAX_QUESTION_CHARS)],
    key: Annotated[str, Form(max_length=200)] = "",
) -> RedirectResponse:
    """Record the right answer (a record key, or "none"), then show the question again."""
    from decisis.adr import correct as teach

    target = key.strip()
    with site.using() as graph:
        result = teach(graph, question, None if target.lower() in ("", "none") else target)
    query = urlencode({"q": question, "corrected": result.key or "none"})
    return RedirectResponse(f"/ask?{query}", status_code=303)


@router.get("/learned", response_class=HTMLResponse)
def learned(site: SiteDep) -> str:
    from decisis.adr import learned as run

    with site.using() as graph:
        data = run(graph)
    return render("learned.html", title="Learned", rules=data["rules"], links=data["links"])


@router.get("/audit", response_class=HTMLResponse)
def audit(
    site: SiteDep,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_EVENTS)] = PAGE_EVENTS,
) -> str:
    """Whether the ledger verifies (all of it, every visit, outside the lock: ``Site.verify``),
    then ``limit`` of its events after seq ``after``, with links to the pages around."""
    report = VerifyOut.of(site.verify()).dump()
    with site.using() as graph:
        events = list(islice(graph.events(after_seq=after), limit + 1))  # one more: is there?
        about = entities(graph, events[:limit])
    later = events[limit - 1].seq if len(events) > limit else None
    pages = {
        "earlier": max(after - limit, 0) if after > 0 else None,  # seqs run 1, 2, 3, ...
        "later": later,
        "latest": max(report["events"] - limit, 0) if later is not None else None,
    }
    shown = events[:limit]
    return render(
        "audit.html",
        title="Audit",
        report=report,
        events=shown,
        about=about,
        after=after,
        limit=limit,
        pages=pages,
    )
