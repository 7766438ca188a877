"""The shapes of the JSON API's answers, for its OpenAPI document and for checking them.

The API hands out the forms of ``decisis.forms`` (the same data the CLI's ``--json``
prints); these models describe them, so a generated client gets typed fields instead of
"any object". Every model forbids fields it does not name: a form that gains a field
without its model here fails the request (a 500 the API tests see) instead of the field
silently missing from the document, or from the answer.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from decisis.model import EdgeType, EventKind, LinkState, NodeStatus, NodeType

__all__ = [
    "AnswerOut",
    "AtOut",
    "CorrectionOut",
    "EdgeDetail",
    "EdgeOut",
    "EventOut",
    "GoalTreeOut",
    "GoverningOut",
    "HitOut",
    "LearnedOut",
    "NeighbourhoodOut",
    "NodeDetail",
    "NodeOut",
    "PathDecisionsOut",
    "ReachedOut",
    "StandingOut",
    "ToolSpecOut",
    "VerifyOut",
]

Time = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Metadata = Annotated[dict[str, Any], Field(description="JSON the writer chose; kept as data.")]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Nodes and edges share their last ten fields, written out in each model: a model sends its
# fields in its own order, and a base model's fields would come first ("recorded_at" before
# "id" in every answer a person reads).
class NodeOut(_Out):
    """A goal, decision, option, action, outcome, observation or revisit."""

    id: str
    type: NodeType
    label: str
    status: NodeStatus
    recorded_at: Time = Field(description="When decisis learnt it.")
    updated_at: Time
    valid_from: Time = Field(description="When it began to hold in the world.")
    valid_until: Time | None
    confidence: float | None
    rationale: str | None
    metadata: Metadata
    agent: str | None
    tombstoned_at: Time | None
    tombstone_reason: str | None


class EdgeOut(_Out):
    """A typed link ``source -type-> target``; a rule's link carries its state."""

    id: str
    type: EdgeType
    source: str
    target: str
    recorded_at: Time
    updated_at: Time
    valid_from: Time
    valid_until: Time | None
    state: LinkState
    confidence: float | None
    rationale: str | None
    metadata: Metadata
    agent: str | None
    tombstoned_at: Time | None
    tombstone_reason: str | None


class EventOut(_Out):
    """One ledger entry: its checksum covers the previous one's."""

    seq: int
    kind: EventKind
    entity: str
    at: Time
    payload: dict[str, Any]
    prev_checksum: str
    checksum: str
    invalidated_at: Time | None
    invalidated_reason: str | None


class NodeDetail(_Out):
    node: NodeOut
    out: list[EdgeOut] = Field(description="Edges from the node.")
    in_: list[EdgeOut] = Field(alias="in", description="Edges to the node.")
    history: list[EventOut]


class EdgeDetail(_Out):
    edge: EdgeOut
    history: list[EventOut]


class GoalChild(_Out):
    edge: EdgeOut
    node: NodeOut


class GoalTreeOut(_Out):
    goal: NodeOut
    children: list[GoalChild]


class ReachedOut(_Out):
    node: NodeOut
    depth: int
    via: str | None = Field(description="The node it was reached from.")
    edge_type: EdgeType


class HitOut(_Out):
    node: NodeOut
    score: float


class PrecedentOut(_Out):
    node: NodeOut
    score: float = Field(description="Fused reciprocal-rank score; higher is closer.")
    ranks: dict[str, int] = Field(description="The rank each voter (fulltext, vector) gave.")
    similarity: float | None = Field(description="Cosine with the text, when vectors voted.")


class StandingOut(_Out):
    node: NodeOut
    superseded: bool
    standing: list[NodeOut] = Field(description="The decisions that stand for it now.")
    chains: list[list[NodeOut]] = Field(description="Each path of replacements to one of them.")


class NamedNode(_Out):
    id: str
    label: str


class GoverningOut(_Out):
    """A standing node that governs a path (``decisis.files.Governing``)."""

    id: str
    type: NodeType
    label: str
    status: NodeStatus
    rationale: str | None
    pattern: str = Field(description="The pattern that governs the path.")
    named_by: str = Field(description="The node that named it: this one, or one it replaced.")
    replaced: list[NamedNode] = Field(description="What this decision replaced.")


class PathDecisionsOut(_Out):
    path: str = Field(description="The path, relative to the repository root.")
    decisions: list[GoverningOut] = Field(description="Nearest (most specific) first.")


