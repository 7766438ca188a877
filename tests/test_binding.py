"""Which addresses a server may bind without a way to tell who is calling."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from decisis import InvalidInput
from decisis.binding import bearer_matches, check_bind, check_local, check_token, is_loopback
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
