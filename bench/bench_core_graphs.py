"""Synthetic decision graphs for the traversal benchmark, written through ``Store.append``.

The graph is a forest of independent *clusters*, one per goal, as a store used by
many agents on many goals would hold. Each cluster is a layered DAG: ``layers``
layers of ``width`` nodes; every node links to ``fanout`` random nodes of the next
layer, and with probability ``skip`` also to a random node two or more layers
down (a cross edge). From a first-layer node the reachable set doubles per layer
until it fills the layer width, so it reaches roughly 700-1,100 nodes; the same
holds backwards from a last-layer node. Clusters never link to each other, so the
reach of a query stays the same however large the graph grows: what changes with
size is only how much graph there is *not* to read.

With the default shape (20 x 80, fanout 2, skip 0.1) a cluster has 1,600 nodes
and about 3,200 edges; 1M edges is about 315 clusters and 500k nodes. The last
cluster is cut short so the graph has exactly the requested number of edges.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.model import (
    Edge,
    EdgeType,
    EventDraft,
    EventKind,
    Node,
    NodeStatus,
    NodeType,
    new_id,
    utc_now,
)
from decisis.stores import Store

__all__ = ["Picks", "Shape", "build", "cluster_edges", "pick_queries"]

TARGET_REACH = 1_000


@dataclass(frozen=True)
class Shape:
    """The shape of one cluster."""

    layers: int = 20
    width: int = 80
    fanout: int = 2
    skip: float = 0.1

    @property
    def nodes(self) -> int:
        return self.layers * self.width


@dataclass(frozen=True)
class Picks:
    """The query nodes: a start for descendants, one for ancestors, and a path's ends."""

    descendants_from: str
    ancestors_from: str
    path_source: str
    path_target: str
    reach_down: int
    reach_up: int
    path_length: int


def cluster_edges(rng: random.Random, shape: Shape) -> list[tuple[int, int, EdgeType]]:
    """Edges of one cluster as (source index, target index, type); index = layer * width + i."""
    out = []
    w = shape.width
    for layer in range(shape.layers - 1):
        for i in range(w):
            u = layer * w + i
            for j in rng.sample(range(w), shape.fanout):
                out.append((u, (layer + 1) * w + j, EdgeType.LEADS_TO))
            if layer + 2 < shape.layers and rng.random() < shape.skip:
                far = rng.randrange(layer + 2, shape.layers) * w + rng.randrange(w)
                out.append((u, far, EdgeType.INFLUENCED))
    return out


def _node_type(index: int, shape: Shape) -> NodeType:
    layer = index // shape.width
    if layer == 0:
        return NodeType.GOAL
    return NodeType.OUTCOME if layer == shape.layers - 1 else NodeType.DECISION


def _templates(at: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    """A node and an edge payload in ``to_dict`` form, made once through the model."""
    node = Node(
        id=new_id(),
        type=NodeType.GOAL,
        label="t",
        status=NodeStatus.ACTIVE,
        recorded_at=at,
        updated_at=at,
        valid_from=at,
    )
    edge = Edge(
        id=new_id(),
        type=EdgeType.LEADS_TO,
        source=new_id(),
        target=new_id(),
        recorded_at=at,
        updated_at=at,
        valid_from=at,
    )
    return node.to_dict(), edge.to_dict()


def _cluster_drafts(
    c: int, edges: list[tuple[int, int, EdgeType]], shape: Shape
) -> tuple[list[str], Iterator[EventDraft]]:
    """Node ids of cluster ``c`` and the drafts that add its nodes, then its edges.

    Payloads are copies of a model-made template (the store validates every one
    again on append), which keeps the generator's own cost out of the build time.
    """
    at = utc_now()
    node_t, edge_t = _templates(at)
    ids = [new_id() for _ in range(shape.nodes)]

    def stream() -> Iterator[EventDraft]:
        for i, node_id in enumerate(ids):
            node = {**node_t, "id": node_id, "type": _node_type(i, shape).value}
            node["label"] = f"cluster {c} node {i}"
            yield EventDraft(EventKind.NODE_ADDED, node_id, {"node": node}, at)
        for s, t, kind in edges:
            edge_id = new_id()
            edge = {**edge_t, "id": edge_id, "type": kind.value, "source": ids[s]}
            edge["target"] = ids[t]
            yield EventDraft(EventKind.EDGE_ADDED, edge_id, {"edge": edge}, at)

    return ids, stream()


def _reach(adjacency: dict[int, list[int]], start: int) -> dict[int, int]:
    """BFS depths of the nodes reachable from ``start`` (not including it)."""
    depth = {start: 0}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        for v in adjacency.get(u, ()):
            if v not in depth:
                depth[v] = depth[u] + 1
                queue.append(v)
    del depth[start]
    return depth


def pick_queries(ids: list[str], edges: list[tuple[int, int, EdgeType]], shape: Shape) -> Picks:
    """Starts whose reach is closest to ``TARGET_REACH``, and the deepest node below one."""
    down: dict[int, list[int]] = {}
    up: dict[int, list[int]] = {}
    for s, t, _ in edges:
        down.setdefault(s, []).append(t)
        up.setdefault(t, []).append(s)
    last = (shape.layers - 1) * shape.width
    tops = {i: _reach(down, i) for i in range(shape.width)}
    bottoms = {i: _reach(up, i) for i in range(last, last + shape.width)}
    top = min(tops, key=lambda i: (abs(len(tops[i]) - TARGET_REACH), i))
    bottom = min(bottoms, key=lambda i: (abs(len(bottoms[i]) - TARGET_REACH), i))
    deepest = max(tops[top].items(), key=lambda kv: (kv[1], -kv[0]))
    return Picks(
        descendants_from=ids[top],
        ancestors_from=ids[bottom],
        path_source=ids[top],
        path_target=ids[deepest[0]],
        reach_down=len(tops[top]),
        reach_up=len(bottoms[bottom]),
        path_length=deepest[1],
    )


def build(
    store: Store,
    graph: str,
    n_edges: int,
    *,
    shape: Shape | None = None,
    seed: int = 2026,
    chunk: int = 10_000,
) -> tuple[int, Picks]:
    """Append a graph of exactly ``n_edges`` edges in chunks of ``chunk`` drafts.

    Returns the number of nodes written and the query picks (made in the middle
    cluster, so they sit among other clusters' ids rather than at an end).
    """
    shape = shape or Shape()
    rng = random.Random(seed)
    per_cluster = len(cluster_edges(random.Random(seed), shape))
    n_clusters = max(1, -(-n_edges // per_cluster))
    middle = n_clusters // 2
    left, nodes, picks, batch = n_edges, 0, None, []
    for c in range(n_clusters):
        edges = cluster_edges(rng, shape)[:left]
        left -= len(edges)
        ids, stream = _cluster_drafts(c, edges, shape)
        nodes += len(ids)
        if c == middle:
            picks = pick_queries(ids, edges, shape)
        for draft in stream:
            batch.append(draft)
            if len(batch) >= chunk:
                store.append(graph, batch)
                batch = []
    if batch:
        store.append(graph, batch)
    assert picks is not None
    return nodes, picks
