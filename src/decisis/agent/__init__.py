"""decisis for agents: decision tools, the context summary, per-run recording, API adapters.

    memory = AgentMemory.open({"store": "sqlite:///decisions.db"})
    system = memory.system_prompt("You are a careful engineer.")
    tools = openai_tools()       # or responses_tools(), anthropic_tools()
    replies = dispatch_all(memory.tools, tool_calls)  # what carries the results back

Needs pydantic (the tool schemas are generated from its models).
"""

from decisis.agent.adapters import (
    anthropic_tools,
    dispatch,
    dispatch_all,
    openai_tools,
    responses_tools,
)
from decisis.agent.config import AgentConfig, AgentMemory, validate_config
from decisis.agent.context import build_context
from decisis.agent.recorder import Recorder, Run
from decisis.agent.tools import TOOLS, Toolbox, ToolResult, ToolSpec, tool_names

__all__ = [
    "TOOLS",
    "AgentConfig",
    "AgentMemory",
    "Recorder",
    "Run",
    "ToolResult",
    "ToolSpec",
    "Toolbox",
    "anthropic_tools",
    "build_context",
    "dispatch",
    "dispatch_all",
    "openai_tools",
    "responses_tools",
    "tool_names",
    "validate_config",
]
