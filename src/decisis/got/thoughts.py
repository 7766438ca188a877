"""The values a thought graph is made of: thoughts, edges, the phases of a run, usage."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ._slots import slot_setters

__all__ = ["DERIVATION_KINDS", "EdgeKind", "Phase", "Thought", "ThoughtEdge", "Usage"]


class Phase(StrEnum):
    """The state of a machine, as ``status()`` names it."""

    IDLE = "idle"
    GENERATING = "generating"
    CONNECTING = "connecting"
    AGGREGATING = "aggregating"
    COMPLETED = "completed"
    ERROR = "error"


class EdgeKind(StrEnum):
    """How one thought relates to another.

    ``generates``, ``refines`` and ``aggregates`` derive a new thought from older ones;
    ``connects`` is a lateral link the model found between existing thoughts.
    """

    GENERATES = "generates"
    REFINES = "refines"
    AGGREGATES = "aggregates"
    CONNECTS = "connects"


# Edges that make a thought out of others: leaves and paths follow only these.
DERIVATION_KINDS = frozenset({EdgeKind.GENERATES, EdgeKind.REFINES, EdgeKind.AGGREGATES})


@dataclass(frozen=True, slots=True, init=False)
class Thought:
    """One thought. ``id`` is its index in the graph; ``score`` is higher-is-better or None."""

    id: int
    content: str
    score: float | None = None
    depth: int = 0
    metadata: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        id: int,
        content: str,
        score: float | None = None,
        depth: int = 0,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        # written out with slot setters, not generated: see decisis.got._slots
        set_id, set_content, set_score, set_depth, set_metadata = _THOUGHT_SLOTS
        set_id(self, id)
        set_content(self, content)
        set_score(self, score)
        set_depth(self, depth)
        set_metadata(self, {} if metadata is None else metadata)

    def to_map(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "content": self.content,
            "score": self.score,
            "depth": self.depth,
            "metadata": self.metadata,
        }


@dataclass(frozen=True, slots=True, init=False)
class ThoughtEdge:
    """A directed edge ``source -kind-> target``; ``id`` is its index."""

    id: int
    source: int
    target: int
    kind: EdgeKind

    def __init__(self, id: int, source: int, target: int, kind: EdgeKind) -> None:
        set_id, set_source, set_target, set_kind = _EDGE_SLOTS  # see decisis.got._slots
        set_id(self, id)
        set_source(self, source)
        set_target(self, target)
        set_kind(self, kind)

    def to_map(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "target": self.target, "kind": self.kind}


_THOUGHT_SLOTS = slot_setters(Thought)
_EDGE_SLOTS = slot_setters(ThoughtEdge)


@dataclass(frozen=True, slots=True, init=False)
class Usage:
    """Tokens spent, summed over every model reply of a run."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    def __init__(self, prompt_tokens: int = 0, completion_tokens: int = 0, calls: int = 0) -> None:
        set_prompt, set_completion, set_calls = _USAGE_SLOTS  # see decisis.got._slots
        set_prompt(self, prompt_tokens)
        set_completion(self, completion_tokens)
        set_calls(self, calls)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, prompt_tokens: int, completion_tokens: int) -> Usage:
        return Usage(
            self.prompt_tokens + prompt_tokens,
            self.completion_tokens + completion_tokens,
            self.calls + 1,
        )


_USAGE_SLOTS = slot_setters(Usage)
