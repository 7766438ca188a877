"""What each decision tool does: validated arguments in, a small JSON-able dict out.

Handlers raise ``DecisisError`` for anything the caller got wrong; the toolbox turns
that into a tool error result in one place (``decisis.agent.tools.Toolbox.call``).
Ids in every output are short prefixes, as people see them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from decisis.errors import NotFound
from decisis.files import with_affects
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
)
from decisis.graph import Graph
from decisis.model import Node, NodeType
from decisis.search.precedents import is_correction_question, is_ingested_record
from decisis.stale import Stale

_ROOM = 16  # extra hits asked of full text, for the correction questions left out

__all__ = [
    "RUN_KIND",
    "SHORT_ID_LENGTH",
    "add_goal",
    "agent_decisions",
    "check_plan",
    "correct_decision",
    "current_decision",
    "find_decisions",
    "find_precedents",
    "ingested_records",
    "node_dicts",
    "query_decisions",
    "reaffirm_decision",
    "record_decision",
    "record_outcome",
    "short_ids",
    "stale_dependents",
    "stale_dicts",
    "supersede_decision",
]


# Ten characters are the millisecond; three more keep a prefix handed to an agent unique
# as the graph grows (git-style shortest prefixes grow, and an old one turns ambiguous).
SHORT_ID_LENGTH = 13
RUN_KIND = "agent-run"  # decisions the per-run recorder writes: not shown as the agent's own


def short_ids(graph: Graph, ids: Sequence[str]) -> dict[str, str]:
    """Prefixes an agent can keep using across turns."""
    if not ids:
        return {}
    return graph.store.short_ids(graph.name, list(ids), min_length=SHORT_ID_LENGTH)


def agent_decisions(graph: Graph, limit: int) -> tuple[list[Node], int]:
    """The newest ``limit`` decisions recorded (by agents and people), and how many there
    are: run records and records ingested from ADR files left out (``ingested_records``)."""
    wanted = [
        n
        for n in graph.nodes(types=[NodeType.DECISION])
        if n.metadata.get("kind") != RUN_KIND and not is_ingested_record(n)
    ]
    wanted.reverse()
    return wanted[:limit], len(wanted)


def ingested_records(graph: Graph) -> list[Node]:
    """The decisions read from ADR files by ``ingest``, oldest first."""
    return [n for n in graph.nodes(types=[NodeType.DECISION]) if is_ingested_record(n)]


def node_dicts(graph: Graph, nodes: Sequence[Node]) -> list[dict[str, Any]]:
    """Nodes as the agent sees them: short id, type, label, status, and what else is set."""
    short = short_ids(graph, [n.id for n in nodes])
    out = []
    for node in nodes:
        item: dict[str, Any] = {
            "id": short.get(node.id, node.id),
            "type": node.type.value,
            "label": node.label,
            "status": node.status.value,
        }
        if node.confidence is not None:
            item["confidence"] = node.confidence
        if node.rationale:
            item["rationale"] = node.rationale
        out.append(item)
    return out


def _one(graph: Graph, node: Node) -> dict[str, Any]:
    return node_dicts(graph, [node])[0]


def add_goal(graph: Graph, args: AddGoal) -> dict[str, Any]:
    goal = graph.add_goal(args.label, rationale=args.rationale, confidence=args.confidence)
    return {"goal": _one(graph, goal)}


def record_decision(graph: Graph, args: RecordDecision) -> dict[str, Any]:
    decision = graph.record_decision(
        args.label,
        goal=args.goal_id,
        chosen=args.chosen,
        rejected=args.rejected,
        rationale=args.rationale,
        confidence=args.confidence,
        metadata=with_affects(None, args.affects) if args.affects else None,
    )
    options = [node for _, node in graph.children(decision.id) if node.type.value == "option"]
    return {"decision": _one(graph, decision), "options": node_dicts(graph, options)}


def record_outcome(graph: Graph, args: RecordOutcome) -> dict[str, Any]:
    outcome = graph.record_outcome(
        args.label,
        decision=args.decision_id,
        rationale=args.rationale,
        confidence=args.confidence,
    )
    return {"outcome": _one(graph, outcome)}


def query_decisions(graph: Graph, args: QueryDecisions) -> dict[str, Any]:
    """One read of the graph, chosen by ``kind``; traversals are capped at ``limit`` nodes."""
    kind, ref = args.kind, args.id or ""
    if kind == "active_goals":
        nodes = graph.active_goals()
    elif kind == "recent":
        nodes, total = agent_decisions(graph, args.limit)
        found = {"kind": kind, "nodes": node_dicts(graph, nodes)}
        return found | ({"not_shown": total - len(nodes)} if total > len(nodes) else {})
    elif kind == "path":
        nodes = graph.path_between(ref, args.target_id or "")
    elif kind == "current":
        standing = graph.current(ref)
        resting = graph.stale(premise=standing.node.id) if standing.superseded else []
        return {
            "node": _one(graph, standing.node),
            "superseded": standing.superseded,
            "standing": node_dicts(graph, standing.standing),
            "stale": stale_dicts(graph, resting),
        }
    else:
        walk = {"ancestors": graph.ancestors, "descendants": graph.descendants, "why": graph.why}
        nodes = [reached.node for reached in walk[kind](ref)]
    shown = nodes[: args.limit]
    result: dict[str, Any] = {"kind": kind, "nodes": node_dicts(graph, shown)}
    if len(nodes) > len(shown):
        result["not_shown"] = len(nodes) - len(shown)
    return result


def supersede_decision(graph: Graph, args: SupersedeDecision) -> dict[str, Any]:
    """Replace a decision; with ``new_label`` the replacement is recorded first."""
    old = graph.get(args.old_id)
    if args.new_id is not None:
        new = graph.get(args.new_id)
    else:
        new = graph.record_decision(args.new_label or "", rationale=args.rationale)
    graph.supersede(old.id, new.id, rationale=args.rationale)
    return {"superseded": _one(graph, graph.get(old.id)), "standing": _one(graph, new)}


def current_decision(graph: Graph, args: CurrentDecision) -> dict[str, Any]:
    """What stands on a question: the team's ADR record (ADR answering) and the decisions
    agents and people recorded that share the question's words, each followed to what
    replaced it. ``kind`` says which kind of record ``answer`` is: ``adr-record``, or
    ``decision`` when no record answers but a recorded decision does; ``null`` for neither."""
    from decisis.adr import ask

    answer = ask(graph, args.question)
    decisions = _standing_decisions(graph, args.question)
    out: dict[str, Any] = {
        "answer": answer.answer,
        "kind": "adr-record" if answer.answer is not None else None,
        "text": answer.text,
        "chain": answer.chain,
        "confidence": round(answer.confidence, 4),
        "decisions": decisions,
    }
    if answer.answer is None and decisions:
        best = decisions[0]
        stands = best["standing"][0]
        out.update(
            answer=stands["id"],
            kind="decision",
            text=f"{stands['label']} ({stands['status']}): recorded decision"
            + (f", replacing {best['label']}" if stands["id"] != best["id"] else ""),
            chain=[n["id"] for n in best["chain"]],
        )
    return out


_OWN_DECISIONS = 3  # recorded decisions an answer lists


def _standing_decisions(graph: Graph, question: str) -> list[dict[str, Any]]:
    """The recorded decisions (ADR records and correction questions left out) that full
    text finds for the question — words in common, not a guess by meaning alone — each with
    what stands for it now (``Graph.current``) and the chain to it."""
    found = [
        p
        for p in graph.precedents(question, k=_OWN_DECISIONS * 2, records=False)
        if "fulltext" in p.ranks
    ][:_OWN_DECISIONS]
    out = []
    for precedent in found:
        standing = graph.current(precedent.node.id)
        [item] = node_dicts(graph, [precedent.node])
        item["standing"] = node_dicts(graph, standing.standing)
        item["chain"] = node_dicts(graph, standing.chains[0]) if standing.chains else [item]
        out.append(item)
    return out


def decisions_for(graph: Graph, args: DecisionsFor) -> dict[str, Any]:
    """The standing decisions on each path, nearest first, each with what it replaced."""
    found = graph.decisions_for(args.paths)
    nodes = [n for e in found for d in e.decisions for n in (d.node, *d.replaced)]
    short = short_ids(graph, [n.id for n in nodes])
    out = []
    for entry in found:
        decisions = []
        for item in entry.decisions:
            shown = _one(graph, item.node)
            shown["pattern"] = item.pattern
            shown["replaced"] = [{"id": short[n.id], "label": n.label} for n in item.replaced]
            decisions.append(shown)
        out.append({"path": entry.path, "decisions": decisions})
    return {"paths": out}


def find_decisions(graph: Graph, args: FindDecisions) -> dict[str, Any]:
    """Full-text hits among the recorded nodes; the questions corrections keep are not
    decisions and are left out."""
    found = graph.search(args.search, limit=args.limit + _ROOM)
    hits = [hit for hit in found if not is_correction_question(hit.node)][: args.limit]
    items = node_dicts(graph, [hit.node for hit in hits])
    for item, hit in zip(items, hits, strict=True):
        item["score"] = round(hit.score, 4)
    return {"hits": items}


def find_precedents(graph: Graph, args: FindPrecedents) -> dict[str, Any]:
    """The decisions closest to a situation by meaning and words (``Graph.precedents``)."""
    found = graph.precedents(args.situation, k=args.k, records=args.include_records)
    items = node_dicts(graph, [p.node for p in found])
    for item, precedent in zip(items, found, strict=True):
        item["score"] = round(precedent.score, 4)
        if precedent.similarity is not None:
            item["similarity"] = round(precedent.similarity, 4)
        item["found_by"] = sorted(precedent.ranks)
    return {"precedents": items}


def _record_key(graph: Graph, ref: str) -> str:
    """The ADR record key for a key, a node id or a prefix of one."""
    from decisis.adr import view_of

    view = view_of(graph)
    if ref in view.records:
        return ref
    node_id = graph.resolve(ref)
    key = view.key_of.get(node_id)
    if key is None:
        raise NotFound("decision record", ref, graph.name)
    return key


def correct_decision(graph: Graph, args: CorrectDecision) -> dict[str, Any]:
    """Teach the answering which record answers a question (or that none does)."""
    from decisis.adr import correct

    ref = args.correct_decision_id
    key = _record_key(graph, ref) if ref else None
    done = correct(graph, args.question, key)
    return {"question": done.question, "answer": done.key, "was": done.was}


def stale_dicts(graph: Graph, found: Sequence[Stale]) -> list[dict[str, Any]]:
    """Records resting on a replaced premise, as the agent sees them."""
    out = []
    for item in found:
        node, premise, *standing = node_dicts(graph, [item.node, item.premise, *item.standing])
        out.append(
            {
                "node": node,
                "rests_on": premise,
                "edge_type": item.edge_type.value,
                "standing": standing,
            }
        )
    return out


def stale_dependents(graph: Graph, args: StaleDependents) -> dict[str, Any]:
    """What rests on a replaced decision and was not re-affirmed (``Graph.stale``)."""
    return {"stale": stale_dicts(graph, graph.stale(args.id))}


def reaffirm_decision(graph: Graph, args: ReaffirmDecision) -> dict[str, Any]:
    """Say a record still holds with what replaced its premise (``Graph.reaffirm``)."""
    node = graph.reaffirm(args.id, premise=args.premise_id, note=args.note)
    return {"reaffirmed": _one(graph, node), "stale": stale_dicts(graph, graph.stale(node.id))}


def check_plan(graph: Graph, args: CheckPlan) -> dict[str, Any]:
    """Each step of a plan with what it names that no longer stands (``Graph.check_plan``);
    steps that go against nothing are counted, not listed."""
    checked = graph.check_plan(args.plan)
    steps = []
    for item in checked.steps:
        if not item.findings:
            continue
        findings = []
        for finding in item.findings:
            premise, *standing = node_dicts(graph, [finding.premise, *finding.standing])
            if finding.premise_key:
                premise["key"] = finding.premise_key
            for entry, key in zip(standing, finding.standing_keys, strict=True):
                if key:
                    entry["key"] = key
            findings.append(
                {
                    "kind": finding.kind,
                    "premise": premise,
                    "standing": standing,
                    "reason": finding.reason,
                }
            )
        steps.append({"step": item.step.number, "text": item.step.text, "findings": findings})
    return {"steps_checked": len(checked.steps), "steps": steps}
