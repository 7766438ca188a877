"""``decisis.agent`` exports a deliberate, sorted API and imports without the MCP SDK's help."""

from __future__ import annotations

import subprocess
import sys

import decisis.agent


def test_all_is_unique_and_resolves() -> None:  # its order is ruff's (RUF022)
    assert len(set(decisis.agent.__all__)) == len(decisis.agent.__all__)
    for name in decisis.agent.__all__:
        assert hasattr(decisis.agent, name), name


def test_importing_decisis_or_its_cli_does_not_load_agent_or_mcp() -> None:
    code = (
        "import sys, decisis, decisis.cli.app; "
        "print(sorted(m for m in sys.modules "
        "if m.startswith(('mcp', 'pydantic', 'decisis.agent', 'decisis.mcp_server'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
