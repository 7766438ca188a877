"""What the web routes share: the ``Site`` they work on (``site_of`` finds it for a
request), the pattern their text parameters match, and ``error_response``, the one place
a ``DecisisError`` becomes an HTTP answer. Its own module, so the app, the API, the pages
and the token gate import it and none of them imports another back."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from decisis.errors import DecisisError, answer_for, error_body
from decisis.forms import TEXT_PATTERN

if TYPE_CHECKING:
    from decisis.agent.tools import Toolbox
    from decisis.graph import Graph, VerifyReport

__all__ = ["TEXT_PATTERN", "Site", "error_response", "site_of"]


@dataclass
class Site:
    """What the routes work on: the graph, its decision tools, and a lock that lets one
    request at a time use them (the ADR view and a store's connection are shared)."""

    graph: Graph
    tools: Toolbox
    lock: threading.Lock = field(default_factory=threading.Lock)

    @contextmanager
    def using(self) -> Iterator[Graph]:
        with self.lock:
            yield self.graph

    def verify(self) -> VerifyReport:
        """``Graph.verify``, outside the lock: replaying a long ledger takes seconds (3.1 s at
        28,000 events), which every other request would otherwise wait out. It reads only
        the store, which is safe to share between threads (the lock guards the ADR view).
        A write landing while the replay runs can make the tables look apart from the
        ledger read before it, so a failure counts only if the head did not move meanwhile
        (every write moves it; a tamper does not); else it is verified again under the lock.
        Nothing is cached: each call reads the whole ledger back, so a tamper shows at once."""
        graph = self.graph
        before = graph.store.head(graph.name)
        report = graph.verify()
        if report.ok or graph.store.head(graph.name) == before:
            return report
        with self.lock:
            return graph.verify()


def site_of(request: Request) -> Site:
    """The ``Site`` of the app serving ``request`` (a route's dependency)."""
    found: Site = request.app.state.site
    return found


def error_response(request: Request, exc: DecisisError, status: int | None = None) -> Response:
    """The one translation: ``decisis.errors.error_body`` as JSON for the API, a page for
    people elsewhere; both name the field and what is allowed. ``status`` is the error
    table's unless told: the ``Guard``'s refusals say which check refused (421, 403, 413)."""
    body = error_body(exc)
    status = answer_for(exc).http if status is None else status
    if request.url.path.startswith("/api/"):
        return JSONResponse(body, status_code=status)
    from decisis.web.templates import render

    html = render("error.html", title="Error", error=body["error"], status=status)
    return HTMLResponse(html, status_code=status)
