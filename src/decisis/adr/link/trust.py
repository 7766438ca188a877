"""Rule trust as the graph records it: each rule's prior plus the links people have judged.

A confirmed link counts as one success of the rule that proposed it, a rejected
link as one failure. Deriving trust from judged links (rather than keeping a
counter beside them) means an undone correction moves trust back by itself, and
``verify``/``at(t)`` give the trust of any moment for free. When a change moves a
rule's trust, a ``rule.trusted`` event in the same append writes the new mean to
the rule's unjudged links (``trust_moves`` says which rules moved).
"""

from __future__ import annotations

from collections.abc import Iterable

from decisis.adr.link.rules import Trust, rules
from decisis.graph import Graph
from decisis.model import Edge, EdgeType, EventDraft, EventKind, LinkState

__all__ = [
    "CORRECTION_PRIOR",
    "CORRECTION_RULE",
    "link_confidence",
    "links_after",
    "rule_trust",
    "trust_from",
    "trust_moves",
]

CORRECTION_RULE = "correction"
CORRECTION_PRIOR = Trust(1.0, 1.0)


def priors() -> dict[str, Trust]:
    out = {rule.name: rule.prior for rule in rules()}
    out[CORRECTION_RULE] = CORRECTION_PRIOR
    return out


def trust_from(edges: Iterable[Edge]) -> dict[str, Trust]:
    """Each rule's trust given the judged links among ``edges``."""
    trust = priors()
    for edge in edges:
        rule = edge.metadata.get("rule")
        if not isinstance(rule, str):
            continue
        base = trust.get(rule, Trust(1.0, 1.0))
        if edge.state is LinkState.CONFIRMED:
            trust[rule] = base.moved(successes=1.0)
        elif edge.state is LinkState.REJECTED:
            trust[rule] = base.moved(failures=1.0)
        else:
            trust.setdefault(rule, base)
    return trust


def links_after(links: Iterable[Edge], changes: Iterable[EventDraft]) -> list[Edge]:
    """``links`` as they will be once ``changes`` land (states set, rule links added,
    tombstoned ones gone): a correction knows the trust it moves before its one append."""
    by_id = {edge.id: edge for edge in links}
    for draft in changes:
        if draft.kind is EventKind.EDGE_UPDATED and draft.entity in by_id:
            state = draft.payload["changes"].get("state")
            if state is not None:
                by_id[draft.entity] = by_id[draft.entity].evolve(state=state)
        elif draft.kind is EventKind.EDGE_ADDED:
            edge = Edge.from_dict(draft.payload["edge"])
            if edge.type is EdgeType.SUPERSEDES and edge.metadata.get("rule") is not None:
                by_id[edge.id] = edge
        elif draft.kind is EventKind.TOMBSTONED and draft.payload.get("target") == "edge":
            by_id.pop(draft.entity, None)
    return list(by_id.values())


def trust_moves(before: Iterable[Edge], after: Iterable[Edge]) -> list[tuple[str, Trust]]:
    """The rules whose trust differs from ``before`` to ``after``, with the new trust."""
    old, new = trust_from(before), trust_from(after)
    return [(rule, trust) for rule, trust in sorted(new.items()) if old.get(rule) != trust]


def rule_trust(graph: Graph) -> dict[str, Trust]:
    """Every rule's current trust in ``graph``."""
    return trust_from(graph.edges(types=[EdgeType.SUPERSEDES]))


def link_confidence(edge: Edge, trust: dict[str, Trust]) -> float:
    """How far a walk may believe one link: judged links are certain either way."""
    if edge.state is LinkState.CONFIRMED:
        return 1.0
    if edge.state is LinkState.REJECTED:
        return 0.0
    rule = edge.metadata.get("rule")
    if isinstance(rule, str) and rule in trust:
        return trust[rule].mean
    return edge.confidence if edge.confidence is not None else 0.5
