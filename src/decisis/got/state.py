"""The records a machine is made of: its fixed configuration and the state of its run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from decisis.errors import InvalidInput

from .graph import ThoughtGraph
from .messages import Termination
from .operations import Operation, plan_from_map, plan_to_map
from .prompts import Prompts
from .pvector import PVector
from .tasks import get_task
from .thoughts import Phase, Usage

__all__ = ["NO_CALLS", "STRATEGIES", "Call", "Config", "Run", "Strategy"]

Strategy = Literal["voting", "weighted", "synthesis"]
STRATEGIES: tuple[Strategy, ...] = ("voting", "weighted", "synthesis")


@dataclass(frozen=True, slots=True)
class Config:
    """What a machine is asked to do; fixed for the whole run."""

    max_nodes: int
    max_depth: int
    aggregation_strategy: Strategy
    prompts: Prompts
    plan: tuple[Operation, ...]
    task: str

    def __post_init__(self) -> None:
        for name in ("max_nodes", "max_depth"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidInput(name, f"{value!r} is not a limit", "a whole number ≥ 1")
        if self.aggregation_strategy not in STRATEGIES:
            raise InvalidInput(
                "aggregation_strategy", f"{self.aggregation_strategy!r} is unknown", STRATEGIES
            )
        if not self.plan:
            raise InvalidInput("plan", "is empty", "at least one operation")
        get_task(self.task)

    def to_map(self) -> dict[str, Any]:
        return {
            "max_nodes": self.max_nodes,
            "max_depth": self.max_depth,
            "aggregation_strategy": self.aggregation_strategy,
            "prompts": self.prompts.to_map(),
            "plan": plan_to_map(self.plan),
            "task": self.task,
        }

    @classmethod
    def from_map(cls, data: dict[str, Any]) -> Config:
        return cls(
            max_nodes=data["max_nodes"],
            max_depth=data["max_depth"],
            aggregation_strategy=data["aggregation_strategy"],
            prompts=Prompts.from_map(data["prompts"]),
            plan=plan_from_map(data["plan"]),
            task=data["task"],
        )


class Call(NamedTuple):
    """An outstanding model call of the current operation.

    ``order`` is its place among the operation's calls: replies are committed in
    this order once all have arrived, so the graph does not depend on which
    reply came first. A named tuple, like ``Run``, because one is made per model call.
    """

    purpose: str
    sources: tuple[int, ...]
    order: int

    def to_map(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "sources": list(self.sources), "order": self.order}

    @classmethod
    def from_map(cls, data: dict[str, Any]) -> Call:
        return cls(str(data["purpose"]), tuple(int(s) for s in data["sources"]), int(data["order"]))


NO_CALLS: Mapping[str, Call] = MappingProxyType({})


class _RunFields(NamedTuple):
    phase: Phase = Phase.IDLE
    prompt: str = ""
    run_id: str = ""
    graph: ThoughtGraph = ThoughtGraph()
    step: int = 0
    frontier: tuple[int, ...] = ()
    pending: Mapping[str, Call] = NO_CALLS
    replies: PVector[str | None] = PVector()
    answered: int = 0
    streams: PVector[str] = PVector()
    current_call: str | None = None
    calls_made: int = 0
    usage: Usage = Usage()
    termination: Termination | None = None
    error: str | None = None
    result_id: int | None = None


_FIELD_INDEX = {name: i for i, name in enumerate(_RunFields._fields)}


class Run(_RunFields):
    """Everything that changes during a run. A named tuple, not a dataclass, because
    ``_replace`` runs several times per transition; its ``_replace`` copies the tuple
    and sets only the named fields, where the generic one looks up every field (a
    third of the cost). Type checkers see the generic one, with its field names.

    ``pending`` is built once per operation and then only read; the replies and
    streamed text of its calls sit in persistent vectors indexed by the call's
    ``order``, so a reply costs O(log k) even when an operation makes k calls.
    """

    __slots__ = ()

    if not TYPE_CHECKING:

        def _replace(self, /, **changes):
            values = list(self)
            try:  # a try costs nothing in 3.11 until it raises
                for name, value in changes.items():
                    values[_FIELD_INDEX[name]] = value
            except KeyError:
                raise ValueError(f"Got unexpected field names: {sorted(changes)!r}") from None
            return tuple.__new__(Run, values)

    def waiting(self, call_id: str) -> Call | None:
        """The call ``call_id`` if it is pending and not yet answered."""
        call = self.pending.get(call_id)
        return call if call is not None and self.replies[call.order] is None else None
