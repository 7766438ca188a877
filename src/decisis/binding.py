"""Which addresses a server of decisis may bind: a front door without a way to tell who is
calling (the MCP server over HTTP, the web app without a token) serves this machine only,
since whoever reached the port could read every decision and record new ones."""

from __future__ import annotations

import ipaddress

from decisis.errors import InvalidInput

__all__ = ["check_local", "is_loopback"]

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})


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
