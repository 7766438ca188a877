"""decisis as an MCP server (``decisis mcp``); needs the ``mcp`` extra.

Named ``mcp_server``, not ``mcp``, so it can never shadow the SDK's own ``mcp`` package.
"""

from __future__ import annotations

__all__: list[str] = []
