"""Graph-of-Thoughts: a pure reasoning state machine, a runner for real models, and a
way to keep the thoughts on record.

* ``machine``     ``Machine``: messages in, directives out, never mutated, JSON round trip
* ``steps``       the transitions, as pure functions
* ``graph``       ``ThoughtGraph``: thoughts and edges with persistent adjacency indexes
* ``operations``  Generate, Refine, Score, KeepBestN, Connect, Aggregate
* ``tasks``       task registry (``text``, and ``sort`` from the GoT paper)
* ``prompts``     default prompt templates
* ``messages``    the messages and directives
* ``runner``      carries directives out with an async ``LLMClient`` (needs no extra)
* ``clients``     OpenAI-compatible and Anthropic clients (extras ``openai``/``anthropic``)
* ``scripted``    a deterministic scripted model, for tests and examples
* ``record``      ``record_thoughts(graph, machine)`` writes a run into a decisis graph

Nothing here imports a model SDK until a client is built.
"""

from __future__ import annotations

from .graph import ThoughtGraph
from .machine import Machine
from .messages import (
    CallModel,
    ChatMessage,
    Complete,
    Directive,
    EmitPartial,
    Fail,
    Input,
    LLMFailed,
    LLMPartial,
    LLMResult,
    ModelReply,
    Start,
    Termination,
)
from .operations import Aggregate, Connect, Generate, KeepBestN, Operation, Refine, Score
from .prompts import DEFAULT_PROMPTS, Prompts
from .tasks import Task, get_task, register_task, task_names
from .thoughts import EdgeKind, Phase, Thought, ThoughtEdge, Usage

__all__ = [
    "DEFAULT_PROMPTS",
    "Aggregate",
    "CallModel",
    "ChatMessage",
    "Complete",
    "Connect",
    "Directive",
    "EdgeKind",
    "EmitPartial",
    "Fail",
    "Generate",
    "Input",
    "KeepBestN",
    "LLMFailed",
    "LLMPartial",
    "LLMResult",
    "Machine",
    "ModelReply",
    "Operation",
    "Phase",
    "Prompts",
    "Refine",
    "Score",
    "Start",
    "Task",
    "Termination",
    "Thought",
    "ThoughtEdge",
    "ThoughtGraph",
    "Usage",
    "get_task",
    "register_task",
    "task_names",
]
