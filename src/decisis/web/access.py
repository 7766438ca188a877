"""Who may use the web front door: anyone on this machine, or whoever carries the token.

Without a token the server only binds a loopback address (``decisis.binding``): whoever
reaches the port could read every decision and write new ones. With a token (``decisis serve
--token``, or ``DECISIS_TOKEN``), every request must carry it: scripts send
``Authorization: Bearer <token>``; people sign in once at ``/login``, which sets a cookie
holding a value derived from the token (not the token itself), sent only to this site
(``SameSite=Strict``, so another site's form cannot post with it) and hidden from scripts.
Before this gate, every request passes ``decisis.binding.Guard`` (``create_app``): a change
must come from this server's own pages whether or not a token guards it, and the cookie,
unlike the token itself, does not excuse a request from that check.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from decisis.binding import bearer_matches, check_token, token_matches
from decisis.errors import Unauthorized

__all__ = ["COOKIE", "LOGIN_PATH", "TokenGate", "safe_next"]

COOKIE = "decisis_session"
LOGIN_PATH = "/login"
_HOW = "an Authorization: Bearer <token> header, or sign in at /login"


def safe_next(path: str | None) -> str:
    """Where to go after signing in: a path on this site, never another site."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


class TokenGate:
    """The check every request passes before a route sees it (an HTTP middleware)."""

    def __init__(self, token: str):
        self._token = check_token(token)
        key = self._token.encode()
        self.session = hmac.new(key, b"decisis web session", hashlib.sha256).hexdigest()

    def accepts(self, request: Request) -> bool:
        """Whether ``request`` carries the token, or the cookie of a signed-in person."""
        if bearer_matches(request.headers.get("authorization", ""), self._token):
            return True
        cookie = request.cookies.get(COOKIE, "")
        return hmac.compare_digest(cookie.encode(), self.session.encode())

    def signs_in(self, token: str) -> bool:
        """Whether ``token``, typed at ``/login``, is the server's."""
        return token_matches(token, self._token)

    def set_cookie(self, response: Response, request: Request) -> None:
        """The signed-in cookie, sent back only over HTTPS when it came over HTTPS."""
        secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE, self.session, httponly=True, samesite="strict", path="/", secure=secure
        )

    async def __call__(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if request.url.path == LOGIN_PATH or self.accepts(request):
            return await call_next(request)
        if request.url.path.startswith("/api/") or request.method != "GET":
            from decisis.web.site import error_response

            refused = Unauthorized("this server needs its token", _HOW)
            response = error_response(request, refused)
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        query = urlencode({"next": target})
        return RedirectResponse(f"{LOGIN_PATH}?{query}", status_code=303)
