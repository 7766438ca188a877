"""Who may reach a server of decisis (the web app, the MCP server over HTTP).

Without a token a server serves this machine only (``check_bind``): whoever reached the
port could read every decision and record new ones. With a token (``--token``, or
``DECISIS_TOKEN``) it may bind any address, and every request must carry the token as
``Authorization: Bearer <token>`` (``bearer_matches``; ``BearerOnly`` guards any ASGI app
that way, answering 401 in the usual error form and passing nothing on).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from decisis.errors import InvalidInput, Unauthorized

__all__ = [
    "MIN_TOKEN_CHARS",
    "BearerOnly",
    "bearer_matches",
    "check_bind",
    "check_local",
    "check_token",
    "is_loopback",
    "token_matches",
]

MIN_TOKEN_CHARS = 16
_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host.lower() in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name other than localhost: it may resolve to anything
        return False


def check_local(host: str, instead: str) -> None:
    """Refuse ``host`` unless it is a loopback address; ``instead`` says what else would do."""
    if not is_loopback(host):
        raise InvalidInput(
            "host",
            f"{host} can be reached from other machines, and nothing checks who is calling",
            f"a loopback address (127.0.0.1, ::1, localhost); {instead}",
        )


def check_bind(host: str, token: str | None) -> str | None:
    """The token a server on ``host`` is to require (checked), or ``None`` for a server of
    this machine; refuses to serve other machines without one."""
    if token is not None:
        return check_token(token)
    check_local(host, "or --token (DECISIS_TOKEN), which every request must then carry")
    return None


def check_token(token: object) -> str:
    """``token`` if it can guard a server: text of at least ``MIN_TOKEN_CHARS`` characters."""
    if not isinstance(token, str) or len(token.strip()) < MIN_TOKEN_CHARS:
        size = f"{len(token)} characters" if isinstance(token, str) else type(token).__name__
        raise InvalidInput(
            "token",
            f"is too short to guard a server ({size})",
            f"at least {MIN_TOKEN_CHARS} characters, for example from "
            "python -c 'import secrets; print(secrets.token_urlsafe())'",
        )
    return token.strip()


def token_matches(given: str, token: str) -> bool:
    """Whether ``given`` (surrounding spaces aside) is ``token``, compared in constant time."""
    return hmac.compare_digest(given.strip().encode(), token.encode())


def bearer_matches(authorization: str, token: str) -> bool:
    """Whether an ``Authorization`` header value carries ``token``."""
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and token_matches(given, token)


class BearerOnly:
    """An ASGI app that passes on only the HTTP requests carrying the token."""

    def __init__(self, app: ASGIApp, token: str, how: str = "an Authorization: Bearer header"):
        self.app = app
        self.token = check_token(token)
        self.how = how

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: the app's own start and stop
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        if bearer_matches(authorization, self.token):
            await self.app(scope, receive, send)
            return
        from decisis.forms import error_dict

        body = json.dumps(error_dict(Unauthorized("this server needs its token", self.how)))
        raw = body.encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(raw)).encode()),
                    (b"www-authenticate", b"Bearer"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": raw})
