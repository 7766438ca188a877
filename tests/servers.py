"""Run a ``decisis`` server command as a real subprocess on a free local port, for the tests
of the front doors that speak HTTP (the MCP server, the web app)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, proc: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    """Until something listens on ``port``; fails if the server exits or never listens."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server exited early"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listened on port {port}")


@contextmanager
def running(args: list[str], log_path: Path) -> Iterator[int]:
    """``python -m decisis ARGS --port P`` running until the block ends; gives ``P``."""
    port = free_port()
    with log_path.open("wb") as log:
        cmd = [sys.executable, "-m", "decisis", *args, "--port", str(port)]
        proc = subprocess.Popen(cmd, stdout=log, stderr=log)
        try:
            wait_for(port, proc)
            yield port
        finally:
            proc.terminate()
            proc.wait(timeout=10)
