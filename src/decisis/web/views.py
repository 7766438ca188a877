"""What the pages show that is derived from the graph rather than read off one record: times
as people read them, the status a node's page claims, what each ledger entry is about, and
a node's neighbourhood for the picture of the graph. Kept apart from the routes so the
pages and the JSON API say the same thing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from decisis.errors import NotFound
from decisis.model import EdgeType, NodeStatus
from decisis.model.ids import is_id

if TYPE_CHECKING:
    from decisis.graph import Graph, Standing
    from decisis.model import Edge, Event, Node

__all__ = ["Entity", "entities", "neighbourhood", "shown_status", "when"]


def when(moment: datetime | None) -> str:
    """``YYYY-MM-DD HH:MM:SS UTC``: to the second, as people compare times on a page (the
    ledger keeps microseconds; the API gives them). A naive time is taken as UTC, as the
    stores write every time in UTC."""
    if moment is None:
        return ""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def shown_status(node: Node, standing: Standing | None) -> str:
    """The status a node's page shows: ``superseded`` when ``Graph.current`` finds a
    replacement it believes, even while the stored status is still ``active`` (a rule's
    proposal confident enough to be believed does not retire the old node), so the badge
    never contradicts the "Superseded" line beside it."""
    if standing is not None and standing.superseded and node.status is NodeStatus.ACTIVE:
        return NodeStatus.SUPERSEDED.value
    return node.status.value


@dataclass(frozen=True, slots=True)
class Entity:
    """What one ledger entry is about, for the audit: a short id unique in the graph (or the
    whole name of a rule), what it is, and the label, ADR key or ends that say which."""

    ref: str  # the full id, or the rule's name
    short: str
    kind: str  # "node", "edge", "rule", or "gone" (tombstoned: out of every query)
    label: str
    link: bool  # whether it has a page


def _node_label(node: Node) -> str:
    key = node.metadata.get("key")
    return f"{key} · {node.label}" if isinstance(key, str) and key else node.label


def _describe(graph: Graph, ref: str, short: str) -> Entity:
    try:
        node = graph.get(ref)
    except NotFound:
        pass
    else:
        return Entity(ref, short, "node", _node_label(node), True)
    try:
        edge = graph.get_edge(ref)
    except NotFound:
        return Entity(ref, short, "gone", "", False)
    ends = []
    for end in (edge.source, edge.target):
        try:
            ends.append(_node_label(graph.get(end)))
        except NotFound:
            ends.append(short_of(graph, end))
    return Entity(ref, short, "edge", f"{edge.type.value}: {ends[0]} → {ends[1]}", True)


def short_of(graph: Graph, record_id: str) -> str:
    return graph.short_ids([record_id]).get(record_id, record_id)


def entities(graph: Graph, events: list[Event]) -> dict[str, Entity]:
    """Each entity the events name, described once (a page of the audit names a few
    records many times)."""
    names = list(dict.fromkeys(event.entity for event in events))
    ids = [name for name in names if is_id(name)]
    short = graph.short_ids(ids) if ids else {}
    out = {}
    for name in names:
        if name in short or is_id(name):
            out[name] = _describe(graph, name, short.get(name, name))
        else:
            out[name] = Entity(name, name, "rule", "", False)
    return out


def _node_dict(node: Node, standing: Standing | None, centre: bool) -> dict[str, Any]:
    return {
        "id": node.id,
        "type": node.type.value,
        "label": node.label,
        "key": key if isinstance(key := node.metadata.get("key"), str) else None,
        "status": shown_status(node, standing),
        "centre": centre,
    }


def _edge_dict(edge: Edge) -> dict[str, Any]:
    return {
        "id": edge.id,
        "type": edge.type.value,
        "source": edge.source,
        "target": edge.target,
        "state": edge.state.value,
        "confidence": edge.confidence,
    }


def neighbourhood(graph: Graph, ref: str) -> dict[str, Any]:
    """A node, every live edge into and out of it with the node at the other end (one
    hop), and its supersession chains to what stands now (``Graph.current``), as nodes and
    edges for a picture: each node once, each edge once."""
    centre = graph.get(ref)
    standing = graph.current(centre.id)
    nodes: dict[str, Node] = {centre.id: centre}
    edges: dict[str, Edge] = {}
    for edge in graph.edges(centre.id):
        edges[edge.id] = edge
        for end in (edge.source, edge.target):
            if end not in nodes:
                nodes[end] = graph.get(end)
    for chain in standing.chains:
        for old, new in pairwise(chain):
            nodes.setdefault(old.id, old)
            nodes.setdefault(new.id, new)
            for edge in graph.edges(new.id, direction="out", types=[EdgeType.SUPERSEDES]):
                if edge.target == old.id:
                    edges.setdefault(edge.id, edge)
    return {
        "centre": centre.id,
        "nodes": [
            _node_dict(n, standing if n.id == centre.id else graph.current(n.id), n.id == centre.id)
            for n in nodes.values()
        ],
        "edges": [_edge_dict(e) for e in edges.values()],
    }
