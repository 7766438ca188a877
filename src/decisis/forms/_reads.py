"""The forms of the graph's reads: goal trees, walks, search hits, precedents, what stands
now and what rests on what it replaced, the decisions on a path, a neighbourhood, the graph
at a time, a plan's check and the ledger's verification."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import Field

from decisis.forms._base import Form, Time
from decisis.forms._records import EdgeOut, NodeOut
from decisis.model import EdgeType, LinkState, NodeStatus, NodeType, format_time

if TYPE_CHECKING:
    from decisis.files import PathDecisions
    from decisis.graph import GoalTree, Graph, Reached, SearchHit, Standing, VerifyReport
    from decisis.model import Node
    from decisis.plans import Finding, PlanCheck
    from decisis.search.precedents import Precedent
    from decisis.stale import Stale

__all__ = [
    "AtNodesOut",
    "AtOut",
    "CurrentOut",
    "FindingOut",
    "GoalChild",
    "GoalTreeOut",
    "GoverningOut",
    "HitOut",
    "NamedNode",
    "NearEdge",
    "NearNode",
    "NeighbourhoodOut",
    "PathDecisionsOut",
    "PlanCheckOut",
    "PlanStepOut",
    "PrecedentOut",
    "ReachedOut",
    "StaleOut",
    "StandingOut",
    "VerifyOut",
]


def _nodes(nodes: Sequence[Node]) -> list[dict[str, Any]]:
    return [node.to_dict() for node in nodes]


class GoalChild(Form):
    edge: EdgeOut
    node: NodeOut


class GoalTreeOut(Form):
    goal: NodeOut
    children: list[GoalChild]

    @classmethod
    def data(cls, tree: GoalTree) -> dict[str, Any]:
        children = [{"edge": e.to_dict(), "node": n.to_dict()} for e, n in tree.children]
        return {"goal": tree.goal.to_dict(), "children": children}

    @classmethod
    def of(cls, tree: GoalTree) -> GoalTreeOut:
        return cls.model_validate(cls.data(tree))

    @classmethod
    def all_of(cls, trees: Sequence[GoalTree]) -> list[dict[str, Any]]:
        return [cls.of(tree).dump() for tree in trees]


class ReachedOut(Form):
    node: NodeOut
    depth: int
    via: str | None = Field(description="The node it was reached from.")
    edge_type: EdgeType

    @classmethod
    def of(cls, reached: Reached) -> ReachedOut:
        return cls.model_validate(
            {
                "node": reached.node.to_dict(),
                "depth": reached.depth,
                "via": reached.via,
                "edge_type": reached.edge_type.value,
            }
        )


class HitOut(Form):
    node: NodeOut
    score: float

    @classmethod
    def of(cls, hit: SearchHit) -> HitOut:
        return cls.model_validate({"node": hit.node.to_dict(), "score": hit.score})


class PrecedentOut(Form):
    node: NodeOut
    score: float = Field(description="Fused reciprocal-rank score; higher is closer.")
    ranks: dict[str, int] = Field(description="The rank each voter (fulltext, vector) gave.")
    similarity: float | None = Field(description="Cosine with the text, when vectors voted.")

    @classmethod
    def of(cls, found: Precedent) -> PrecedentOut:
        return cls.model_validate(
            {
                "node": found.node.to_dict(),
                "score": found.score,
                "ranks": found.ranks,
                "similarity": found.similarity,
            }
        )


class StandingOut(Form):
    node: NodeOut
    superseded: bool
    standing: list[NodeOut] = Field(description="The decisions that stand for it now.")
    chains: list[list[NodeOut]] = Field(description="Each path of replacements to one of them.")

    @classmethod
    def data(cls, standing: Standing) -> dict[str, Any]:
        return {
            "node": standing.node.to_dict(),
            "superseded": standing.superseded,
            "standing": _nodes(standing.standing),
            "chains": [_nodes(chain) for chain in standing.chains],
        }

    @classmethod
    def of(cls, standing: Standing) -> StandingOut:
        return cls.model_validate(cls.data(standing))


class StaleOut(Form):
    """A record resting on a replaced premise, with what stands now in its place."""

    node: NodeOut
    premise: NodeOut = Field(description="The replaced record it rests on.")
    edge_type: EdgeType
    edge: EdgeOut = Field(description="The edge by which it rests on the premise.")
    standing: list[NodeOut] = Field(description="What stands now in the premise's place.")

    @classmethod
    def data(cls, stale: Stale) -> dict[str, Any]:
        return {
            "node": stale.node.to_dict(),
            "premise": stale.premise.to_dict(),
            "edge_type": stale.edge_type.value,
            "edge": stale.edge.to_dict(),
            "standing": _nodes(stale.standing),
        }

    @classmethod
    def of(cls, stale: Stale) -> StaleOut:
        return cls.model_validate(cls.data(stale))

    @classmethod
    def all_of(cls, found: Sequence[Stale]) -> list[dict[str, Any]]:
        return [cls.of(item).dump() for item in found]


class CurrentOut(StandingOut):
    """What the CLI's ``current`` tells: what stands, and what rests on what it replaced."""

    stale: list[StaleOut] = Field(description="Records resting on the replaced node.")

    @classmethod
    def with_stale(cls, standing: Standing, found: Sequence[Stale]) -> CurrentOut:
        stale = [StaleOut.data(item) for item in found]
        return cls.model_validate(StandingOut.data(standing) | {"stale": stale})


