"""The example agent loop, for real over HTTP: model -> tool call -> store -> context next turn.

The official ``openai`` client talks to the local fake server (``tests.got.fake_server``),
whose script answers with tool calls built from what the earlier tool results said.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from openai import OpenAI

from decisis.agent import AgentMemory
from decisis.model import EdgeType, NodeType
from tests.got.fake_server import Reply, serve

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent_loop.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("agent_loop", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def completion(body: dict[str, Any], message: dict[str, Any]) -> Reply:
    whole = {
        "id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }  # fmt: skip
    return Reply(raw=json.dumps(whole).encode())


def tool_call(n: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{n}", "type": "function", "function": function}
    ]}  # fmt: skip


def script(body: dict[str, Any], attempt: int) -> Reply:
    """Goal, then a decision under it (id from the tool result), a bad call, then done."""
    results = [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]
    if "second run" in body["messages"][1]["content"]:
        return completion(body, {"role": "assistant", "content": "nothing to do"})
    if not results:
        return completion(body, tool_call(1, "add_goal", {"label": "Ship search"}))
    if len(results) == 1:
        goal = results[0]["goal"]["id"]
        args = {"label": "Use SQLite FTS5", "goal_id": goal, "rejected": ["Elasticsearch"]}
        return completion(body, tool_call(2, "record_decision", args))
    if len(results) == 2:
        return completion(body, tool_call(3, "record_decision", {"chosen": "x"}))
    return completion(body, {"role": "assistant", "content": "done"})


def test_the_loop_records_decisions_and_shows_them_next_turn(tmp_path: Path) -> None:
    example = load_example()
    config = {"store": f"sqlite:///{tmp_path / 'loop.db'}", "inject_strategy": "every_iteration"}
    memory = AgentMemory.open(config)
    graph = memory.graph
    assert graph is not None
    with serve(script) as server:
        client = OpenAI(api_key="test", base_url=server.openai_url, max_retries=0)
        answer = example.run_agent(client, memory, "first run: plan search", model="m")
        assert answer == "done"
        first, second, third, fourth = server.requests
        assert [t["function"]["name"] for t in first["tools"]][:2] == [
            "add_goal",
            "record_decision",
        ]
        assert "Decision memory" not in first["messages"][0]["content"]
        assert "Ship search (active)" in second["messages"][0]["content"]
        assert "Use SQLite FTS5" in third["messages"][0]["content"]
        bad = json.loads(fourth["messages"][-1]["content"])
        assert "chosen" in bad["error"]["message"] and bad["error"]["allowed"]

        later = AgentMemory.open({"store": config["store"]})  # a new run, a new process's view
        example.run_agent(client, later, "second run", model="m")
        assert "Use SQLite FTS5" in server.requests[-1]["messages"][0]["content"]
        later.close()

    [decision] = [n for n in graph.nodes(types=[NodeType.DECISION]) if n.label == "Use SQLite FTS5"]
    [goal] = graph.active_goals()
    assert [(e.type, n.label) for e, n in graph.children(decision.id)] == [
        (EdgeType.REJECTED, "Elasticsearch")
    ]
    assert [n.id for _, n in graph.children(goal.id)] == [decision.id]
    runs = [n for n in graph.nodes(types=[NodeType.DECISION]) if n.metadata.get("kind")]
    assert [r.metadata["provenance"]["outcome"] for r in runs] == ["succeeded", "succeeded"]
    assert len(runs[0].metadata["provenance"]["spans"]) == 4
    memory.close()


def test_the_example_runs_against_a_local_server_without_a_key(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    store = f"sqlite:///{tmp_path / 'example.db'}"
    with serve(script) as server:
        done = subprocess.run(
            [sys.executable, str(EXAMPLE), "--store", store, "--base-url", server.openai_url,
             "--model", "m", "first run: plan search"],
            check=False, env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "done"
