"""What ``decisis serve`` refuses before a route runs, over real HTTP: a Host it does not
answer to (DNS rebinding), a change sent from another site's page, a body over the limit.
Each refusal names what was wrong and what is allowed, and changes nothing."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from typer.testing import CliRunner

from decisis.binding import MAX_BODY_BYTES
from decisis.cli.app import app
from tests.cli.cli_support import ENV
from tests.web.conftest import TOKEN, Site, serve

QUESTION = "Do we build on a Jenkins server?"  # team:002 stands; a correction to team:001 lands


def _port(site: Site) -> int:
    port = urlsplit(site.url).port
    assert port is not None
    return port


def _answer(site: Site) -> str:
    """The record that stands for ``QUESTION`` now (what a planted correction would move)."""
    headers = {"Authorization": f"Bearer {site.token}"} if site.token else {}
    answered = httpx.post(
        f"{site.url}/api/ask", json={"question": QUESTION}, headers=headers, timeout=30
    )
    assert answered.status_code == 200, answered.text
    key: str = answered.json()["answer"]
    return key


def _events(site: Site) -> int:
    headers = {"Authorization": f"Bearer {site.token}"} if site.token else {}
    ledger = httpx.get(f"{site.url}/api/ledger", params={"limit": 1000}, headers=headers)
    assert ledger.status_code == 200, ledger.text
    return len(ledger.json())


def _writes(client: httpx.Client, headers: dict[str, str]) -> list[httpx.Response]:
    """Every way to change the store: the page's form, the API's correction, a tool."""
    form = {"question": QUESTION, "key": "team:001"}
    return [
        client.post("/ask/correct", data=form, headers=headers),
        client.post("/api/corrections", json=form, headers=headers),
        client.post("/api/tools/record_decision", json={"label": "Planted"}, headers=headers),
    ]


# -- Host ------------------------------------------------------------------------------
def test_a_host_the_server_does_not_answer_to_is_refused_naming_it(site: Site) -> None:
    port = _port(site)
    before = _events(site)
    with httpx.Client(base_url=site.url, timeout=30) as client:
        for name in ("attacker.example", "127.0.0.1.attacker.example", "localhost.example"):
            foreign = {"Host": f"{name}:{port}"}
            refused = client.get("/api/recent", headers=foreign)
            assert refused.status_code == 421, refused.text
            error = refused.json()["error"]
            assert error["type"] == "InvalidInput" and error["field"] == "host"
            assert name in error["message"] and "DNS rebinding" in error["message"]
            assert f"--allow-host {name}" in error["allowed"]
            assert "127.0.0.1, localhost, [::1]" in error["allowed"]
            page = client.get("/", headers=foreign)  # people get the error page
            assert page.status_code == 421 and "text/html" in page.headers["content-type"]
            assert f"--allow-host {name}" in page.text
            assert all(r.status_code == 421 for r in _writes(client, foreign))
        for name in ("127.0.0.1", "localhost", "[::1]", "LOCALHOST", "127.0.0.1"):
            assert client.get("/api/recent", headers={"Host": f"{name}:{port}"}).status_code == 200
        assert client.get("/api/recent", headers={"Host": "localhost"}).status_code == 200
    assert _events(site) == before


def test_allow_host_adds_a_name(tmp_path: Path) -> None:
    options = ["--allow-host", "Decisis.Example", "--allow-host", "10.0.0.5"]
    with contextmanager(serve)(tmp_path, None, options) as site:
        port = _port(site)
        with httpx.Client(base_url=site.url, timeout=30) as client:
            for name in ("decisis.example", "DECISIS.example.", "10.0.0.5", "localhost"):
                shown = client.get("/api/recent", headers={"Host": f"{name}:{port}"})
                assert shown.status_code == 200, (name, shown.text)
            refused = client.get("/api/recent", headers={"Host": f"other.example:{port}"})
            assert refused.status_code == 421
            assert "10.0.0.5, decisis.example;" in refused.json()["error"]["allowed"]
        log = (tmp_path / "server.log").read_text(encoding="utf-8")
        assert "also answering to 10.0.0.5, decisis.example" in log


@pytest.mark.parametrize("name", ["*", "http://decisis.example", "decisis.example:8080", "a b"])
def test_allow_host_refuses_what_is_not_one_name(name: str) -> None:
    refused = CliRunner().invoke(
        app, ["--store", "memory://", "serve", "--allow-host", name], env=ENV
    )
    assert refused.exit_code == 2
    assert f"allow-host: {name!r} is not a host name" in refused.stderr


# -- Origin ----------------------------------------------------------------------------
def test_a_change_from_another_sites_page_is_refused_and_changes_nothing(site: Site) -> None:
    port = _port(site)
    answer, before = _answer(site), _events(site)
    assert answer == "team:002"
    senders = [
        ({"Origin": "http://attacker.example"}, "origin", "attacker.example"),
        ({"Origin": "null"}, "origin", "null"),  # a data: page, a sandboxed frame
        ({"Origin": f"http://127.0.0.1:{port + 1}"}, "origin", str(port + 1)),  # another port
        ({"Origin": f"http://localhost:{port}"}, "origin", "localhost"),  # Host is 127.0.0.1
        ({"Sec-Fetch-Site": "cross-site"}, "sec-fetch-site", "cross-site"),
        ({"Sec-Fetch-Site": "same-site"}, "sec-fetch-site", "same-site"),
        ({"Referer": "http://attacker.example/planted.html"}, "referer", "attacker.example"),
    ]
    with httpx.Client(base_url=site.url, timeout=30) as client:
        for headers, field, named in senders:
            page, correction, tool = _writes(client, headers)
            assert page.status_code == 403, (headers, page.text)
            assert "text/html" in page.headers["content-type"] and named in page.text
            for refused in (correction, tool):
                assert refused.status_code == 403, (headers, refused.text)
                error = refused.json()["error"]
                assert error["type"] == "InvalidInput" and error["field"] == field
                assert named in error["message"]
                assert f"this server's own pages (http://127.0.0.1:{port})" in error["allowed"]
        # reading is not changing: a link from another site still shows the page
        assert client.get("/", headers={"Origin": "http://attacker.example"}).status_code == 200
    assert _answer(site) == "team:002" and _events(site) == before


def test_a_change_from_its_own_pages_or_a_script_lands(site: Site) -> None:
    port = _port(site)
    own = f"http://127.0.0.1:{port}"
    form = {"question": QUESTION, "key": "team:001"}
    with httpx.Client(base_url=site.url, timeout=30) as client:
        for headers in (
            {"Origin": own, "Sec-Fetch-Site": "same-origin"},
            {"Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"},
            {"Sec-Fetch-Site": "same-origin"},
            {"Referer": f"{own}/ask?q=Jenkins"},
            {},  # curl, a script: not a browser page
        ):
            corrected = client.post("/ask/correct", data=form, headers=headers)
            assert corrected.status_code == 303, (headers, corrected.text)
            assert _answer(site) == "team:001"
            undo = {"question": QUESTION, "undo": True}
            assert client.post("/api/corrections", json=undo, headers=headers).status_code == 200
            assert _answer(site) == "team:002"


def test_the_token_skips_the_origin_check_and_the_cookie_does_not(guarded: Site) -> None:
    foreign = {"Origin": "http://attacker.example"}
    bearer = {"Authorization": f"Bearer {guarded.token}"}
    before = _events(guarded)
    with httpx.Client(base_url=guarded.url, timeout=30) as client:
        signed = client.post("/login", data={"token": TOKEN, "next": "/"})
        assert signed.status_code == 303 and client.cookies
        planted = _writes(client, foreign)  # the browser of someone signed in
        assert [r.status_code for r in planted] == [403, 403, 403]
        assert _events(guarded) == before
        client.cookies.clear()
        made = client.post(
            "/api/tools/record_decision", json={"label": "Scripted"}, headers={**bearer, **foreign}
        )
        assert made.status_code == 200, made.text
        wrong = {"Authorization": "Bearer not-the-token-at-all", **foreign}
        refused = client.post("/api/tools/record_decision", json={"label": "Guess"}, headers=wrong)
        assert refused.status_code == 403
    assert _events(guarded) == before + 1


# -- Body ------------------------------------------------------------------------------
def _raw(site: Site, head: str, body: Iterable[bytes] = ()) -> tuple[int, dict[str, Any]]:
    """Send ``head`` (and ``body``'s pieces) on a socket, then read the answer without
    sending more: its status and JSON error. A server that waited for the rest of the body
    would time out here."""
    with socket.create_connection(("127.0.0.1", _port(site)), timeout=10) as sock:
        sock.sendall(head.encode())
        for piece in body:
            sock.sendall(piece)
        answer = b""
        while got := sock.recv(65536):  # to the end: the server closes after the answer
            answer += got
    status_line, _, rest = answer.partition(b"\r\n")
    headers, _, payload = rest.partition(b"\r\n\r\n")
    assert b"connection: close" in headers.lower()  # the rest of the body is never read
    error: dict[str, Any] = json.loads(payload)["error"]
    return int(status_line.split()[1]), error


def _post_head(site: Site, length: str) -> str:
    return (
        f"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1:{_port(site)}\r\n"
        f"Content-Type: application/json\r\n{length}\r\n\r\n"
    )


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 100 * 1024 * 1024])
def test_a_body_declared_over_the_limit_is_refused_unread(site: Site, size: int) -> None:
    status, error = _raw(site, _post_head(site, f"Content-Length: {size}"))  # and no body
    assert status == 413 and error["type"] == "InvalidInput" and error["field"] == "body"
    assert error["message"] == f"body: is {size:,} bytes (allowed: {error['allowed']})"
    assert error["allowed"] == "at most 1,048,576 bytes (1 MiB) a request"


def test_a_body_sent_in_chunks_is_counted_as_it_comes(site: Site) -> None:
    """Chunks to one byte past the limit, and no end: the count refuses, not the length."""
    piece = b"x" * (64 * 1024)
    chunks = [b"%x\r\n%s\r\n" % (len(piece), piece)] * (MAX_BODY_BYTES // len(piece))
    status, error = _raw(
        site, _post_head(site, "Transfer-Encoding: chunked"), [*chunks, b"1\r\nx\r\n"]
    )
    assert status == 413 and error["field"] == "body"
    assert error["message"].startswith("body: is more than 1,048,576 bytes")


def test_a_body_up_to_the_limit_is_read(site: Site) -> None:
    question = json.dumps({"question": QUESTION}).encode()
    padded = question + b" " * (MAX_BODY_BYTES - len(question))  # JSON allows the spaces
    headers = {"Content-Type": "application/json"}
    answered = httpx.post(f"{site.url}/api/ask", content=padded, headers=headers, timeout=30)
    assert answered.status_code == 200 and answered.json()["answer"] == "team:002"
