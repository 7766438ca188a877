"""The MCP server lists and runs the stale-work and plan-check tools like every other."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

import decisis
from decisis.agent.config import AgentMemory, validate_config
from decisis.mcp_server.server import build_server


def test_stale_and_plan_tools_over_mcp(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mcp.db'}"
    graph = decisis.open(url)
    old = graph.record_decision("Use Jenkins for CI")
    graph.add_node("action", "Write a Jenkinsfile", parent=old.id)
    graph.supersede(old.id, graph.record_decision("Use GitHub Actions").id)
    server = build_server(AgentMemory(validate_config({"store": url}), graph))

    async def exercise() -> None:
        names = {tool.name for tool in await server.list_tools()}
        assert {"stale_dependents", "reaffirm_decision", "check_plan"} <= names
        stale = await server.call_tool("stale_dependents", {})
        [item] = json.loads(stale.content[0].text)["stale"]  # type: ignore[union-attr]
        assert item["rests_on"]["label"] == "Use Jenkins for CI"
        checked = await server.call_tool("check_plan", {"plan": "- Add a Jenkins job"})
        [step] = json.loads(checked.content[0].text)["steps"]  # type: ignore[union-attr]
        assert step["findings"][0]["standing"][0]["label"] == "Use GitHub Actions"

    anyio.run(exercise)
