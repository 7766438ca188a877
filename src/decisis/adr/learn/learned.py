"""What the graph has learnt: every proposed link, its state and trust, and who judged it.

Each rule also lists its trust moves, read from the ledger: every ``rule.trusted``
event with the correction that moved it (the question whose node the same append
added, or tombstoned when the correction was undone; one append shares one time).
"""

from __future__ import annotations

from typing import Any

from decisis.adr.answer.walk import named_subjects
from decisis.adr.link.trust import link_confidence
from decisis.adr.link.view import QUESTION_KIND, view_of
from decisis.graph import Graph
from decisis.model import Event, EventKind, NodeType, format_time

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


def _cause(event: Event, questions: dict[str, str]) -> tuple[str, bool] | None:
    """(question, undone) when ``event`` records a correction or its undoing, else ``None``."""
    payload = event.payload
    if event.kind is EventKind.NODE_ADDED:
        node = payload["node"]
        if (node.get("metadata") or {}).get("kind") == QUESTION_KIND:
            questions[node["id"]] = node["label"]
            return node["label"], False
    elif event.kind is EventKind.TOMBSTONED and payload["id"] in questions:
        return questions[payload["id"]], True
    return None


def _moves(graph: Graph) -> dict[str, list[dict[str, Any]]]:
    """Rule name -> its ``rule.trusted`` events, oldest first, each with its correction."""
    out: dict[str, list[dict[str, Any]]] = {}
    questions: dict[str, str] = {}
    cause: tuple[str, bool] | None = None
    cause_at = None
    for event in graph.events():
        found = _cause(event, questions)
        if found is not None:
            cause, cause_at = found, event.at
        elif event.kind is EventKind.RULE_TRUSTED:
            payload = event.payload
            same_append = cause is not None and cause_at == event.at
            question, undone = cause if cause is not None and same_append else (None, False)
            out.setdefault(payload["rule"], []).append(
                {
                    "seq": event.seq,
                    "at": format_time(event.at),
                    "successes": payload["successes"],
                    "failures": payload["failures"],
                    "trust": round(payload["confidence"], 4),
                    "by": question,
                    "undone": undone,
                }
            )
    return out


def learned(graph: Graph) -> dict[str, Any]:
    """Rules with their trust and its moves, and links with rule, state, confidence, the
    evidence, whether they replace only part of a record, the subject the rule read as
    replaced (``named``, as stems), and the correction that judged them."""
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
                "partial": bool(edge.metadata.get("partial")),
                "named": named_subjects(edge),
                "corrected_by": judges.get(edge.id),
            }
        )
    moves = _moves(graph)
    rules = {
        name: {
            "successes": t.successes,
            "failures": t.failures,
            "trust": round(t.mean, 4),
            "moves": moves.get(name, []),
        }
        for name, t in view.trust.items()
    }
    return {"rules": rules, "links": links}
