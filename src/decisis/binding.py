"""Who may reach a server of decisis (the web app, the MCP server over HTTP), and which
requests it answers.

Binding. Without a token a server serves this machine only (``check_bind``): whoever
reached the port could read every decision and record new ones. With a token (``--token``,
or ``DECISIS_TOKEN``) it may bind any address, and every request must carry the token as
``Authorization: Bearer <token>`` (``bearer_matches``; ``BearerOnly`` guards any ASGI app
that way, answering 401 in the usual error form and passing nothing on).

Requests. Binding a loopback address does not keep other sites out: a page anywhere can make
the browser of someone on this machine send requests here. ``Guard`` (an ASGI middleware the
web app wears) passes on only these, and answers the rest in the usual error form, naming
the header that was wrong and what is allowed:

- **Host** is a name the server answers to (``Hosts``), else 421 Misdirected Request (the
  status the MCP SDK's own check answers): the loopback names (127.0.0.1 and the rest of
  127/8, ``[::1]``, ``localhost``) at any port, the names given with ``--allow-host``, and,
  for a server bound to an address other machines reach (which needs a token), that address.
  A page on another site can point its own name at 127.0.0.1 (DNS rebinding) and then read
  and post as if it were one of ours, but its requests still name it in ``Host``.
- **A change comes from this server's own pages** (``check_same_origin``), else 403: for any
  method but GET, HEAD and OPTIONS, an ``Origin`` must be this request's own origin (its host
  and port those of ``Host``: a page on another port of this machine is another origin);
  without one, ``Sec-Fetch-Site`` must say ``same-origin`` (or ``none``: the person typed
  it); without that either, a ``Referer`` must be a page of ours. A request with none of the
  three is not from a browser page (curl, scripts: browsers send ``Origin`` with every
  cross-origin POST), and forgery needs a browser page. Why a same-origin check and not a
  CSRF token: it needs no state and no hidden field in every form, a server without a token
  has no session to tie a CSRF token to, and it covers the JSON API and the pages alike.
  A request that carries the server's token (``Authorization: Bearer``) skips it: forgery
  rides on what the browser adds by itself (the sign-in cookie, or merely being on this
  machine), and another site's page cannot add the token (a form cannot set headers, and a
  script's cross-origin request with one needs a CORS preflight this server never grants),
  while whoever has the token needs no forgery. The sign-in cookie does not skip it.
- **The body** is at most ``MAX_BODY_BYTES``, else 413: a declared ``Content-Length`` over
  it is refused before a byte of the body is read, and a body sent in chunks is counted as
  it comes and refused as soon as it passes the limit (``read_body``).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from decisis.errors import DecisisError, InvalidInput, Unauthorized

__all__ = [
    "MAX_BODY_BYTES",
    "MIN_TOKEN_CHARS",
    "SAFE_METHODS",
    "BearerOnly",
    "Guard",
    "Hosts",
    "allowed_hosts",
    "bearer_matches",
    "check_bind",
    "check_body_size",
    "check_host_name",
    "check_local",
    "check_same_origin",
    "check_token",
    "is_loopback",
    "read_body",
    "refuse_json",
    "split_host",
    "token_matches",
]

MIN_TOKEN_CHARS = 16
MAX_BODY_BYTES = 1024 * 1024
"""The largest request body a server reads (1 MiB). The largest bodies it takes are a
question (at most 4,000 characters), a correction, and a decision tool's arguments (a
label of at most 500 characters, a rationale, metadata): kilobytes. A mebibyte leaves them
room a thousand times over, and bounds what each of the server's threads holds at once."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # methods that change nothing here
_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})
_LOOPBACK_SHOWN = "127.0.0.1, localhost, [::1] (any port)"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_NAME = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")
_HOST = re.compile(r"(?P<name>\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(?P<port>[0-9]{1,5}))?")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Refuse = Callable[[Scope, Receive, Send, int, DecisisError], Awaitable[None]]
"""How a ``Guard`` answers a refused request: ``(scope, receive, send, status, error)``."""


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


# -- Host ------------------------------------------------------------------------------
def _ip(text: str) -> str | None:
    """``text`` as an IP address in its one written form (``::1`` for ``0:0::1``), or None."""
    try:
        return ipaddress.ip_address(text).compressed
    except ValueError:
        return None


def check_host_name(name: str) -> str:
    """``name`` (an ``--allow-host`` value) as ``Hosts`` compares it: a host name or an IP
    address, lowercased, without brackets or a final dot; refuses a port, a scheme, a path
    or a pattern, which would let through more than the one name meant."""
    given = name.strip().lower()
    address = _ip(given.removeprefix("[").removesuffix("]"))
    if address is not None:
        return address
    bare = given.removesuffix(".")
    if _NAME.fullmatch(bare) is None or bare.replace(".", "").isdigit():
        raise InvalidInput(
            "allow-host",
            f"{name!r} is not a host name",
            "a host name or address alone, without scheme, port or path: "
            "decisis.example, 10.0.0.5, [fd00::5]",
        )
    return bare


