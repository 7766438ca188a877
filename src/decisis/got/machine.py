"""The Graph-of-Thoughts machine: a pure, serialisable value that answers messages
with directives.

    machine = Machine(max_nodes=50, max_depth=6, aggregation_strategy="voting")
    machine, directives = machine.update(Start("How should we cache sessions?", "run-1"))
    # carry out each CallModel, then feed back LLMResult(call_id, reply) ...

``update`` never mutates: it returns a new machine, sharing every part of the
thought graph it did not touch with the old one. It never raises for what a
model sends: unknown or stale call ids are ignored, malformed replies move the
machine to the ``error`` state with a reason. ``to_map``/``from_map`` round-trip
through JSON to an equal machine, so a run can be saved, resumed or audited.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from decisis.errors import InvalidInput

from . import steps
from .graph import ThoughtGraph
from .messages import (
    Directive,
    Input,
    LLMFailed,
    LLMPartial,
    LLMResult,
    Start,
    Termination,
)
from .operations import Operation
from .prompts import Prompts
from .pvector import PVector
from .state import Call, Config, Run, Strategy
from .tasks import get_task
from .thoughts import EdgeKind, Phase, Thought, ThoughtEdge, Usage

__all__ = ["FORMAT_VERSION", "Machine"]

FORMAT_VERSION = 1


class Machine:
    """A Graph-of-Thoughts run as an immutable value (see the module docstring)."""

    __slots__ = ("_run", "config")

    config: Config
    _run: Run

    def __init__(
        self,
        max_nodes: int = 100,
        max_depth: int = 10,
        aggregation_strategy: Strategy = "voting",
        prompts: Prompts | None = None,
        *,
        plan: Sequence[Operation] | None = None,
        task: str = "text",
    ) -> None:
        chosen = get_task(task)
        config = Config(
            max_nodes=max_nodes,
            max_depth=max_depth,
            aggregation_strategy=aggregation_strategy,
            prompts=prompts if prompts is not None else chosen.prompts,
            plan=tuple(plan) if plan is not None else chosen.plan,
            task=task,
        )
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "_run", Run())

    @classmethod
    def _with(cls, config: Config, run: Run) -> Machine:
        """A machine from its parts; slot setters, as ``object.__setattr__`` costs twice as
        much and this runs on every transition (see decisis.got._slots)."""
        machine = object.__new__(cls)
        set_config, set_run = _MACHINE_SLOTS
        set_config(machine, config)
        set_run(machine, run)
        return machine

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Machine is immutable: update() returns a new one")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Machine):
            return NotImplemented
        return self.config == other.config and self._run == other._run

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Machine({self.status()}, {len(self._run.graph)} thoughts, step {self._run.step})"

    # -- the one transition -----------------------------------------------------------
    def update(self, message: Input) -> tuple[Machine, list[Directive]]:
        """The machine after ``message`` and what to do next."""
        config, run = self.config, self._run
        if isinstance(message, LLMPartial):
            new, directives = steps.on_partial(run, message)
        elif isinstance(message, LLMResult):
            new, directives = steps.on_result(config, run, message)
        elif isinstance(message, Start):
            new, directives = steps.on_start(config, run, message)
        elif isinstance(message, LLMFailed):
            new, directives = steps.on_failed(run, message)
        else:
            raise InvalidInput(
                "message", f"{type(message).__name__} is not a message", Input.__args__
            )
        return (self, directives) if new is run else (Machine._with(config, new), directives)

    # -- state ------------------------------------------------------------------------
    def status(self) -> str:
        """The state as a name: idle, generating, connecting, aggregating, completed, error."""
        return self._run.phase.value

    @property
    def phase(self) -> Phase:
        return self._run.phase

    @property
    def prompt(self) -> str:
        return self._run.prompt

    @property
    def run_id(self) -> str:
        """The ``call_id`` of ``Start``: it names the run and prefixes its call ids."""
        return self._run.run_id

    @property
    def termination(self) -> Termination | None:
        return self._run.termination

    @property
    def error(self) -> str | None:
        return self._run.error

    @property
    def usage(self) -> Usage:
        return self._run.usage

    @property
    def result(self) -> Thought | None:
        """The best thought once the run is completed."""
        rid = self._run.result_id
        return None if rid is None else self._run.graph.nodes[rid]

    @property
    def frontier(self) -> list[Thought]:
        return self._run.graph.nodes.take(self._run.frontier)

    @property
    def pending_calls(self) -> list[str]:
        """Call ids still waiting for a reply."""
        run = self._run
        return [cid for cid, call in run.pending.items() if run.replies[call.order] is None]

    @property
    def streaming_text(self) -> str:
        """The streamed text of the call that last sent a piece (empty when none)."""
        current = self._run.current_call
        return self.stream(current) if current else ""

    def stream(self, call_id: str) -> str:
        call = self._run.pending.get(call_id)
        return self._run.streams[call.order] if call else ""

    @property
    def graph(self) -> ThoughtGraph:
        return self._run.graph

    # -- graph helpers (each linear in what it visits) --------------------------------
    def get_node(self, node_id: int) -> Thought | None:
        return self._run.graph.get(node_id)

    def get_nodes(self, ids: Iterable[int] | None = None) -> list[Thought]:
        graph = self._run.graph
        if ids is None:
            return list(graph.nodes)
        return [t for t in (graph.get(i) for i in ids) if t is not None]

    def get_edges(self) -> list[ThoughtEdge]:
        return list(self._run.graph.edges)

    def find_leaves(self) -> list[Thought]:
        return self._run.graph.leaves()

    def find_best_leaf(self) -> Thought | None:
        return self._run.graph.best(self._run.graph.leaves())

    def get_children(self, node_id: int) -> list[Thought]:
        return self._run.graph.children(node_id)

    def get_parents(self, node_id: int) -> list[Thought]:
        return self._run.graph.parents(node_id)

    def get_ancestors(self, node_id: int) -> list[Thought]:
        return self._run.graph.ancestors(node_id)

    def get_descendants(self, node_id: int) -> list[Thought]:
        return self._run.graph.descendants(node_id)

    def incoming_edges(self, node_id: int) -> list[ThoughtEdge]:
        return self._run.graph.incoming(node_id)

    def outgoing_edges(self, node_id: int) -> list[ThoughtEdge]:
        return self._run.graph.outgoing(node_id)

    def has_cycle(self) -> bool:
        return self._run.graph.has_cycle()

    def trace_path(self, node_id: int) -> list[Thought]:
        """Root to ``node_id``, through the best-scored parent where thoughts merged."""
        return self._run.graph.trace(node_id)

    # -- JSON -------------------------------------------------------------------------
    def to_map(self) -> dict[str, Any]:
        """Plain JSON data that ``from_map`` turns back into an equal machine."""
        run = self._run
        return {
            "format": FORMAT_VERSION,
            "config": self.config.to_map(),
            "phase": run.phase.value,
            "prompt": run.prompt,
            "run_id": run.run_id,
            "nodes": [t.to_map() for t in run.graph.nodes],
            "edges": [e.to_map() for e in run.graph.edges],
            "step": run.step,
            "frontier": list(run.frontier),
            "pending": {cid: call.to_map() for cid, call in run.pending.items()},
            "replies": list(run.replies),
            "streams": list(run.streams),
            "current_call": run.current_call,
            "calls_made": run.calls_made,
            "usage": {
                "prompt_tokens": run.usage.prompt_tokens,
                "completion_tokens": run.usage.completion_tokens,
                "calls": run.usage.calls,
            },
            "termination": run.termination.value if run.termination else None,
            "error": run.error,
            "result_id": run.result_id,
        }

    @classmethod
    def from_map(cls, data: dict[str, Any]) -> Machine:
        """The machine ``to_map`` described; ``InvalidInput`` for anything else."""
        if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
            raise InvalidInput("map", "is not a saved machine", f"format {FORMAT_VERSION}")
        try:
            return cls._with(Config.from_map(data["config"]), _run_from_map(data))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput("map", f"is not a saved machine: {exc!r}") from exc


_MACHINE_SLOTS = (Machine.__dict__["config"].__set__, Machine.__dict__["_run"].__set__)


def _run_from_map(data: dict[str, Any]) -> Run:
    nodes = [
        Thought(int(n["id"]), str(n["content"]), _score(n["score"]), int(n["depth"]),
                dict(n["metadata"]))
        for n in data["nodes"]
    ]  # fmt: skip
    edges = [
        ThoughtEdge(int(e["id"]), int(e["source"]), int(e["target"]), EdgeKind(e["kind"]))
        for e in data["edges"]
    ]
    dense = all(t.id == i for i, t in enumerate(nodes)) and all(
        e.id == i and 0 <= e.source < len(nodes) and 0 <= e.target < len(nodes)
        for i, e in enumerate(edges)
    )
    if not dense:
        raise InvalidInput("map", "thought or edge ids are not dense positions")
    usage = data["usage"]
    termination = data["termination"]
    return Run(
        phase=Phase(data["phase"]),
        prompt=str(data["prompt"]),
        run_id=str(data["run_id"]),
        graph=ThoughtGraph.build(nodes, edges),
        step=int(data["step"]),
        frontier=tuple(int(i) for i in data["frontier"]),
        pending={str(k): Call.from_map(v) for k, v in data["pending"].items()},
        replies=PVector(None if v is None else str(v) for v in data["replies"]),
        answered=sum(v is not None for v in data["replies"]),
        streams=PVector(str(v) for v in data["streams"]),
        current_call=data["current_call"],
        calls_made=int(data["calls_made"]),
        usage=Usage(
            int(usage["prompt_tokens"]), int(usage["completion_tokens"]), int(usage["calls"])
        ),
        termination=Termination(termination) if termination is not None else None,
        error=data["error"],
        result_id=data["result_id"],
    )


def _score(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput("score", f"{value!r} is not a number", "a number or null")
    return float(value)
