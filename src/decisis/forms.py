"""The JSON forms of decisis values: plain data with full ids, the same for every front door
(the CLI's ``--json``, the web API), so that a script reads one shape wherever it asks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from decisis.model import format_time

if TYPE_CHECKING:
    from decisis.graph import GoalTree, Reached, SearchHit, Standing, VerifyReport
    from decisis.model import Event, Node
    from decisis.plans import Finding, PlanCheck
    from decisis.search.precedents import Precedent
    from decisis.stale import Stale

__all__ = [
    "event_dict",
    "goal_tree_dict",
    "hit_dict",
    "nodes_list",
    "plan_check_dict",
    "precedent_dict",
    "reached_dict",
    "stale_dict",
    "standing_dict",
    "verify_dict",
]


def nodes_list(nodes: list[Node]) -> list[dict[str, Any]]:
    return [node.to_dict() for node in nodes]


def reached_dict(reached: Reached) -> dict[str, Any]:
    return {
        "node": reached.node.to_dict(),
        "depth": reached.depth,
        "via": reached.via,
        "edge_type": reached.edge_type.value,
    }


def hit_dict(hit: SearchHit) -> dict[str, Any]:
    return {"node": hit.node.to_dict(), "score": hit.score}


def precedent_dict(found: Precedent) -> dict[str, Any]:
    return {
        "node": found.node.to_dict(),
        "score": found.score,
        "ranks": found.ranks,
        "similarity": found.similarity,
    }


def goal_tree_dict(tree: GoalTree) -> dict[str, Any]:
    children = [{"edge": edge.to_dict(), "node": node.to_dict()} for edge, node in tree.children]
    return {"goal": tree.goal.to_dict(), "children": children}


def standing_dict(standing: Standing) -> dict[str, Any]:
    return {
        "node": standing.node.to_dict(),
        "superseded": standing.superseded,
        "standing": nodes_list(standing.standing),
        "chains": [nodes_list(chain) for chain in standing.chains],
    }


def stale_dict(stale: Stale) -> dict[str, Any]:
    """A record resting on a replaced premise, with what stands now in its place."""
    return {
        "node": stale.node.to_dict(),
        "premise": stale.premise.to_dict(),
        "edge_type": stale.edge_type.value,
        "edge": stale.edge.to_dict(),
        "standing": nodes_list(stale.standing),
    }


def finding_dict(finding: Finding) -> dict[str, Any]:
    return {
        "kind": finding.kind,
        "premise": finding.premise.to_dict(),
        "premise_key": finding.premise_key,
        "standing": nodes_list(list(finding.standing)),
        "standing_keys": list(finding.standing_keys),
        "words": list(finding.words),
        "reason": finding.reason,
        "weight": finding.weight,
    }


def plan_check_dict(check: PlanCheck) -> dict[str, Any]:
    """Every step of a checked plan with its findings (an empty list for most)."""
    return {
        "steps": [
            {
                "number": s.step.number,
                "text": s.step.text,
                "findings": [finding_dict(f) for f in s.findings],
            }
            for s in check.steps
        ],
        "findings": check.findings,
    }


def event_dict(event: Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "kind": event.kind.value,
        "entity": event.entity,
        "at": format_time(event.at),
        "payload": event.payload,
        "prev_checksum": event.prev_checksum,
        "checksum": event.checksum,
        "invalidated_at": format_time(event.invalidated_at) if event.invalidated_at else None,
        "invalidated_reason": event.invalidated_reason,
    }


def verify_dict(report: VerifyReport) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "events": report.events,
        "first_bad_seq": report.first_bad_seq,
        "problems": [str(problem) for problem in report.problems],
        "checked": list(report.checked),
    }
