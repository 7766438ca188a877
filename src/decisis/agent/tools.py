"""The decision tools as typed specs, and the toolbox that runs them without ever raising.

A ``ToolSpec`` is a name, a description, an arguments model (its JSON Schema is what
models see) and a handler. ``Toolbox.call`` is the one place where a bad call or a
``DecisisError`` becomes a ``ToolResult`` with ``is_error`` set, whose text says what
was wrong and what is allowed, so an agent's loop never breaks on a tool::

    box = Toolbox(decisis.open("sqlite:///d.db"))
    box.call("add_goal", {"label": "Ship auth"}).text   # '{"goal": {"id": "0193a1b2", ...}}'
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from decisis.agent import handlers
from decisis.errors import DecisisError, InvalidArguments, ToolsDisabled, error_body
from decisis.forms import (
    AddGoal,
    CheckPlan,
    CorrectDecision,
    CurrentDecision,
    DecisionsFor,
    FindDecisions,
    FindPrecedents,
    QueryDecisions,
    ReaffirmDecision,
    RecordDecision,
    RecordOutcome,
    StaleDependents,
    SupersedeDecision,
    ToolArgs,
    json_schema,
)
from decisis.graph import Graph

__all__ = ["TOOLS", "ToolResult", "ToolSpec", "Toolbox", "error_result", "tool_guide", "tool_names"]

log = logging.getLogger("decisis.agent")


@dataclass(frozen=True)
class ToolSpec:
    """One tool: what a model sees (name, description, schema), when to reach for it (the
    system prompt's guide, ``tool_guide``) and the handler behind it."""

    name: str
    description: str
    args: type[ToolArgs]
    handler: Callable[[Graph, Any], dict[str, Any]]
    when: str = ""

    @property
    def schema(self) -> dict[str, Any]:
        return json_schema(self.args)


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gave back: JSON-able ``data`` and the same as ``text`` for a model."""

    name: str
    data: dict[str, Any]
    is_error: bool = False
    text: str = field(default="", init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", json.dumps(self.data, ensure_ascii=False, default=str))


def _supersede_decision(graph: Graph, args: SupersedeDecision) -> dict[str, Any]:
    """``handlers.supersede_decision`` in one transaction: a new decision (``new_label``)
    and the supersession land together, so a refused supersession leaves no stray
    decision. The answer is read once they have landed, so its short ids are unique
    among the records just written too; ``stale`` lists what rested on the old decision
    and now needs a look (``Graph.stale``)."""
    with graph.batch() as batch:
        old = batch.get(args.old_id)
        if args.new_id is not None:
            new = batch.get(args.new_id)
        else:
            new = batch.record_decision(args.new_label or "", rationale=args.rationale)
        batch.supersede(old.id, new.id, rationale=args.rationale)
    superseded, standing = handlers.node_dicts(graph, [graph.get(old.id), graph.get(new.id)])
    resting = handlers.stale_dicts(graph, graph.stale(premise=old.id))
    return {"superseded": superseded, "standing": standing, "stale": resting}


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "add_goal",
        "Record a goal you are working towards. Returns its id for later decisions.",
        AddGoal,
        handlers.add_goal,
        when="at the start of a task, for each goal you take on",
    ),
    ToolSpec(
        "record_decision",
        "Record a decision you made, optionally under a goal, with the options you chose and "
        "rejected. Record it before you build on it.",
        RecordDecision,
        handlers.record_decision,
        when="as soon as you decide something, before you build on it",
    ),
    ToolSpec(
        "record_outcome",
        "Record what came of a decision (a result, a failure, a measurement).",
        RecordOutcome,
        handlers.record_outcome,
        when="when you observe what a decision led to",
    ),
    ToolSpec(
        "query_decisions",
        "Read the decision graph: active_goals, recent decisions, path between two nodes, "
        "ancestors, descendants, why (what led to a node), current (what replaced it).",
        QueryDecisions,
        handlers.query_decisions,
        when="to recall your goals, recent decisions, or why something was done",
    ),
    ToolSpec(
        "supersede_decision",
        "Replace a decision by another (existing, or new by label); the old one stops standing.",
        SupersedeDecision,
        _supersede_decision,
        when="when you change an earlier decision",
    ),
    ToolSpec(
        "current_decision",
        "Ask what stands today on a question: the team's decision records (ADRs) and the "
        "decisions recorded here, each followed to what replaced it; answers with the "
        "standing one (kind adr-record or decision) and what it replaced, or says that none does.",
        CurrentDecision,
        handlers.current_decision,
        when="before you act on an earlier or a team's decision, to check it still stands",
    ),
    ToolSpec(
        "decisions_for",
        "The standing decisions that govern files or folders you are about to change (the "
        "paths, globs and modules decisions name), nearest first, each with what it replaced. "
        "Replaced decisions are not listed; what replaced them is.",
        DecisionsFor,
        handlers.decisions_for,
        when="before you change a file, to learn which decisions govern it",
    ),
    ToolSpec(
        "find_decisions",
        "Full-text search over recorded goals, decisions and outcomes.",
        FindDecisions,
        handlers.find_decisions,
        when="to find what was recorded about a subject, by its words",
    ),
    ToolSpec(
        "find_precedents",
        "Find the recorded decisions closest to a situation by meaning as well as words: "
        "how was something like this decided before? Includes the team's ADR records unless "
        "include_records is false.",
        FindPrecedents,
        handlers.find_precedents,
        when="before you decide something new, to find how something like it was decided",
    ),
    ToolSpec(
        "stale_dependents",
        "List what rests on a decision that was replaced (requires, enables, actions it led to, "
        "decisions it was a precedent for) and was not re-affirmed since, each with what "
        "stands now. Optionally only one node's.",
        StaleDependents,
        handlers.stale_dependents,
        when="after you supersede a decision, and before you build on older work",
    ),
    ToolSpec(
        "reaffirm_decision",
        "Say that a record still holds with what replaced the decision it rests on, so it is "
        "no longer listed as stale (until that is replaced in turn).",
        ReaffirmDecision,
        handlers.reaffirm_decision,
        when="when you checked that stale work still holds under the new decision",
    ),
    ToolSpec(
        "check_plan",
        "Check a plan before acting on it: for each step, the replaced decisions it leans on "
        "and what standing decisions turned down that it uses, each with what stands now "
        "and why. Steps that go against nothing are only counted.",
        CheckPlan,
        handlers.check_plan,
        when="before you carry out a plan of several steps",
    ),
    ToolSpec(
        "correct_decision",
        "Tell the decision records which record really answers a question (or null for none), "
        "so the next answer is right.",
        CorrectDecision,
        handlers.correct_decision,
        when="when an answer about the records proved wrong and you know the right record",
    ),
)


def tool_names() -> list[str]:
    return [spec.name for spec in TOOLS]


def tool_guide(specs: Sequence[ToolSpec] = TOOLS) -> str:
    """The system prompt's words on the decision tools: each one and when to use it."""
    lines = ["## Decision tools", "You keep a decision memory with these tools:"]
    lines += [f"- `{spec.name}`: {spec.when}." for spec in specs if spec.when]
    return "\n".join(lines)


def _describe_args(model: type[ToolArgs]) -> str:
    """``label (string, required), goal_id (string)``: what a tool accepts, for error text."""
    schema = json_schema(model)
    required = set(schema.get("required", []))
    parts = []
    for name, prop in schema.get("properties", {}).items():
        kinds = [prop.get("type")] + [p.get("type") for p in prop.get("anyOf", [])]
        kind = "/".join(str(k) for k in kinds if k and k != "null") or "value"
        if "enum" in prop:
            kind = "one of " + "|".join(str(v) for v in prop["enum"])
        parts.append(f"{name} ({kind}{', required' if name in required else ''})")
    return ", ".join(parts)


def error_result(name: str, exc: BaseException) -> ToolResult:
    """An error as a tool result, in the one body shape (``decisis.errors.error_body``)."""
    return ToolResult(name, error_body(exc), is_error=True)


def _validation_result(spec: ToolSpec, exc: ValidationError) -> ToolResult:
    problems = []
    for err in exc.errors():
        where = ".".join(str(part) for part in err["loc"]) or "arguments"
        problems.append(f"{where}: {err['msg']}")
    refused = InvalidArguments(spec.name, "; ".join(problems), _describe_args(spec.args))
    return error_result(spec.name, refused)


def _parse(arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    if arguments is None or arguments == "":
        return {}
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    if not isinstance(arguments, Mapping):
        raise TypeError("arguments must be a JSON object")
    return dict(arguments)


class Toolbox:
    """The decision tools bound to one graph; disabled (but answering) when there is none."""

    def __init__(self, graph: Graph | None, *, disabled_reason: str | None = None) -> None:
        self.graph = graph
        self.disabled_reason = disabled_reason if graph is None else None
        self.specs: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}

    @property
    def enabled(self) -> bool:
        return self.graph is not None

    def disabled_note(self) -> str:
        """Why the tools answer with errors, in one line (for the model and the logs)."""
        return f"decisis tools are disabled: {self.disabled_reason or 'no store is configured'}"

    def _bad(self, name: str, problem: str, allowed: str, field: str = "arguments") -> ToolResult:
        return error_result(name, InvalidArguments(name, problem, allowed, field=field))

    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> ToolResult:
        """Run one tool call; every failure comes back as an error result, never raised."""
        spec = self.specs.get(name)
        if spec is None:
            return self._bad(name, "no tool named so", ", ".join(self.specs), field="name")
        if self.graph is None:
            return error_result(name, ToolsDisabled(self.disabled_note()))
        try:
            raw = _parse(arguments)
        except (ValueError, TypeError) as exc:
            return self._bad(name, f"arguments are not a JSON object: {exc}", "a JSON object")
        try:
            args = spec.args.model_validate(raw)
        except ValidationError as exc:
            return _validation_result(spec, exc)
        try:
            return ToolResult(name, spec.handler(self.graph, args))
        except DecisisError as exc:
            return error_result(name, exc)
        except Exception as exc:  # the agent's loop must survive a bug or a broken store
            log.exception("decisis tool %s failed", name)
            return error_result(name, exc)