def split_host(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header (``[::1]:8080`` gives ``("::1", 8080)``), the name
    as ``check_host_name`` writes it (no port: ``None``); ``None`` for what is not a host."""
    found = _HOST.fullmatch(value.strip().lower())
    if found is None:
        return None
    name, port = found["name"], int(found["port"]) if found["port"] else None
    if name.startswith("["):
        address = _ip(name[1:-1])
        return None if address is None or ":" not in address else (address, port)
    name = name.removesuffix(".")
    return (name, port) if _NAME.fullmatch(name) else None


def _shown(name: str) -> str:
    """A name as a ``Host`` header writes it (an IPv6 address in brackets)."""
    return f"[{name}]" if ":" in name else name


@dataclass(frozen=True)
class Hosts:
    """The names a server answers to in ``Host``: the loopback names always, and ``names``
    (each as ``check_host_name`` writes it)."""

    names: frozenset[str] = frozenset()

    @classmethod
    def of(cls, names: Iterable[str]) -> Hosts:
        """The loopback names and ``names`` (checked: ``check_host_name``)."""
        return cls(frozenset(check_host_name(name) for name in names))

    def allows(self, name: str) -> bool:
        return is_loopback(name) or name in self.names

    def check(self, header: str | None) -> tuple[str, int | None]:
        """The ``(name, port)`` a ``Host`` header names, if the server answers to it; else
        ``InvalidInput`` naming it and how to have it answered."""
        shown = ", ".join([_LOOPBACK_SHOWN, *map(_shown, sorted(self.names))])
        if not header:
            raise InvalidInput("host", "is missing: every HTTP/1.1 request names one", shown)
        found = split_host(header)
        if found is None:
            raise InvalidInput("host", f"{header[:100]!r} is not a host name", shown)
        if not self.allows(found[0]):
            name = _shown(found[0])
            raise InvalidInput(
                "host",
                f"{name} is not a name this server answers to (a page on another site can "
                "point its name at this machine: DNS rebinding)",
                f"{shown}; to answer to {name} too, start it with --allow-host {name}",
            )
        return found


def allowed_hosts(bind: str, token: str | None, allow: Iterable[str] = ()) -> frozenset[str]:
    """The names besides the loopback ones that a server bound to ``bind`` answers to:
    ``allow`` (checked), and ``bind`` itself when it is an address other machines reach
    (which a token must guard), not 0.0.0.0 or :: (every address, no one's name)."""
    names = {check_host_name(name) for name in allow}
    address = _ip(bind.strip("[]"))
    if token is not None and not is_loopback(bind):
        if address is None:
            names.add(check_host_name(bind))
        elif not ipaddress.ip_address(address).is_unspecified:
            names.add(address)
    return frozenset(names)


# -- Origin ----------------------------------------------------------------------------
def _same_origin(url: str, host: tuple[str, int | None]) -> bool:
    """Whether ``url`` (an ``Origin``, or a ``Referer``) is of the site ``host`` names: the same
    name and port (a ``Host`` without a port is the default port of the browser's scheme)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return False
    name, host_port = host
    if split_host(parts.netloc.rpartition("@")[2]) is None:
        return False
    origin_name = _ip(parts.hostname) or parts.hostname.lower().removesuffix(".")
    if origin_name != name:
        return False
    if host_port is None:
        return port is None or port == _DEFAULT_PORTS[parts.scheme]
    return (port or _DEFAULT_PORTS[parts.scheme]) == host_port


def check_same_origin(
    method: str,
    headers: Mapping[str, str],
    host: tuple[str, int | None],
    own: str,
    *,
    guarded: bool = False,
) -> None:
    """Refuse a request that can change something (``method`` not in ``SAFE_METHODS``) sent by
    a page of another origin, judged by ``Origin``, else ``Sec-Fetch-Site``, else ``Referer``
    (``headers`` keyed in lower case); ``host`` is the request's ``Host`` (split), ``own``
    this server's origin as the request reached it and ``guarded`` whether a token guards
    the server (which a request may carry instead), both for the error."""
    if method.upper() in SAFE_METHODS:
        return
    allowed = f"a change from this server's own pages ({own}) or from a program (no Origin)"
    allowed += ", or one carrying the token in Authorization: Bearer" if guarded else ""
    origin = headers.get("origin")
    if origin is not None:
        if not _same_origin(origin, host):
            problem = f"{origin[:200]} is not this server's origin: a page elsewhere sent it"
            raise InvalidInput("origin", problem, allowed)
        return
    fetched = headers.get("sec-fetch-site")
    if fetched is not None:
        if fetched.strip().lower() not in ("same-origin", "none"):
            problem = f"is {fetched[:40]}: a page of another origin sent the request"
            raise InvalidInput("sec-fetch-site", problem, allowed)
        return
    referer = headers.get("referer")
    if referer and not _same_origin(referer, host):
        problem = f"{referer[:200]} is a page of another origin than this server's"
        raise InvalidInput("referer", problem, allowed)


# -- Body ------------------------------------------------------------------------------
def _size(limit: int) -> str:
    mib, kib = divmod(limit, 1024 * 1024), divmod(limit, 1024)
    unit = f" ({mib[0]} MiB)" if not mib[1] else f" ({kib[0]} KiB)" if not kib[1] else ""
    return f"at most {limit:,} bytes{unit} a request"


def check_body_size(declared: str | None, limit: int = MAX_BODY_BYTES) -> None:
    """Refuse a body whose ``Content-Length`` (``declared``) is over ``limit``, unread."""
    if declared is None or not declared.strip().isdigit():
        return  # none, or malformed: uvicorn refuses that itself; the count still applies
    if int(declared) > limit:
        raise InvalidInput("body", f"is {int(declared):,} bytes", _size(limit))


async def read_body(receive: Receive, limit: int = MAX_BODY_BYTES) -> list[Message]:
    """The request's messages up to the end of its body (or the client leaving), counted as
    they come: ``InvalidInput`` as soon as they pass ``limit`` bytes, the rest unread."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":  # http.disconnect: the app will hear of it
            return messages
        size += len(message.get("body", b""))
        if size > limit:
            raise InvalidInput("body", f"is more than {limit:,} bytes", _size(limit))
        if not message.get("more_body", False):
            return messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = deque(messages)

    async def replay() -> Message:
        return pending.popleft() if pending else await receive()

    return replay


# -- Answers ---------------------------------------------------------------------------
async def _send_json(
    send: Send, status: int, error: DecisisError, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    from decisis.errors import error_body

    raw = json.dumps(error_body(error)).encode()
    start = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": [*start, *headers]})
    await send({"type": "http.response.body", "body": raw})


async def refuse_json(
    scope: Scope, receive: Receive, send: Send, status: int, error: DecisisError
) -> None:
    """A ``Guard``'s answer to a refused request: the error as JSON (``decisis.forms``)."""
    await _send_json(send, status, error)


def _closing(send: Send) -> Send:
    """``send``, saying the connection closes after the answer (the body was left unread)."""

    async def closing(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {
                **message,
                "headers": [*message.get("headers", []), (b"connection", b"close")],
            }
        await send(message)

    return closing


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the last, where one is repeated)."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}


class Guard:
    """An ASGI app that passes on only the HTTP requests a server answers (module docstring):
    to a name in ``hosts``, changes from its own pages (or with ``token``), bodies of at most
    ``max_body`` bytes. ``refuse`` answers the rest (JSON unless told)."""

    def __init__(
        self,
        app: ASGIApp,
        hosts: Hosts | None = None,
        *,
        token: str | None = None,
        max_body: int = MAX_BODY_BYTES,
        refuse: Refuse = refuse_json,
    ) -> None:
        self.app = app
        self.hosts = hosts or Hosts()
        self.token = None if token is None else check_token(token)
        self.max_body = max_body
        self.refuse = refuse

    def _carries_token(self, headers: Mapping[str, str]) -> bool:
        return self.token is not None and bearer_matches(
            headers.get("authorization", ""), self.token
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan (the app's own start and stop); no WebSockets
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        try:
            host = self.hosts.check(headers.get("host"))
        except InvalidInput as refused:
            await self.refuse(scope, receive, send, 421, refused)
            return
        try:
            if not self._carries_token(headers):
                own = f"{scope.get('scheme', 'http')}://{headers['host'].strip().lower()}"
                guarded = self.token is not None
                check_same_origin(scope["method"], headers, host, own, guarded=guarded)
        except InvalidInput as refused:
            await self.refuse(scope, receive, send, 403, refused)
            return
        try:
            check_body_size(headers.get("content-length"), self.max_body)
            messages = await read_body(receive, self.max_body)
        except InvalidInput as refused:
            await self.refuse(scope, receive, _closing(send), 413, refused)
            return
        await self.app(scope, _replay(messages, receive), send)


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
        refused = Unauthorized("this server needs its token", self.how)
        await _send_json(send, 401, refused, [(b"www-authenticate", b"Bearer")])
