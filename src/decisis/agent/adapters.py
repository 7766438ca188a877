"""The decision tools in the OpenAI (Chat Completions and Responses) and Anthropic API
formats, and one dispatcher for all three.

``dispatch(toolbox, call)`` takes a tool call as the SDK gives it (an object or its dict)
and returns what carries the result back:

* OpenAI Chat Completions (``openai_tools``): a ``tool_calls`` entry in, a
  ``{"role": "tool", "tool_call_id": ..., "content": ...}`` message out.
* OpenAI Responses (``responses_tools``): a ``function_call`` output item in, a
  ``{"type": "function_call_output", "call_id": ..., "output": ...}`` input item out.
* Anthropic Messages (``anthropic_tools``): a ``tool_use`` block in, a
  ``{"role": "user", "content": [{"type": "tool_result", ...}]}`` message out.

``dispatch_all(toolbox, calls)`` runs every call of one turn, in order, and returns what
to append to the conversation: the Chat Completions tool messages and the Responses
output items one per call, and Anthropic's results gathered into the one user message
that API wants per turn. Calls that are not tool calls (a Responses ``message`` item, an
Anthropic ``text`` block) are the caller's to leave out; ``dispatch`` refuses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from decisis.agent.tools import TOOLS, Toolbox, ToolResult, ToolSpec

__all__ = ["anthropic_tools", "dispatch", "dispatch_all", "openai_tools", "responses_tools"]


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


def responses_tools(specs: Sequence[ToolSpec] = TOOLS) -> list[dict[str, Any]]:
    """The ``tools`` argument of ``client.responses.create`` (function tools are flat there:
    name, description and parameters beside ``type``). ``strict`` is off: strict mode wants
    every property required, and the tools have optional arguments with defaults."""
    return [
        {
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.schema,
            "strict": False,
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
    """Run one OpenAI tool call (Chat Completions or Responses ``function_call``) or
    Anthropic ``tool_use`` block; return the result message or item."""
    data = _as_dict(call)
    if data.get("type") == "tool_use":
        result = toolbox.call(str(data.get("name", "")), data.get("input") or {})
        return {"role": "user", "content": [_anthropic_block(result, str(data.get("id", "")))]}
    if data.get("type") == "function_call":
        result = toolbox.call(str(data.get("name", "")), data.get("arguments"))
        call_id = str(data.get("call_id", ""))
        return {"type": "function_call_output", "call_id": call_id, "output": result.text}
    function = data.get("function")
    if not isinstance(function, dict):
        raise TypeError(
            "not a tool call: expected an OpenAI tool call or function_call item, "
            "or an Anthropic tool_use block"
        )
    result = toolbox.call(str(function.get("name", "")), function.get("arguments"))
    return {"role": "tool", "tool_call_id": str(data.get("id", "")), "content": result.text}


def dispatch_all(toolbox: Toolbox, calls: Iterable[Any]) -> list[dict[str, Any]]:
    """Results of one turn's calls, in order: OpenAI tool messages or Responses output
    items, one per call, then Anthropic's results as the one user message of the turn."""
    messages = [dispatch(toolbox, call) for call in calls]
    blocks = [b for m in messages if m.get("role") == "user" for b in m["content"]]
    others = [m for m in messages if m.get("role") != "user"]
    return others + ([{"role": "user", "content": blocks}] if blocks else [])
