"""The thought graph: an immutable value with adjacency indexes that share structure.

Adding a thought or an edge returns a new graph and leaves this one as it was;
the four persistent vectors (thoughts, edges, outgoing and incoming edge ids per
thought) copy only the trie paths they touch, so an update costs O(log n), not
O(n). Every query below is linear in the thoughts and edges it visits.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._slots import slot_setters
from .pvector import PVector
from .thoughts import DERIVATION_KINDS, EdgeKind, Thought, ThoughtEdge

__all__ = ["ThoughtGraph", "rank_key"]


def rank_key(thought: Thought) -> tuple[bool, float, int]:
    """Sort key putting the best thought first: scored before unscored, higher score,
    then the older thought (a stable, deterministic tie-break)."""
    score = thought.score
    return (score is None, -score if score is not None else 0.0, thought.id)


_EMPTY: PVector[Any] = PVector()  # shared: a PVector never changes


def _empty() -> PVector[Any]:
    return _EMPTY


@dataclass(frozen=True, slots=True, init=False)
class ThoughtGraph:
    """Thoughts and their edges; ids are positions, so they are dense and start at 0."""

    nodes: PVector[Thought] = field(default_factory=_empty)
    edges: PVector[ThoughtEdge] = field(default_factory=_empty)
    out: PVector[tuple[int, ...]] = field(default_factory=_empty)
    inc: PVector[tuple[int, ...]] = field(default_factory=_empty)

    def __init__(
        self,
        nodes: PVector[Thought] = _EMPTY,
        edges: PVector[ThoughtEdge] = _EMPTY,
        out: PVector[tuple[int, ...]] = _EMPTY,
        inc: PVector[tuple[int, ...]] = _EMPTY,
    ) -> None:
        set_nodes, set_edges, set_out, set_inc = _GRAPH_SLOTS  # see decisis.got._slots
        set_nodes(self, nodes)
        set_edges(self, edges)
        set_out(self, out)
        set_inc(self, inc)

    @classmethod
    def build(cls, nodes: Iterable[Thought], edges: Iterable[ThoughtEdge]) -> ThoughtGraph:
        """A graph from whole lists at once, in one linear pass (used by ``from_map``)."""
        node_list = list(nodes)
        edge_list = list(edges)
        out: list[list[int]] = [[] for _ in node_list]
        inc: list[list[int]] = [[] for _ in node_list]
        for edge in edge_list:
            out[edge.source].append(edge.id)
            inc[edge.target].append(edge.id)
        return cls(
            PVector(node_list),
            PVector(edge_list),
            PVector(tuple(ids) for ids in out),
            PVector(tuple(ids) for ids in inc),
        )

    # -- updates (each returns a new graph) -------------------------------------------
    def add_node(
        self, content: str, depth: int, metadata: dict[str, Any] | None = None
    ) -> tuple[ThoughtGraph, Thought]:
        thought = Thought(len(self.nodes), content, None, depth, metadata or {})
        nodes = self.nodes.append(thought)
        return ThoughtGraph(nodes, self.edges, self.out.append(()), self.inc.append(())), thought

    def add_edge(self, source: int, target: int, kind: EdgeKind) -> ThoughtGraph:
        edge = ThoughtEdge(len(self.edges), source, target, kind)
        return ThoughtGraph(
            self.nodes,
            self.edges.append(edge),
            self.out.set(source, (*self.out[source], edge.id)),
            self.inc.set(target, (*self.inc[target], edge.id)),
        )

    def add_derived(
        self, derived: Sequence[tuple[str, int, dict[str, Any], Sequence[int], EdgeKind]]
    ) -> tuple[ThoughtGraph, list[Thought]]:
        """New thoughts, each ``(content, depth, metadata, sources, kind)`` with an edge of
        ``kind`` from each source, in one batch of vector updates (this runs on every
        commit, so it touches each vector once rather than once per thought)."""
        nodes, edges = self.nodes, self.edges
        node_id, edge_id = len(nodes), len(edges)
        thoughts: list[Thought] = []
        new_edges: list[ThoughtEdge] = []
        incoming: list[tuple[int, ...]] = []
        outgoing: dict[int, list[int]] = {}
        for content, depth, metadata, sources, kind in derived:
            thoughts.append(Thought(node_id, content, None, depth, metadata))
            first = edge_id
            for source in sources:
                new_edges.append(ThoughtEdge(edge_id, source, node_id, kind))
                outgoing.setdefault(source, []).append(edge_id)
                edge_id += 1
            incoming.append(tuple(range(first, edge_id)))
            node_id += 1
        out = self.out
        for source, ids in outgoing.items():
            out = out.set(source, out[source] + tuple(ids))
        graph = ThoughtGraph(
            nodes.extend(thoughts),
            edges.extend(new_edges),
            out.extend(((),) * len(thoughts)),
            self.inc.extend(incoming),
        )
        return graph, thoughts

    def set_score(self, node_id: int, score: float) -> ThoughtGraph:
        old = self.nodes[node_id]
        thought = Thought(old.id, old.content, score, old.depth, old.metadata)
        return ThoughtGraph(self.nodes.set(node_id, thought), self.edges, self.out, self.inc)

    # -- queries ----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.nodes)

    def get(self, node_id: int) -> Thought | None:
        if isinstance(node_id, int) and 0 <= node_id < len(self.nodes):
            return self.nodes[node_id]
        return None

    def outgoing(self, node_id: int) -> list[ThoughtEdge]:
        return [self.edges[e] for e in self.out[node_id]] if self.get(node_id) else []

    def incoming(self, node_id: int) -> list[ThoughtEdge]:
        return [self.edges[e] for e in self.inc[node_id]] if self.get(node_id) else []

    def children(self, node_id: int) -> list[Thought]:
        return _unique(self.nodes[edge.target] for edge in self.outgoing(node_id))

    def parents(self, node_id: int) -> list[Thought]:
        return _unique(self.nodes[edge.source] for edge in self.incoming(node_id))

    def _reach(self, start: int, forward: bool) -> list[Thought]:
        """Breadth-first over every edge kind; each thought once, nearest first."""
        if self.get(start) is None:
            return []
        index, pick = (self.out, 1) if forward else (self.inc, 0)
        seen = {start}
        queue = deque([start])
        found: list[Thought] = []
        while queue:
            for edge_id in index[queue.popleft()]:
                edge = self.edges[edge_id]
                other = edge.target if pick else edge.source
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
                    found.append(self.nodes[other])
        return found

    def ancestors(self, node_id: int) -> list[Thought]:
        return self._reach(node_id, forward=False)

    def descendants(self, node_id: int) -> list[Thought]:
        return self._reach(node_id, forward=True)

    def leaves(self) -> list[Thought]:
        """Thoughts nothing was derived from (``connects`` edges do not count)."""
        edges = self.edges
        return [
            thought
            for thought, out in zip(self.nodes, self.out, strict=True)
            if not any(edges[e].kind in DERIVATION_KINDS for e in out)
        ]

    def best(self, thoughts: Iterable[Thought]) -> Thought | None:
        return min(thoughts, key=rank_key, default=None)

    def has_cycle(self) -> bool:
        """Kahn's algorithm over every edge: a cycle leaves thoughts never freed."""
        indegree = [len(ids) for ids in self.inc]
        ready = [i for i, degree in enumerate(indegree) if degree == 0]
        freed = 0
        while ready:
            node = ready.pop()
            freed += 1
            for edge_id in self.out[node]:
                target = self.edges[edge_id].target
                indegree[target] -= 1
                if indegree[target] == 0:
                    ready.append(target)
        return freed != len(self.nodes)

    def reaches(self, source: int, target: int) -> bool:
        return source == target or any(t.id == target for t in self._reach(source, True))

    def trace(self, node_id: int) -> list[Thought]:
        """The path from a root to ``node_id`` along derivation edges, through the best
        parent at each merge; stops rather than loop on a (malformed) cycle."""
        path: list[Thought] = []
        seen: set[int] = set()
        current = self.get(node_id)
        while current is not None and current.id not in seen:
            seen.add(current.id)
            path.append(current)
            sources = [
                self.nodes[edge.source]
                for edge in self.incoming(current.id)
                if edge.kind in DERIVATION_KINDS
            ]
            current = self.best(sources)
        path.reverse()
        return path


_GRAPH_SLOTS = slot_setters(ThoughtGraph)


def _unique(thoughts: Iterator[Thought]) -> list[Thought]:
    seen: set[int] = set()
    out: list[Thought] = []
    for thought in thoughts:
        if thought.id not in seen:
            seen.add(thought.id)
            out.append(thought)
    return out
