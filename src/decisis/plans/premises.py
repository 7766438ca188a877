"""What a plan could lean on that no longer stands, each with what stands in its place.

Three kinds, gathered from the graph once per check:

- a **replaced** decision: a recorded decision someone superseded (followed with
  ``Graph.current``), or an ADR record the answering engine believes fully replaced
  (``decisis.adr.believed_links``, partial replacements left out: the old record still
  stands in part), followed to the record that stands at the end of the chain;
- a **rejected** option: an option a standing decision turned down (a ``rejected`` edge);
- what a standing decision says it leaves behind, **turned down** in its own words
  (``decisis.plans.wording``: "instead of Create React App", "from Serverless Framework
  to …"), one text a phrase.

Each premise carries its words (``texts``) and the terms that what stands also uses
(``carried``): naming one of those is no sign of leaning on the old.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from decisis.graph import Graph
from decisis.model import EdgeType, Node, NodeStatus, NodeType
from decisis.plans.wording import used_terms, windows
from decisis.search.precedents import is_ingested_record
from decisis.search.terms import term_sequence
from decisis.search.text import terms

__all__ = ["Premise", "PremiseKind", "Premises", "gather"]

PremiseKind = Literal["replaced", "rejected", "turned-down"]
_LIVE = (NodeStatus.ACTIVE, NodeStatus.COMPLETED)


@dataclass(frozen=True, slots=True)
class Premise:
    """Something no longer standing: the ``node`` (a replaced decision, a rejected option,
    or the standing decision that left something behind), what stands in its place, its
    words, and the terms of what stands."""

    node: Node
    kind: PremiseKind
    standing: tuple[Node, ...]
    texts: tuple[str, ...]
    carried: frozenset[str]


@dataclass
class Premises:
    """Every premise of a graph, the record keys of ingested ADRs, and the terms each
    standing decision uses (for the rule that a term any standing decision uses is still
    in use)."""

    items: list[Premise] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)
    in_use: set[str] = field(default_factory=set)
    documents: list[set[str]] = field(default_factory=list)


def _said(node: Node) -> str:
    return f"{node.label}\n{node.rationale or ''}"


def _chosen(graph: Graph, decision: Node) -> list[Node]:
    return [n for e, n in graph.children(decision.id) if e.type is EdgeType.CHOSEN]


def _uses(graph: Graph, node: Node, options: dict[str, list[Node]]) -> set[str]:
    """What a standing decision decides with: its title's terms (but what the title says it
    leaves behind) and its chosen options'. Not its longer text: a record's text tells of
    the state of things when it was written, and often of what it replaced."""
    found = used_terms(node.label)
    for option in options.get(node.id, []):
        found |= set(terms(option.label))
    return found


def _record_chains(graph: Graph) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Each fully replaced ADR record's key -> the keys that stand at the end of its chain."""
    from decisis.adr import believed_links, view_of

    newer: dict[str, list[str]] = {}
    for link in believed_links(graph):
        if not link.partial:
            newer.setdefault(link.old, []).append(link.new)
    ends: dict[str, list[str]] = {}
    for old, first in newer.items():
        seen, frontier, last = {old}, [old], []
        while frontier:
            key = frontier.pop()
            following = [k for k in newer.get(key, []) if k not in seen]
            if not following and key != old:
                last.append(key)
            seen.update(following)
            frontier += following
        ends[old] = sorted(set(last)) or first
    view = view_of(graph)
    return ends, view.key_of


def _replaced(graph: Graph, decisions: list[Node]) -> Iterator[tuple[Node, list[Node]]]:
    """(replaced decision, what stands now) for recorded decisions and ADR records."""
    records = [n for n in decisions if is_ingested_record(n)]
    if records:
        ends, key_of = _record_chains(graph)
        by_key = {key_of[n.id]: n for n in records if n.id in key_of}
        for old, news in ends.items():
            if old in by_key:
                yield by_key[old], [by_key[k] for k in news if k in by_key]
    for node in decisions:
        if node.status is NodeStatus.SUPERSEDED and not is_ingested_record(node):
            standing = graph.current(node.id)
            if standing.superseded:
                yield node, standing.standing


def gather(graph: Graph) -> Premises:
    """The premises of ``graph`` as it stands (see the module docstring)."""
    decisions = graph.nodes(types=[NodeType.DECISION])
    options: dict[str, list[Node]] = {}
    rejected: list[tuple[Node, Node]] = []
    for edge in graph.edges(types=[EdgeType.CHOSEN, EdgeType.REJECTED]):
        node = graph.get(edge.target)
        if edge.type is EdgeType.CHOSEN:
            options.setdefault(edge.source, []).append(node)
        else:
            rejected.append((graph.get(edge.source), node))
    out = Premises()
    replaced = list(_replaced(graph, decisions))
    gone = {old.id for old, _ in replaced}
    standing = [n for n in decisions if n.status in _LIVE and n.id not in gone]
    uses = {n.id: _uses(graph, n, options) for n in standing}
    for node in standing:
        out.in_use |= uses[node.id]
    for old, now in replaced:
        texts = (old.label, old.rationale or "", *(o.label for o in options.get(old.id, [])))
        carried = set().union(*(uses.get(n.id) or _uses(graph, n, options) for n in now))
        out.items.append(Premise(old, "replaced", tuple(now), texts, frozenset(carried)))
    for decision, option in rejected:
        if decision.id in uses:
            premise = Premise(
                option, "rejected", (decision,), (option.label,), frozenset(uses[decision.id])
            )
            out.items.append(premise)
    for node in standing:
        said = _said(node)
        spans = windows(said)
        if spans:
            texts = tuple(said[a:b] for a, b in spans)
            out.items.append(Premise(node, "turned-down", (node,), texts, frozenset(uses[node.id])))
    for node in decisions:
        out.documents.append(set(term_sequence(_said(node))))
    if any(is_ingested_record(n) for n in decisions):
        from decisis.adr import view_of

        out.keys = dict(view_of(graph).key_of)
    return out
