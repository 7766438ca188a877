"""Which addresses a server may bind without a way to tell who is calling, and which
requests it answers: its own names in Host, changes from its own pages, bodies up to the
limit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from typer.testing import CliRunner

from decisis import InvalidInput
from decisis.binding import (
    MAX_BODY_BYTES,
    Hosts,
    Receive,
    allowed_hosts,
    bearer_matches,
    check_bind,
    check_body_size,
    check_host_name,
    check_local,
    check_same_origin,
    check_token,
    is_loopback,
    read_body,
    split_host,
)
from decisis.cli.app import app
from tests.cli.cli_support import ENV


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.4", False),
        ("decisis.example", False),
    ],
)
def test_loopback_addresses(host: str, local: bool) -> None:
    assert is_loopback(host) is local


def test_check_local_names_the_host_and_what_else_would_do() -> None:
    check_local("127.0.0.1", "or a token")
    with pytest.raises(InvalidInput) as refused:
        check_local("0.0.0.0", "or a token")
    assert refused.value.field == "host" and "0.0.0.0" in str(refused.value)
    assert "127.0.0.1" in str(refused.value.allowed) and "or a token" in str(refused.value.allowed)


def test_the_mcp_server_over_http_serves_this_machine_only() -> None:
    args = ["--store", "memory://", "mcp", "--http", "--host", "0.0.0.0"]
    refused = CliRunner().invoke(app, args, env=ENV)
    assert refused.exit_code == 2
    assert "host: 0.0.0.0 can be reached from other machines" in refused.stderr
    assert "--token" in refused.stderr
    short = CliRunner().invoke(app, [*args, "--token", "abc"], env=ENV)
    assert short.exit_code == 2 and "token: is too short" in short.stderr


@pytest.mark.parametrize(
    ("header", "carries"),
    [
        ("Bearer a-token-of-sixteen+", True),
        ("bearer a-token-of-sixteen+", True),
        ("Bearer  a-token-of-sixteen+ ", True),
        ("Bearer a-token-of-sixteen", False),
        ("Basic a-token-of-sixteen+", False),
        ("a-token-of-sixteen+", False),
        ("", False),
    ],
)
def test_bearer_matches_only_the_token(header: str, carries: bool) -> None:
    assert bearer_matches(header, "a-token-of-sixteen+") is carries


def test_a_token_lets_a_server_bind_any_address() -> None:
    assert check_bind("0.0.0.0", " a-token-of-sixteen+ ") == "a-token-of-sixteen+"
    assert check_bind("127.0.0.1", None) is None
    with pytest.raises(InvalidInput, match="--token"):
        check_bind("0.0.0.0", None)
    with pytest.raises(InvalidInput, match="at least 16"):
        check_token("short")


# -- which requests a server answers (decisis.binding.Guard) ---------------------------
@pytest.mark.parametrize(
    ("header", "answered"),
    [
        ("127.0.0.1:8080", True),
        ("127.8.0.1", True),
        ("localhost:1", True),
        ("LocalHost.:8080", True),  # a final dot is the same name
        ("[::1]:8080", True),
        ("[0:0::1]", True),
        ("decisis.example:8080", True),  # given with --allow-host
        ("Decisis.Example", True),
        ("attacker.example:8080", False),
        ("127.0.0.1.attacker.example", False),
        ("localhost.attacker.example", False),
        ("decisis.example.attacker.example", False),
        ("127.0.0.1@attacker.example", False),
        ("attacker.example#127.0.0.1", False),
        ("::1", False),  # an IPv6 address in Host needs its brackets
        ("[::1", False),
        ("[decisis.example]", False),
        ("", False),
        (None, False),
    ],
)
def test_a_server_answers_its_names_only(header: str | None, answered: bool) -> None:
    hosts = Hosts.of(["decisis.example"])
    if answered:
        name, _ = hosts.check(header)
        assert hosts.allows(name)
        return
    with pytest.raises(InvalidInput) as refused:
        hosts.check(header)
    assert refused.value.field == "host"
    assert "127.0.0.1, localhost, [::1] (any port), decisis.example" in str(refused.value.allowed)


def test_a_refused_host_says_how_to_allow_it() -> None:
    with pytest.raises(InvalidInput) as refused:
        Hosts().check("Intranet.Example:8080")
    assert "intranet.example is not a name this server answers to" in str(refused.value)
    assert str(refused.value.allowed).endswith("start it with --allow-host intranet.example")


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("decisis.example", "decisis.example"),
        (" Team.Example. ", "team.example"),
        ("10.0.0.5", "10.0.0.5"),
        ("[FD00::5]", "fd00::5"),
        ("fd00:0::5", "fd00::5"),
    ],
)
def test_allowed_names_are_written_one_way(given: str, kept: str) -> None:
    assert check_host_name(given) == kept
    assert split_host(f"{kept if ':' not in kept else f'[{kept}]'}:8080") == (kept, 8080)


@pytest.mark.parametrize(
    "given", ["*", "*.example", "decisis.example:8080", "http://decisis.example", "a/b", "", "1.2"]
)
def test_an_allowed_name_is_one_name(given: str) -> None:
    with pytest.raises(InvalidInput, match="without scheme, port or path") as refused:
        check_host_name(given)
    assert refused.value.field == "allow-host"


def test_a_server_with_a_token_answers_to_the_address_it_binds() -> None:
    token = "a-token-of-sixteen+"
    assert allowed_hosts("10.0.0.5", token) == {"10.0.0.5"}
    assert allowed_hosts("[fd00::5]", token, ["decisis.example"]) == {"fd00::5", "decisis.example"}
    assert allowed_hosts("decisis.example", token) == {"decisis.example"}
    assert allowed_hosts("0.0.0.0", token) == allowed_hosts("::", token) == frozenset()
    assert allowed_hosts("127.0.0.1", None, ["decisis.example"]) == {"decisis.example"}


HOST = ("127.0.0.1", 8080)
OWN = "http://127.0.0.1:8080"


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        ({"origin": OWN}, None),
        ({"origin": "https://127.0.0.1:8080"}, None),  # behind a proxy that speaks HTTPS
        ({"origin": OWN, "sec-fetch-site": "cross-site"}, None),  # Origin decides
        ({"sec-fetch-site": "same-origin"}, None),
        ({"sec-fetch-site": "none"}, None),  # typed by the person
        ({"referer": OWN + "/ask?q=x"}, None),
        ({}, None),  # not a browser page
        ({"origin": "http://attacker.example"}, "origin"),
        ({"origin": "null"}, "origin"),
        ({"origin": "http://127.0.0.1:8081"}, "origin"),
        ({"origin": "http://127.0.0.1"}, "origin"),
        ({"origin": "http://localhost:8080"}, "origin"),
        ({"origin": "http://127.0.0.1:8080.attacker.example"}, "origin"),
        ({"origin": "ftp://127.0.0.1:8080"}, "origin"),
        ({"origin": "http://127.0.0.1:99999"}, "origin"),
        ({"sec-fetch-site": "cross-site"}, "sec-fetch-site"),
        ({"sec-fetch-site": "same-site"}, "sec-fetch-site"),
        ({"sec-fetch-site": "cross-site", "referer": OWN}, "sec-fetch-site"),
        ({"referer": "http://attacker.example/page"}, "referer"),
    ],
)
def test_a_change_must_come_from_the_servers_own_pages(
    headers: dict[str, str], refused: str | None
) -> None:
    for method in ("GET", "HEAD", "OPTIONS"):
        check_same_origin(method, headers, HOST, OWN)  # reading changes nothing
    for method in ("POST", "put", "PATCH", "DELETE"):
        if refused is None:
            check_same_origin(method, headers, HOST, OWN)
            continue
        with pytest.raises(InvalidInput) as error:
            check_same_origin(method, headers, HOST, OWN)
        assert error.value.field == refused and OWN in str(error.value.allowed)


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://decisis.example", ("decisis.example", None), True),
        ("https://decisis.example", ("decisis.example", None), True),
        ("http://decisis.example", ("decisis.example", 80), True),
        ("https://decisis.example", ("decisis.example", 443), True),
        ("http://decisis.example:8080", ("decisis.example", None), False),
        ("http://decisis.example", ("decisis.example", 8080), False),
        ("http://[::1]:8080", ("::1", 8080), True),
        ("http://[0::1]:8080", ("::1", 8080), True),
    ],
)
def test_the_origin_is_the_host_and_port_the_browser_used(
    origin: str, host: tuple[str, int | None], same: bool
) -> None:
    if same:
        check_same_origin("POST", {"origin": origin}, host, "")
    else:
        with pytest.raises(InvalidInput):
            check_same_origin("POST", {"origin": origin}, host, "")


def test_a_body_is_counted_as_it_comes() -> None:
    check_body_size(str(MAX_BODY_BYTES))
    check_body_size(None)
    with pytest.raises(InvalidInput, match="is 1,048,577 bytes") as refused:
        check_body_size(str(MAX_BODY_BYTES + 1))
    assert refused.value.allowed == "at most 1,048,576 bytes (1 MiB) a request"

    def chunks(*sizes: int) -> Receive:
        sent = iter([{"type": "http.request", "body": b"x" * n, "more_body": True} for n in sizes])

        async def receive() -> dict[str, Any]:
            return next(sent, {"type": "http.request", "body": b"", "more_body": False})

        return receive

    read = asyncio.run(read_body(chunks(10, 10), limit=20))
    assert sum(len(m["body"]) for m in read) == 20
    with pytest.raises(InvalidInput, match="more than 20 bytes"):
        asyncio.run(read_body(chunks(10, 10, 1, 10**9), limit=20))  # never reads the last
