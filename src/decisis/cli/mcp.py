"""``decisis mcp``: serve the decision tools to MCP clients (stdio, or streamable HTTP).

The command parses options and hands over to ``decisis.mcp_server``. A store that
cannot be found or opened does not stop the server: its tools answer that they are
disabled and why, and a warning goes to stderr (stdout belongs to the protocol).
"""

from __future__ import annotations

from typing import Annotated

import typer

from decisis.cli.common import AllowHostOpt, TokenOpt
from decisis.cli.state import get_state
from decisis.errors import StoreError

__all__ = ["mcp", "register"]


def mcp(
    ctx: typer.Context,
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP at /mcp instead of stdio.")
    ] = False,
    host: Annotated[
        str, typer.Option("--host", help="Address to bind with --http (local only by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on with --http.")] = 8000,
    agent: Annotated[
        str | None, typer.Option("--agent", help="Name recorded as the author of writes.")
    ] = None,
    token: TokenOpt = None,
    allow_host: AllowHostOpt = None,
) -> None:
    """Run an MCP server with the decision tools and the context summary.

    Add it to Claude Code with: claude mcp add decisis -- decisis mcp
    """
    from decisis.agent.config import AgentConfig, AgentMemory
    from decisis.binding import allowed_hosts, check_bind
    from decisis.mcp_server.server import run

    if http:  # before the store is opened: nothing to undo
        token = check_bind(host, token)
        allowed_hosts(host, token, allow_host or ())  # a bad name is refused here too
    state = get_state(ctx)
    try:
        url = state.store_url()
    except StoreError as exc:
        memory = AgentMemory(AgentConfig(store="memory://"), None, str(exc))
        typer.echo(f"warning: decisis tools are disabled: {exc}", err=True)
    else:
        config = AgentConfig(store=url, graph=state.graph_name, agent=agent)
        memory = AgentMemory.open(config)
        if not memory.enabled:
            typer.echo(
                f"warning: decisis tools are disabled: {memory.tools.disabled_reason}", err=True
            )
    try:
        run(memory, http=http, host=host, port=port, token=token, allow_hosts=allow_host or ())
    finally:
        memory.close()


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(mcp)
