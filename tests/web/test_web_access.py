"""A server started with a token, over real HTTP: what a request without it gets, and what
changes nothing; the sign-in for people; refusing other machines without a token."""

from __future__ import annotations

import httpx
import pytest
from typer.testing import CliRunner

from decisis.cli.app import app
from decisis.web.access import COOKIE, TokenGate, safe_next
from tests.cli.cli_support import ENV
from tests.web.conftest import Site


def _events(site: Site) -> int:
    headers = {"Authorization": f"Bearer {site.token}"}
    ledger = httpx.get(f"{site.url}/api/ledger", params={"limit": 1000}, headers=headers)
    assert ledger.status_code == 200, ledger.text
    return len(ledger.json())


def test_the_api_needs_the_token_and_a_refused_write_changes_nothing(guarded: Site) -> None:
    before = _events(guarded)
    with httpx.Client(base_url=guarded.url) as client:
        for headers in ({}, {"Authorization": "Bearer wrong-token-of-some-length"}):
            refused = client.get("/api/recent", headers=headers)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
            error = refused.json()["error"]
            assert error["type"] == "Unauthorized" and "Bearer" in error["allowed"]
        write = client.post("/api/tools/record_decision", json={"label": "Sneak in"})
        assert write.status_code == 401
        docs = client.get("/openapi.json")  # a page: people are sent to sign in
        assert docs.status_code == 303 and docs.headers["location"].startswith("/login?")
        correction = client.post("/ask/correct", data={"question": "Jenkins?", "key": "none"})
        assert correction.status_code == 401
        allowed = {"Authorization": f"Bearer {guarded.token}"}
        assert client.get("/api/recent", headers=allowed).status_code == 200
    assert _events(guarded) == before


def test_people_sign_in_once_and_the_cookie_is_not_the_token(guarded: Site) -> None:
    with httpx.Client(base_url=guarded.url) as client:
        sent = client.get("/nodes/" + guarded.jwt)
        assert sent.status_code == 303
        assert sent.headers["location"] == f"/login?next=%2Fnodes%2F{guarded.jwt}"
        wrong = client.post("/login", data={"token": "not it at all, sorry", "next": "/"})
        assert wrong.status_code == 401 and COOKIE not in client.cookies
        signed = client.post("/login", data={"token": guarded.token, "next": "/audit"})
        assert signed.status_code == 303 and signed.headers["location"] == "/audit"
        cookie = signed.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert "Secure" not in cookie  # plain HTTP here: a Secure cookie would never come back
        assert guarded.token and guarded.token not in cookie
        assert client.get("/audit").status_code == 200
        assert client.get("/api/recent").status_code == 200  # the cookie serves the API too
        away = client.post("/login", data={"token": guarded.token, "next": "//evil.example/"})
        assert away.headers["location"] == "/"


def test_the_cookie_is_secure_behind_https() -> None:
    from fastapi import Request
    from fastapi.responses import Response

    gate = TokenGate("a-token-of-sixteen+")
    for scheme, secure in (("https", True), ("http", False)):
        scope = {"type": "http", "scheme": scheme, "server": ("decisis.example", 443)}
        scope |= {"path": "/login", "query_string": b"", "headers": []}
        response = Response()
        gate.set_cookie(response, Request(scope))
        assert ("secure" in response.headers["set-cookie"].lower()) is secure


def test_a_server_without_a_token_needs_no_sign_in(site: Site) -> None:
    response = httpx.get(f"{site.url}/login", params={"next": "/audit"})
    assert response.status_code == 303 and response.headers["location"] == "/audit"
    assert httpx.get(f"{site.url}/api/recent").status_code == 200


def test_serving_other_machines_needs_a_token() -> None:
    runner = CliRunner()
    refused = runner.invoke(app, ["--store", "memory://", "serve", "--host", "0.0.0.0"], env=ENV)
    assert refused.exit_code == 2
    assert "host: 0.0.0.0 can be reached from other machines" in refused.stderr
    short = runner.invoke(app, ["--store", "memory://", "serve", "--token", "abc"], env=ENV)
    assert short.exit_code == 2 and "token: is too short" in short.stderr


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("/audit?limit=3", "/audit?limit=3"),
        ("//evil.example", "/"),
        ("https://evil.example", "/"),
        ("/\\evil.example", "/"),
        ("", "/"),
        (None, "/"),
    ],
)
def test_after_sign_in_only_this_site(given: str | None, kept: str) -> None:
    assert safe_next(given) == kept