class NearNode(_Out):
    """A node in a neighbourhood, with the status ``Graph.current`` agrees with."""

    id: str
    type: NodeType
    label: str
    key: str | None = Field(description="The ADR record's key, for a record.")
    status: NodeStatus = Field(description="``superseded`` when a believed replacement exists.")
    centre: bool = Field(description="Whether it is the node asked about.")


class NearEdge(_Out):
    id: str
    type: EdgeType
    source: str
    target: str
    state: LinkState
    confidence: float | None


class NeighbourhoodOut(_Out):
    """A node, its edges in and out with the nodes at their ends, and its supersession
    chains to what stands now: each node and edge once, for a picture."""

    centre: str
    nodes: list[NearNode]
    edges: list[NearEdge]


class AtOut(_Out):
    as_of: Time
    goals: list[GoalTreeOut]
    recent: list[NodeOut]


class VerifyOut(_Out):
    ok: bool
    events: int
    first_bad_seq: int | None
    problems: list[str]
    checked: list[str] = Field(
        description="What was checked: the chain and head, the tables against a replay, and "
        "what the store adds (its database file, its full-text index)."
    )


class ReplacedStep(_Out):
    key: str = Field(description="The record that was replaced.")
    date: str | None
    by: str = Field(description="The record that replaced it.")
    rules: list[str] = Field(description="The rules (or statements) behind the link.")
    named: list[str] | None = Field(
        None, description="What the question named that the link says was replaced."
    )


class Evidence(_Out):
    start: str = Field(description="The record the question started at.")
    votes: dict[str, int] = Field(
        description="Its place in each ranking that found it (terms, sections, vectors,"
        " questions, named)."
    )
    coverage: float = Field(description="Share of the question's distinctive weight it holds.")
    subject: float = Field(description="Share of the question's subject it holds.")
    cosine: float | None = None
    sentence: str | None = Field(None, description="The start's sentence closest to the question.")
    sentence_cosine: float | None = Field(None, description="That sentence's cosine with it.")
    probability: float | None = Field(
        None, description="The calibrated probability that it answers the question."
    )
    remembered: str | None = Field(None, description="A corrected question like this one.")


class NoEvidence(_Out):
    """No record matched: nothing started anywhere."""


class ExcerptOut(_Out):
    text: str
    about: list[str]


class AnswerOut(_Out):
    """The record that stands for a question, or none, with how it got there."""

    question: str
    answer: str | None = Field(description="The standing record's key; null: none on record.")
    chain: list[str] = Field(description="Keys from where the question started to the answer.")
    text: str = Field(description="The compact answer.")
    tokens: int = Field(description="The text's length in cl100k tokens.")
    confidence: float
    replaced: list[ReplacedStep]
    notes: list[str]
    evidence: Evidence | NoEvidence = Field(
        description="Why it started where it did (empty when no record matched)."
    )
    excerpt: ExcerptOut | None


class RestoredLink(_Out):
    edge: str
    from_: str = Field(alias="from", description="The judgement undone.")
    to: str = Field(description="The state the link returned to.")


class CorrectionOut(_Out):
    question: str
    key: str | None
    was: str | None = Field(description="What decisis answered before.")
    node: str = Field(description="The question's node.")
    confirmed: list[str] = Field(description="Links confirmed (edge ids).")
    rejected: list[str]
    proposed: list[str]
    restored: list[RestoredLink] = Field(
        default_factory=list, description="For an undo: each link put back to its earlier state."
    )
    withdrawn: list[str] = Field(
        default_factory=list, description="For an undo: the links it had proposed, withdrawn."
    )


class TrustMove(_Out):
    seq: int
    at: Time
    successes: float
    failures: float
    trust: float
    by: str | None = Field(description="The question whose correction moved it.")
    undone: bool


class RuleTrust(_Out):
    successes: float
    failures: float
    trust: float
    moves: list[TrustMove]


class LearnedLink(_Out):
    old: str | None
    new: str | None
    rule: str | None
    state: LinkState
    confidence: float
    evidence: str | None
    partial: bool
    named: list[str]
    corrected_by: str | None


class LearnedOut(_Out):
    rules: dict[str, RuleTrust]
    links: list[LearnedLink]


class ToolSpecOut(_Out):
    name: str
    description: str
    input_schema: dict[str, Any] = Field(description="The tool's arguments as a JSON Schema.")
