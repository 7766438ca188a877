"""Other sites in a real headless Chromium: a page served from another origin that posts a
form to ``decisis serve`` on its own, and a name pointed at this machine (DNS rebinding).
Chromium resolves every ``*.example`` name to 127.0.0.1 (``conftest.RESOLVE``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote

import pytest

from tests.web.conftest import Site
from tests.web.test_web_guard import QUESTION, _answer, _events, _port


class _Page(BaseHTTPRequestHandler):
    """Answers every GET with ``html``: the attacker's page."""

    def __init__(self, html: str, *args: Any, **kwargs: Any) -> None:
        self.html = html
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        body = self.html.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


def _planting(site: Site) -> str:
    """A page that, once opened, posts a correction to ``site`` with nobody clicking."""
    return (
        f'<form id="plant" method="post" action="{site.url}/ask/correct">'
        f'<input name="question" value="{QUESTION}"><input name="key" value="team:001">'
        '</form><script>document.getElementById("plant").submit()</script>'
    )


@pytest.fixture
def elsewhere(site: Site) -> Iterator[int]:
    """The port of another web server on this machine, serving ``_planting(site)``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Page, _planting(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("origin", ["attacker.example", "127.0.0.1", "data:"])
def test_another_origins_form_cannot_plant_a_correction(
    site: Site, elsewhere: int, page: Any, origin: str
) -> None:
    """From another site, from another port of this machine (the same site, another origin:
    the cookie of a signed-in person would go along), and from a data: page (Origin null)."""
    assert _answer(site) == "team:002"
    before = _events(site)
    opened = (
        "data:text/html," + quote(_planting(site))
        if origin == "data:"
        else f"http://{origin}:{elsewhere}/plant.html"
    )
    with page.expect_response(f"{site.url}/ask/correct") as posted:
        page.goto(opened)
    assert posted.value.request.method == "POST"
    assert posted.value.status == 403
    page.wait_for_load_state()
    assert "origin" in page.inner_text("#error")
    assert _answer(site) == "team:002" and _events(site) == before


def test_a_name_pointed_at_this_machine_is_refused(site: Site, page: Any) -> None:
    port = _port(site)
    before = _events(site)
    for path in ("/", "/api/recent", f"/nodes/{site.jwt}"):
        shown = page.goto(f"http://rebind.example:{port}{path}")
        assert shown.status == 421, path
        assert "--allow-host rebind.example" in page.inner_text("body")
        assert "Use JWT tokens" not in page.inner_text("body")
    assert page.goto(f"http://localhost:{port}/").status == 200
    assert _events(site) == before
