"""The MCP server: the decision tools and the context summary over stdio or streamable HTTP
(which serves this machine only, unless a token guards it, and answers only the host names it
is given, as the web app does: ``decisis.binding``).

Built on the official SDK's ``MCPServer``. Tools are listed from the same specs the
OpenAI and Anthropic adapters use (one schema source, pydantic), and every call goes
through ``Toolbox.call``; ``_to_mcp`` is the one place a tool result, error or not,
becomes an MCP ``CallToolResult`` (decisis errors as ``isError`` results that name
the field and what is allowed). The summary is the resource ``decisis://context``.
Tools and the summary run in worker threads, off the event loop that serves every
session.

The package is ``decisis.mcp_server`` so that it never shadows the SDK's ``mcp``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from decisis.agent.config import AgentMemory
from decisis.agent.tools import ToolResult, tool_guide
from decisis.binding import BearerOnly, Guard, Hosts, allowed_hosts, check_bind
from decisis.errors import MissingExtra

try:
    import anyio.to_thread
    from mcp.server.mcpserver import MCPServer
    from mcp.server.transport_security import TransportSecuritySettings
    from mcp_types import CallToolResult, TextContent
    from mcp_types import Tool as MCPTool
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("the MCP server", "mcp") from exc

__all__ = ["CONTEXT_URI", "DecisisMCP", "build_server", "http_app", "run"]

CONTEXT_URI = "decisis://context"
INSTRUCTIONS = (  # the words on each tool are the tool specs' own (``tool_guide``)
    f"{tool_guide()}\nRead {CONTEXT_URI} for where the work stands."
)
_EMPTY = "No goals or decisions recorded yet."


def _to_mcp(result: ToolResult) -> CallToolResult:
    """The one translation of a decisis tool result (and so of ``DecisisError``) into MCP."""
    text = TextContent(type="text", text=result.text)
    if result.is_error:
        return CallToolResult(content=[text], is_error=True)
    return CallToolResult(content=[text], structured_content=result.data, is_error=False)


class DecisisMCP(MCPServer[Any]):
    """``MCPServer`` whose tools come from the decisis tool specs, not from signatures."""

    def __init__(self, memory: AgentMemory) -> None:
        from decisis import __version__

        super().__init__(name="decisis", instructions=INSTRUCTIONS, version=__version__)
        self.memory = memory
        self.resource(
            CONTEXT_URI,
            name="context",
            description="Active goals and recent decisions, as markdown for a system prompt.",
            mime_type="text/markdown",
        )(self._context)

    async def _context(self) -> str:
        summary = await anyio.to_thread.run_sync(self.memory.summary)
        return summary or _EMPTY

    async def list_tools(self) -> list[MCPTool]:
        return [
            MCPTool(name=spec.name, description=spec.description, input_schema=spec.schema)
            for spec in self.memory.tools.specs.values()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> CallToolResult:
        """Run the tool in a worker thread: a call that reads or writes the store (the first
        answer on a large store takes seconds) must not stall the event loop that serves
        every other session and request (the stores are safe to share between threads)."""
        result = await anyio.to_thread.run_sync(self.memory.tools.call, name, arguments)
        return _to_mcp(result)


def build_server(memory: AgentMemory) -> DecisisMCP:
    return DecisisMCP(memory)


def http_app(
    server: DecisisMCP,
    *,
    host: str = "127.0.0.1",
    token: str | None = None,
    allow_hosts: Iterable[str] = (),
) -> Any:
    """The streamable-HTTP ASGI app of ``server`` (at ``/mcp``), behind the web app's
    ``Guard``: it answers requests naming the loopback names, ``allow_hosts`` and, with a
    token, the address bound (``decisis.binding.allowed_hosts``; the SDK's own check, which
    knows the loopback names only, is off). With ``token``, only requests that carry it as
    ``Authorization: Bearer`` reach the tools (``decisis.binding.BearerOnly``)."""
    own_check_off = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app: Any = server.streamable_http_app(host=host, transport_security=own_check_off)
    if token is not None:
        app = BearerOnly(app, token)
    return Guard(app, Hosts.of(allowed_hosts(host, token, allow_hosts)), token=token)


def run(
    memory: AgentMemory,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8000,
    token: str | None = None,
    allow_hosts: Iterable[str] = (),
) -> None:
    """Serve until stopped: stdio by default, else streamable HTTP at ``http://host:port/mcp``,
    on a loopback address only unless ``token`` is given, which every request must then carry.
    Over HTTP, what answering derives from the records is derived before the first request
    (``decisis.adr.answer.prepare``); over stdio the client is waiting to start, so it is not."""
    if not http:
        build_server(memory).run("stdio")
        return
    token = check_bind(host, token)
    import uvicorn

    from decisis.adr import prepare

    if memory.graph is not None:
        prepare(memory.graph)

    server = build_server(memory)
    level = server.settings.log_level.lower()
    app = http_app(server, host=host, token=token, allow_hosts=allow_hosts)
    uvicorn.run(app, host=host, port=port, log_level=level)