class NamedNode(Form):
    id: str
    label: str


class GoverningOut(Form):
    """A standing node that governs a path (``decisis.files.Governing``)."""

    id: str
    type: NodeType
    label: str
    status: NodeStatus
    rationale: str | None
    pattern: str = Field(description="The pattern that governs the path.")
    named_by: str = Field(description="The node that named it: this one, or one it replaced.")
    replaced: list[NamedNode] = Field(description="What this decision replaced.")


class PathDecisionsOut(Form):
    path: str = Field(description="The path, relative to the repository root.")
    decisions: list[GoverningOut] = Field(description="Nearest (most specific) first.")

    @classmethod
    def of(cls, entry: PathDecisions) -> PathDecisionsOut:
        return cls.model_validate(entry.to_dict())


class NearNode(Form):
    """A node in a neighbourhood, with the status ``Graph.current`` agrees with."""

    id: str
    type: NodeType
    label: str
    key: str | None = Field(description="The ADR record's key, for a record.")
    status: NodeStatus = Field(description="``superseded`` when a believed replacement exists.")
    centre: bool = Field(description="Whether it is the node asked about.")


class NearEdge(Form):
    id: str
    type: EdgeType
    source: str
    target: str
    state: LinkState
    confidence: float | None


class NeighbourhoodOut(Form):
    """A node, its edges in and out with the nodes at their ends, and its supersession
    chains to what stands now: each node and edge once, for a picture."""

    centre: str
    nodes: list[NearNode]
    edges: list[NearEdge]


class AtOut(Form):
    as_of: Time
    goals: list[GoalTreeOut]
    recent: list[NodeOut]

    @classmethod
    def of(cls, view: Graph, limit: int) -> AtOut:
        """A view ``Graph.at`` opened: its active goals and ``limit`` recent decisions."""
        return cls.model_validate(
            {
                "as_of": _as_of(view),
                "goals": [GoalTreeOut.data(tree) for tree in view.goal_trees()],
                "recent": _nodes(view.recent_decisions(limit)),
            }
        )


class AtNodesOut(Form):
    """Every node of a view ``Graph.at`` opened (the CLI's ``at --nodes``)."""

    as_of: Time
    nodes: list[NodeOut]

    @classmethod
    def of(cls, view: Graph) -> AtNodesOut:
        return cls.model_validate({"as_of": _as_of(view), "nodes": _nodes(view.nodes())})


def _as_of(view: Graph) -> str:
    if view.as_of is None:
        raise ValueError("not a view of the graph at a time (Graph.at)")
    return format_time(view.as_of)


class FindingOut(Form):
    """What a plan's step names that no longer stands (``decisis.plans.Finding``)."""

    kind: str = Field(description="What the premise is: replaced, rejected or turned-down.")
    premise: NodeOut
    premise_key: str | None
    standing: list[NodeOut] = Field(description="What stands now in the premise's place.")
    standing_keys: list[str | None]
    words: list[str] = Field(description="The words of the step that name the premise.")
    reason: str
    weight: float

    @classmethod
    def data(cls, finding: Finding) -> dict[str, Any]:
        return {
            "kind": finding.kind,
            "premise": finding.premise.to_dict(),
            "premise_key": finding.premise_key,
            "standing": _nodes(list(finding.standing)),
            "standing_keys": list(finding.standing_keys),
            "words": list(finding.words),
            "reason": finding.reason,
            "weight": finding.weight,
        }


class PlanStepOut(Form):
    number: int
    text: str
    findings: list[FindingOut]


class PlanCheckOut(Form):
    """Every step of a checked plan with its findings (an empty list for most)."""

    steps: list[PlanStepOut]
    findings: int = Field(description="How many findings in all.")

    @classmethod
    def of(cls, check: PlanCheck) -> PlanCheckOut:
        steps = [
            {
                "number": s.step.number,
                "text": s.step.text,
                "findings": [FindingOut.data(f) for f in s.findings],
            }
            for s in check.steps
        ]
        return cls.model_validate({"steps": steps, "findings": check.findings})


class VerifyOut(Form):
    ok: bool
    events: int
    first_bad_seq: int | None
    problems: list[str]
    checked: list[str] = Field(
        description="What was checked: the chain and head, the tables against a replay, and "
        "what the store adds (its database file, its full-text index)."
    )

    @classmethod
    def of(cls, report: VerifyReport) -> VerifyOut:
        return cls.model_validate(
            {
                "ok": report.ok,
                "events": report.events,
                "first_bad_seq": report.first_bad_seq,
                "problems": [str(problem) for problem in report.problems],
                "checked": list(report.checked),
            }
        )
