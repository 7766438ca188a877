"""Stale dependents: the records that rest on a decision someone has since replaced.

When a decision is superseded, what was built on it does not change by itself: an action
the decision led to, a decision that required it, one it enabled or was a precedent for.
Each such record rests on a replaced premise until someone looks at it again, and either
supersedes it too or re-affirms it (``Graph.reaffirm``: it still holds with what stands
now). What rests on what, by edge type (the dependent is the record that would have to be
looked at again)::

    A -requires-> P        A rests on P
    P -enables-> A         A rests on P
    P -leads_to-> A        A rests on P, when A is an action
    P -precedent_for-> A   A rests on P, when A is a decision

A re-affirmation is one ``node.updated`` event on the dependent, setting the documented
metadata field ``reaffirmed`` (``REAFFIRMED``): for each premise re-affirmed, the ids of
what stood in its place then, when, and a note. It answers for that replacement only: when
what stands is itself replaced later, the standing ids no longer match and the record is
stale again. No schema change and no new event kind: every store already keeps metadata.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from decisis.model import Edge, EdgeType, LinkState, Node, NodeStatus, NodeType

if TYPE_CHECKING:
    from decisis.graph import Graph, Standing

__all__ = ["REAFFIRMED", "RESTS_ON", "Stale", "reaffirmation", "stale_dependents"]

REAFFIRMED = "reaffirmed"
"""The metadata field a re-affirmation sets: ``{premise id: {"standing": [ids], "at": time,
"note": text}}``, one entry per premise the record was re-affirmed against."""


@dataclass(frozen=True, slots=True)
class _Rule:
    """Which end of an edge of one type is the dependent, and which node types it may be."""

    dependent_is_source: bool
    types: frozenset[NodeType] | None = None


RESTS_ON: Mapping[EdgeType, _Rule] = {
    EdgeType.REQUIRES: _Rule(dependent_is_source=True),
    EdgeType.ENABLES: _Rule(dependent_is_source=False),
    EdgeType.LEADS_TO: _Rule(dependent_is_source=False, types=frozenset({NodeType.ACTION})),
    EdgeType.PRECEDENT_FOR: _Rule(dependent_is_source=False, types=frozenset({NodeType.DECISION})),
}
# A superseded or rejected record is already out of the way: nothing to look at again.
_SETTLED = frozenset({NodeStatus.SUPERSEDED, NodeStatus.REJECTED})


@dataclass(frozen=True, slots=True)
class Stale:
    """A record resting on a replaced premise: the dependent ``node``, the ``premise`` it
    rests on, the ``edge`` that joins them, and what stands now in the premise's place."""

    node: Node
    premise: Node
    edge: Edge
    standing: list[Node]

    @property
    def edge_type(self) -> EdgeType:
        return self.edge.type


def reaffirmation(node: Node, premise_id: str) -> dict[str, Any] | None:
    """The re-affirmation ``node`` carries for ``premise_id``, if any (``REAFFIRMED``)."""
    marks = node.metadata.get(REAFFIRMED)
    if not isinstance(marks, Mapping):
        return None
    mark = marks.get(premise_id)
    return dict(mark) if isinstance(mark, Mapping) else None


def _reaffirmed_for(node: Node, premise_id: str, standing: list[Node]) -> bool:
    mark = reaffirmation(node, premise_id)
    if mark is None:
        return False
    return sorted(map(str, mark.get("standing") or [])) == sorted(n.id for n in standing)


def _ends(edge: Edge) -> tuple[str, str] | None:
    """(dependent id, premise id) of a dependency edge, ``None`` for any other edge."""
    rule = RESTS_ON.get(edge.type)
    if rule is None or edge.state in (LinkState.REJECTED, LinkState.CANDIDATE):
        return None
    if rule.dependent_is_source:
        return edge.source, edge.target
    return edge.target, edge.source


def stale_dependents(
    graph: Graph, *, node: str | None = None, premises: set[str] | None = None
) -> list[Stale]:
    """Every record resting on a replaced premise and not re-affirmed since, oldest
    dependent first; only those of ``node`` (a full id) or on ``premises`` when given.

    A premise counts as replaced when ``Graph.current`` follows it to something else
    (stated and confirmed replacements, believed rule proposals); a partial replacement
    leaves it standing, so it is not."""
    replaced = {e.target for e in graph.edges(types=[EdgeType.SUPERSEDES])}
    if premises is not None:
        replaced &= premises
    if not replaced:
        return []
    edges = graph.edges(node, types=list(RESTS_ON)) if node else graph.edges(types=list(RESTS_ON))
    standings: dict[str, Standing] = {}
    nodes: dict[str, Node] = {}
    found = []
    for edge in edges:
        ends = _ends(edge)
        if ends is None or ends[1] not in replaced or (node and ends[0] != node):
            continue
        dependent_id, premise_id = ends
        if premise_id not in standings:
            standings[premise_id] = graph.current(premise_id)
        standing = standings[premise_id]
        if not standing.superseded or any(dependent_id == n.id for n in standing.standing):
            continue
        dependent = nodes.get(dependent_id) or graph.get(dependent_id)
        nodes[dependent_id] = dependent
        rule = RESTS_ON[edge.type]
        if dependent.status in _SETTLED or (rule.types and dependent.type not in rule.types):
            continue
        if _reaffirmed_for(dependent, premise_id, standing.standing):
            continue
        found.append(Stale(dependent, standing.node, edge, standing.standing))
    return sorted(found, key=lambda s: (s.node.id, s.premise.id, s.edge.id))
