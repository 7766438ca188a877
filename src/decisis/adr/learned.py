"""What the graph has learnt: every proposed link, its state and trust, and who judged it."""

from __future__ import annotations

from typing import Any

from decisis.adr.trust import link_confidence
from decisis.adr.view import QUESTION_KIND, view_of
from decisis.graph import Graph
from decisis.model import NodeType

__all__ = ["learned"]


def _judges(graph: Graph) -> dict[str, str]:
    """Edge id -> the corrected question that last judged it."""
    out: dict[str, str] = {}
    for node in graph.nodes(types=[NodeType.OBSERVATION]):
        meta = node.metadata
        if meta.get("kind") == QUESTION_KIND:
            for edge_id in [*dict(meta.get("before") or {}), *(meta.get("proposed") or [])]:
                out[edge_id] = node.label
    return out


def learned(graph: Graph) -> dict[str, Any]:
    """Rules with their trust, and links with rule, state, confidence and correction."""
    view = view_of(graph)
    judges = _judges(graph)
    links = []
    for edge in view.links:
        links.append(
            {
                "old": view.key_of.get(edge.target),
                "new": view.key_of.get(edge.source),
                "rule": edge.metadata.get("rule"),
                "state": edge.state.value,
                "confidence": round(link_confidence(edge, view.trust), 4),
                "evidence": edge.rationale,
                "corrected_by": judges.get(edge.id),
            }
        )
    rules = {
        name: {"successes": t.successes, "failures": t.failures, "trust": round(t.mean, 4)}
        for name, t in view.trust.items()
    }
    return {"rules": rules, "links": links}
