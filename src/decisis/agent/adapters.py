"""The decision tools in the OpenAI and Anthropic API formats, and one dispatcher for both.

``dispatch(toolbox, call)`` takes a tool call as either SDK gives it (an object or its
dict) and returns the message that carries the result back:

* OpenAI chat completions: ``{"role": "tool", "tool_call_id": ..., "content": ...}``
* Anthropic messages: ``{"role": "user", "content": [{"type": "tool_result", ...}]}``

Anthropic wants every result of one turn in one user message: ``dispatch_all``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from decisis.agent.tools import TOOLS, Toolbox, ToolResult, ToolSpec

__all__ = ["anthropic_tools", "dispatch", "dispatch_all", "openai_tools"]


def openai_tools(specs: Sequence[ToolSpec] = TOOLS) -> list[dict[str, Any]]:
    """The ``tools`` argument of ``client.chat.completions.create``."""
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.schema,
            },
        }
        for spec in specs
    ]


def anthropic_tools(specs: Sequence[ToolSpec] = TOOLS) -> list[dict[str, Any]]:
    """The ``tools`` argument of ``client.messages.create``."""
    return [
        {"name": spec.name, "description": spec.description, "input_schema": spec.schema}
        for spec in specs
    ]


def _as_dict(call: Any) -> dict[str, Any]:
    if isinstance(call, dict):
        return call
    dump = getattr(call, "model_dump", None)
    if callable(dump):
        result = dump()
        if isinstance(result, dict):
            return result
    raise TypeError(f"not a tool call: {type(call).__name__}")


def _anthropic_block(result: ToolResult, call_id: str) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": result.text}
    if result.is_error:
        block["is_error"] = True
    return block


def dispatch(toolbox: Toolbox, call: Any) -> dict[str, Any]:
    """Run one OpenAI tool call or Anthropic ``tool_use`` block; return the result message."""
    data = _as_dict(call)
    if data.get("type") == "tool_use":
        result = toolbox.call(str(data.get("name", "")), data.get("input") or {})
        return {"role": "user", "content": [_anthropic_block(result, str(data.get("id", "")))]}
    function = data.get("function")
    if not isinstance(function, dict):
        raise TypeError("not a tool call: expected an OpenAI tool call or an Anthropic tool_use")
    result = toolbox.call(str(function.get("name", "")), function.get("arguments"))
    return {"role": "tool", "tool_call_id": str(data.get("id", "")), "content": result.text}


def dispatch_all(toolbox: Toolbox, calls: Iterable[Any]) -> list[dict[str, Any]]:
    """Results of one turn's calls: OpenAI tool messages, or one Anthropic user message."""
    messages = [dispatch(toolbox, call) for call in calls]
    blocks = [b for m in messages if m["role"] == "user" for b in m["content"]]
    others = [m for m in messages if m["role"] != "user"]
    return others + ([{"role": "user", "content": blocks}] if blocks else [])
