"""Rule trust as the graph records it: each rule's prior plus the links people have judged.

A confirmed link counts as one success of the rule that proposed it, a rejected
link as one failure. Deriving trust from judged links (rather than keeping a
counter beside them) means an undone correction moves trust back by itself, and
``verify``/``at(t)`` give the trust of any moment for free.
"""

from __future__ import annotations

from collections.abc import Iterable

from decisis.adr.rules import Trust, rules
from decisis.graph import Graph
from decisis.model import Edge, EdgeType, LinkState

__all__ = ["CORRECTION_PRIOR", "CORRECTION_RULE", "link_confidence", "rule_trust", "trust_from"]

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
