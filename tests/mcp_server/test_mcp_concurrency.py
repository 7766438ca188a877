"""A slow tool call must not hold up the other sessions of a streamable-HTTP MCP server.

The server runs in this process (uvicorn in a thread) so that a tool added for the test can
wait on an event that only the other session's request releases: served on the event loop,
the tool would block that request forever (the test fails on its timeout); served from a
worker thread, the other session is answered while the tool waits.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import uvicorn

import decisis
from decisis.agent.config import AgentMemory, validate_config
from decisis.agent.tools import ToolSpec
from decisis.forms import ToolArgs
from decisis.graph import Graph
from decisis.mcp_server.server import build_server, http_app
from tests.mcp_server.test_mcp_server import data, http_session
from tests.servers import free_port


class Wait(ToolArgs):
    pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, threading.Event]]:
    """An in-process MCP server over streamable HTTP with a ``wait`` tool that returns only
    once the event it gives is set; the server's URL and that event."""
    url = f"sqlite:///{tmp_path / 'mcp.db'}"
    config = validate_config({"store": url})
    memory = AgentMemory(config, decisis.open(url))
    released = threading.Event()

    def wait(graph: Graph, args: Any) -> dict[str, Any]:
        return {"released": released.wait(timeout=20)}

    server = build_server(memory)
    memory.tools.specs["wait"] = ToolSpec("wait", "Waits for the test.", Wait, wait)
    port = free_port()
    config_ = uvicorn.Config(http_app(server), host="127.0.0.1", port=port, log_level="warning")
    runner = uvicorn.Server(config_)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not runner.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/mcp", released
    finally:
        released.set()
        runner.should_exit = True
        thread.join(timeout=20)
        memory.close()


def test_a_waiting_tool_does_not_hold_up_another_session(
    served: tuple[str, threading.Event],
) -> None:
    url, released = served

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            waited: dict[str, Any] = {}

            async def slow() -> None:
                async with http_session(url) as session:
                    waited.update(data(await session.call_tool("wait", {})))

            tasks.start_soon(slow)
            async with http_session(url) as other:
                with anyio.fail_after(10):  # on the event loop, the wait tool would block this
                    goal = await other.call_tool("add_goal", {"label": "Answered meanwhile"})
                    assert data(goal)["goal"]["label"] == "Answered meanwhile"
                    [context] = (await other.read_resource("decisis://context")).contents
                    assert "Answered meanwhile" in getattr(context, "text", "")
            assert not waited  # the slow call is still waiting
            released.set()
        assert waited == {"released": True}

    anyio.run(main)
