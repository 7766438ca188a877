"""The arguments of each decision tool as pydantic models: one source for validation and
schema; and the form of a tool's spec as the API lists it.

The JSON Schemas the models produce are inlined (no ``$ref``) and closed
(``additionalProperties: false``), because the OpenAI, Anthropic and MCP tool formats
all take a plain object schema and models follow a closed schema more closely.
"""

from __future__ import annotations

from typing import Any, Literal, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from decisis.adr import MAX_QUESTION_CHARS
from decisis.forms._base import Form
from decisis.plans.steps import MAX_PLAN_CHARS

__all__ = [
    "QUERY_KINDS",
    "AddGoal",
    "CheckPlan",
    "CorrectDecision",
    "CurrentDecision",
    "DecisionsFor",
    "FindDecisions",
    "FindPrecedents",
    "QueryDecisions",
    "ReaffirmDecision",
    "RecordDecision",
    "RecordOutcome",
    "StaleDependents",
    "SupersedeDecision",
    "ToolArgs",
    "ToolSpecOut",
    "json_schema",
]

Label = Field(min_length=1, max_length=500, description="A short statement, one line.")
Confidence = Field(default=None, ge=0.0, le=1.0, description="How sure, from 0 to 1.")
Rationale = Field(default=None, max_length=4000, description="Why, in a sentence or two.")
NodeId = Field(min_length=1, max_length=64, description="A node id or a unique prefix of one.")

QueryKind = Literal["active_goals", "recent", "path", "ancestors", "descendants", "why", "current"]
QUERY_KINDS: tuple[str, ...] = get_args(QueryKind)
_NEEDS_ID = {"path", "ancestors", "descendants", "why", "current"}


class ToolArgs(BaseModel):
    """Base of every tool's arguments: unknown arguments are refused, not ignored."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class AddGoal(ToolArgs):
    label: str = Label
    rationale: str | None = Rationale
    confidence: float | None = Confidence


class RecordDecision(ToolArgs):
    label: str = Label
    goal_id: str | None = Field(default=None, description="The goal this decision serves.")
    chosen: list[str] = Field(default_factory=list, description="Labels of options taken.")
    rejected: list[str] = Field(default_factory=list, description="Labels of options turned down.")
    rationale: str | None = Rationale
    confidence: float | None = Confidence
    affects: list[str] = Field(
        default_factory=list,
        max_length=100,
        description="Paths, globs or modules it governs, from the repository root: "
        "'src/auth/**', '*.sql' (decisions_for finds it by them).",
    )


class RecordOutcome(ToolArgs):
    label: str = Label
    decision_id: str = NodeId
    rationale: str | None = Rationale
    confidence: float | None = Confidence


class QueryDecisions(ToolArgs):
    kind: QueryKind = Field(description="What to ask the graph.")
    id: str | None = Field(
        default=None, description="The node to start from (all kinds but active_goals, recent)."
    )
    target_id: str | None = Field(default=None, description="Where a path must end (kind path).")
    limit: int = Field(default=5, ge=1, le=50, description="At most this many nodes.")

    @model_validator(mode="after")
    def _ids_present(self) -> Self:
        if self.kind in _NEEDS_ID and not self.id:
            raise ValueError(f"kind {self.kind!r} needs id (a node id or a unique prefix)")
        if self.kind == "path" and not self.target_id:
            raise ValueError("kind 'path' needs target_id as well as id")
        return self


class SupersedeDecision(ToolArgs):
    old_id: str = NodeId
    new_id: str | None = Field(default=None, description="An existing decision that replaces it.")
    new_label: str | None = Field(
        default=None, max_length=500, description="Or: record a new decision with this label."
    )
    rationale: str | None = Rationale

    @model_validator(mode="after")
    def _one_replacement(self) -> Self:
        if (self.new_id is None) == (self.new_label is None):
            raise ValueError("give exactly one of new_id (an existing node) or new_label")
        return self


class CurrentDecision(ToolArgs):
    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="What do we do about X?"
    )


class DecisionsFor(ToolArgs):
    paths: list[str] = Field(
        min_length=1,
        max_length=50,
        description="The files or folders you are about to change: absolute, or relative to "
        "the repository root.",
    )


class FindDecisions(ToolArgs):
    search: str = Field(min_length=1, max_length=500, description="Words to look for.")
    limit: int = Field(default=5, ge=1, le=50, description="At most this many hits.")


class FindPrecedents(ToolArgs):
    situation: str = Field(
        min_length=1, max_length=4000, description="The situation or problem, in your words."
    )
    k: int = Field(default=5, ge=1, le=50, description="At most this many decisions.")
    include_records: bool = Field(
        default=True, description="Also search decisions ingested from the team's ADR files."
    )


class CorrectDecision(ToolArgs):
    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="The question as asked."
    )
    correct_decision_id: str | None = Field(
        description="The record that answers it (id, prefix or key such as 'team:012'); "
        "null when no record does."
    )


class StaleDependents(ToolArgs):
    id: str | None = Field(
        default=None,
        max_length=64,
        description="Only this node's replaced premises (a node id or prefix); all when omitted.",
    )


class ReaffirmDecision(ToolArgs):
    id: str = NodeId
    premise_id: str | None = Field(
        default=None,
        max_length=64,
        description="Only for this replaced premise; all of the node's when omitted.",
    )
    note: str | None = Field(default=None, max_length=4000, description="Why it still holds.")


class CheckPlan(ToolArgs):
    plan: str = Field(
        min_length=1,
        max_length=MAX_PLAN_CHARS,
        description="The plan: steps as lines, numbered or bulleted items, or sentences.",
    )


def _inline(schema: Any, defs: dict[str, Any]) -> Any:
    """Replace ``$ref`` by the definition it names, recursively."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return _inline(defs[ref.rsplit("/", 1)[-1]], defs)
        return {k: _inline(v, defs) for k, v in schema.items() if k != "$defs"}
    if isinstance(schema, list):
        return [_inline(item, defs) for item in schema]
    return schema


def json_schema(model: type[ToolArgs]) -> dict[str, Any]:
    """The model's JSON Schema, self-contained and without pydantic's titles."""
    raw = model.model_json_schema()
    schema = _inline(raw, raw.get("$defs", {}))
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return dict(schema)


class ToolSpecOut(Form):
    name: str
    description: str
    input_schema: dict[str, Any] = Field(description="The tool's arguments as a JSON Schema.")
