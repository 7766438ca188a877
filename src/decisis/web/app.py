"""The FastAPI application: one graph per app, requests taken one at a time (but for the
ledger's verification, ``Site.verify``); every ``DecisisError`` becomes an HTTP answer in
``decisis.web.site.error_response``. Every request first passes ``decisis.binding.Guard``:
to a name the server answers to, changes from its own pages only, bodies of at most
``MAX_BODY_BYTES``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from decisis.binding import Guard, Hosts, Receive, Scope, Send
from decisis.errors import (
    DecisisError,
    InvalidInput,
    MissingExtra,
)
from decisis.model.ids import ID_PREFIX_MEANS, ID_PREFIX_PATTERN

try:
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import Response
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("the web front door", "web") from exc

from decisis.web.site import TEXT_PATTERN, Site, error_response

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = ["create_app", "invalid_request", "serve"]


_PLACES = frozenset({"query", "path", "body", "header", "cookie"})
# What the patterns the API's parameters use mean, for refusals (not the expressions).
_PATTERN_MEANS = {
    ID_PREFIX_PATTERN: ID_PREFIX_MEANS,
    TEXT_PATTERN: "text besides white space, without NUL characters",
}


def invalid_request(exc: RequestValidationError) -> InvalidInput:
    """FastAPI's refusal of a request before it reaches a route (a limit out of range, a
    body field missing or too long) as the ``InvalidInput`` every other refusal is: one
    error shape for clients, naming the field and what is allowed."""
    errors = exc.errors()
    first = errors[0] if errors else {}
    # the place comes first ("query"; a parameter may be called "path" too), and a list's
    # item is named by the list ("type", not "type.0")
    loc = list(first.get("loc", ()))
    if loc and loc[0] in _PLACES:
        loc = loc[1:]
    where = [str(p) for p in loc if not isinstance(p, int)]
    field = ".".join(where) or "request"
    said = str(first.get("msg") or "not allowed")
    if first.get("type") == "missing":
        return InvalidInput(field, "is missing", "a value")
    got = repr(first.get("input"))
    got = got if len(got) <= 60 else got[:57] + "..."
    allowed = said.removeprefix("Input should be ").removeprefix("Value error, ")
    pattern = (first.get("ctx") or {}).get("pattern")
    allowed = _PATTERN_MEANS.get(pattern, allowed) if isinstance(pattern, str) else allowed
    return InvalidInput(field, f"is {got}", allowed)


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, exc: DecisisError
) -> None:
    """The ``Guard``'s answers, in the app's own forms (JSON for the API, a page elsewhere)."""
    response = error_response(Request(scope), exc, status)
    await response(scope, receive, send)


def create_app(
    graph: Graph,
    *,
    title: str = "decisis",
    token: str | None = None,
    allow_hosts: Iterable[str] = (),
) -> FastAPI:
    """The web app over ``graph`` (which the caller opens and closes). It answers requests
    to the loopback names and to ``allow_hosts`` (``decisis.binding.Hosts``: add the names
    people reach it by), changes from its own pages only, bodies up to ``MAX_BODY_BYTES``
    (``decisis.binding.Guard``); with ``token``, every request must carry it
    (``decisis.web.access``)."""
    from decisis import __version__
    from decisis.agent.tools import Toolbox
    from decisis.web import api, assets, pages
    from decisis.web.access import TokenGate

    app = FastAPI(
        title=title,
        version=__version__,
        description="Decision memory: browse the graph, ask what stands, audit the ledger.",
        docs_url=None,  # FastAPI's loads Swagger UI from a CDN: ``assets.mount`` serves ours
        redoc_url=None,
    )
    app.state.site = Site(graph, Toolbox(graph))
    app.state.gate = None
    if token is not None:
        app.state.gate = gate = TokenGate(token)
        app.middleware("http")(gate)
    # added last, so outermost: a refused request reaches neither the gate nor a route
    app.add_middleware(Guard, hosts=Hosts.of(allow_hosts), token=token, refuse=_refuse)

    async def on_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, DecisisError)
        return error_response(request, exc)

    async def on_invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(request, invalid_request(exc))

    app.add_exception_handler(DecisisError, on_error)
    app.add_exception_handler(RequestValidationError, on_invalid)
    app.include_router(api.router)
    app.include_router(pages.router)
    assets.mount(app)
    return app


def serve(
    graph: Graph,
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    token: str | None = None,
    allow_hosts: Iterable[str] = (),
    **uvicorn: Any,
) -> None:
    """Serve the app over ``graph`` until stopped (Ctrl-C): without ``token``, on a loopback
    address only; answering the loopback names, ``allow_hosts``, and with a token the
    address bound (``decisis.binding.allowed_hosts``). What answering derives from the
    records is derived first (``decisis.adr.answer.prepare``), so the first question is
    answered as fast as the rest."""
    import uvicorn as server

    from decisis.adr import prepare
    from decisis.binding import allowed_hosts, check_bind

    token = check_bind(host, token)
    names = allowed_hosts(host, token, allow_hosts)
    prepare(graph)
    app = create_app(graph, token=token, allow_hosts=names)
    server.run(app, host=host, port=port, **uvicorn)
