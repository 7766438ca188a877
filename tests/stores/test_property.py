"""Every backend agrees with the reference, step by step, on random histories.

A hypothesis state machine drives a reference memory store and the backend under
test side by side with the same drafts: adding nodes and edges of every type,
updates (some refused), supersessions (self, cycles, repeats), tombstones, provenance
entries (about nodes, edges, unknown or tombstoned records, some malformed) and batches
that must fail whole. Each write must succeed on both with the same
checksums or fail on both with the same exception class; every read must agree;
traversals and paths are also checked against networkx; every ledger verifies.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import networkx as nx
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from decisis.errors import DecisisError
from decisis.model import EdgeType, EventDraft, EventKind, NodeStatus, NodeType, new_id
from decisis.stores import Store
from decisis.stores.memory import MemoryStore
from decisis.stores.replay import verify
from tests.stores.helpers import (
    BACKENDS,
    G,
    at,
    edge_added,
    edge_updated,
    event_key,
    make_edge,
    make_node,
    node_added,
    node_updated,
    superseded,
    tombstoned,
)

pick = st.integers(min_value=0, max_value=99)  # an index; from GHOST up, an id never seen
GHOST = 95
edge_types = st.none() | st.lists(st.sampled_from(list(EdgeType)), max_size=3, unique=True)
NODE_CHANGES = [
    {"label": "renamed"},
    {"status": "completed"},
    {"confidence": 0.25, "rationale": "more evidence"},
    {"metadata": {"k": [1, "two"]}},
    {"type": "goal"},  # refused: not mutable
    {"confidence": 3.0},  # refused: out of range
]
EDGE_CHANGES = [{"state": "confirmed"}, {"confidence": 0.5}, {"source": "x"}, {"state": "maybe"}]
ENTRY_FIELDS = [
    {"agent": "alice", "agent_type": "person", "role": "author", "confidence": 0.5},
    {"agent": "bot", "agent_type": "software_agent", "source": "a.md", "source_blob": "0" * 40},
    {"outcome": "failed", "error": "boom", "started_at": "2026-01-01T00:00:00.000000Z"},
    {"agent_type": "robot"},  # refused: not an agent type
    {"confidence": 2},  # refused: out of range
]


class BackendsAgree(RuleBasedStateMachine):
    backend: ClassVar[str] = "memory"
    workdir: ClassVar[Path] = Path(tempfile.gettempdir())

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(dir=self.workdir))
        self.stores: dict[str, Store] = {
            "reference": MemoryStore(),
            self.backend: BACKENDS[self.backend](self.dir),
        }
        self.node_ids: list[str] = []
        self.edge_ids: list[str] = []
        self.minute = 0

    def tick(self) -> Any:
        self.minute += 1
        return at(self.minute)

    def node(self, index: int) -> str:
        if index >= GHOST or not self.node_ids:
            return new_id()
        return self.node_ids[index % len(self.node_ids)]

    def edge(self, index: int) -> str:
        if index >= GHOST or not self.edge_ids:
            return new_id()
        return self.edge_ids[index % len(self.edge_ids)]

    def same(self, read: Callable[[Store], Any]) -> Any:
        """Run one read on every store; all must return equal results or raise alike."""
        results: dict[str, Any] = {}
        for name, store in self.stores.items():
            try:
                results[name] = read(store)
            except DecisisError as exc:
                results[name] = type(exc)
        reference = results["reference"]
        for name, result in results.items():
            assert result == reference, f"{name} differs from the reference: {results}"
        return reference

    def write(self, drafts: list[EventDraft]) -> bool:
        """Append on every store: the same events returned (checksums and invalidation
        marks included), or the same exception class everywhere."""
        outcome = self.same(lambda s: [event_key(e) for e in s.append(G, drafts)])
        if isinstance(outcome, type):
            return False
        for draft in drafts:
            if draft.kind is EventKind.NODE_ADDED:
                self.node_ids.append(draft.entity)
            elif draft.kind is EventKind.EDGE_ADDED:
                self.edge_ids.append(draft.entity)
            elif draft.kind is EventKind.SUPERSEDED:
                self.edge_ids.append(draft.payload["edge"]["id"])
        return True

    # -- writes ---------------------------------------------------------------------------
    @initialize(size=st.integers(min_value=2, max_value=6))
    def seed(self, size: int) -> None:
        """Start from a few linked nodes, so short runs still have a graph to walk."""
        when = self.tick()
        nodes = [make_node(f"seed {i}", when=when) for i in range(size)]
        links = [make_edge(nodes[i // 2], nodes[i], when=when) for i in range(1, size)]
        assert self.write([node_added(n) for n in nodes] + [edge_added(e) for e in links])

    @rule(
        type=st.sampled_from(list(NodeType)),
        status=st.sampled_from(list(NodeStatus)),
        label=st.sampled_from(["auth", "cache queue", "billing", "deploy auth"]),
        lasts=st.none() | st.integers(min_value=1, max_value=20),
        parent=st.none() | pick,
    )
    def add_node(
        self, type: NodeType, status: NodeStatus, label: str, lasts: int | None, parent: int | None
    ) -> None:
        when = self.tick()
        until = None if lasts is None else at(self.minute + lasts)
        node = make_node(label, type, when=when, status=status, valid_until=until)
        drafts = [node_added(node)]
        if parent is not None:
            drafts.append(edge_added(make_edge(self.node(parent), node, when=when)))
        self.write(drafts)

    @rule(tail=pick, head=pick, type=st.sampled_from(list(EdgeType)))
    def add_edge(self, tail: int, head: int, type: EdgeType) -> None:
        a, b = self.node(tail), self.node(head)
        if a != b:
            self.write([edge_added(make_edge(a, b, type, when=self.tick()))])

    @rule(index=pick, change=st.sampled_from(NODE_CHANGES))
    def update_node(self, index: int, change: dict[str, Any]) -> None:
        self.write([node_updated(self.node(index), self.tick(), **change)])

    @rule(index=pick, change=st.sampled_from(EDGE_CHANGES))
    def update_edge(self, index: int, change: dict[str, Any]) -> None:
        self.write([edge_updated(self.edge(index), self.tick(), **change)])

    @rule(old=pick, new=pick)
    def supersede(self, old: int, new: int) -> None:
        old_id, new_id_ = self.node(old), self.node(new)
        when = self.tick()
        if old_id != new_id_:
            self.write([superseded(old_id, new_id_, when)])
            return
        draft = superseded(old_id, new_id(), when)  # a node replacing itself, built by hand
        payload = dict(draft.payload, new=old_id)
        self.write([EventDraft(EventKind.SUPERSEDED, old_id, payload, when)])

    @rule(index=pick, is_edge=st.booleans())
    def tombstone(self, index: int, is_edge: bool) -> None:
        record = self.edge(index) if is_edge else self.node(index)
        self.write([tombstoned(record, "edge" if is_edge else "node", reason="random")])

    @rule(index=pick, is_edge=st.booleans(), fields=st.sampled_from(ENTRY_FIELDS))
    def provenance(self, index: int, is_edge: bool, fields: dict[str, Any]) -> None:
        record = self.edge(index) if is_edge else self.node(index)
        payload = {"entity": record, "activity": "review", **fields}
        self.write([EventDraft(EventKind.PROVENANCE, record, payload, self.tick())])

    @rule(index=pick)
    def refused_batch(self, index: int) -> None:
        fresh = make_node("fresh", when=self.tick())
        drafts = [
            node_added(fresh),
            node_updated(self.node(index), label="changed"),
            edge_added(make_edge(fresh, new_id())),  # always refused: the target is unknown
        ]
        assert not self.write(drafts)

    # -- reads ----------------------------------------------------------------------------
    @rule(
        start=pick,
        end=pick,
        types=edge_types,
        when=st.none() | st.integers(min_value=0, max_value=12),  # tenths of the history
        depth=st.integers(min_value=0, max_value=4) | st.just(100),
    )
    def query(self, start: int, end: int, types: Any, when: int | None, depth: int) -> None:
        a, b = self.node(start), self.node(end)
        as_of = None if when is None else at(self.minute * when / 10)
        limits = {"edge_types": types, "max_depth": depth, "as_of": as_of}
        for direction in ("out", "in"):
            reached = self.same(lambda s, d=direction: s.traverse(G, a, direction=d, **limits))
            self.same(lambda s, d=direction: s.edges(G, node=a, direction=d, as_of=as_of))
            if not isinstance(reached, type):
                oracle = expected_traversal(self.stores["reference"], a, direction, **limits)
                found = [(r.node.id, r.depth, r.via, r.edge_type.value) for r in reached]
                assert found == oracle
        path = self.same(lambda s: s.path_between(G, a, b, **limits))
        if not isinstance(path, type):
            assert path == expected_path(self.stores["reference"], a, b, **limits)
        self.same(lambda s: s.nodes(G, as_of=as_of, types=[NodeType.DECISION, NodeType.GOAL]))
        for record in (a, self.edge(end)):
            self.same(lambda s, r=record: [event_key(e) for e in s.history(G, r, until=as_of)])
        self.same(lambda s: s.nodes(G, newest_first=True, limit=3, statuses=[NodeStatus.ACTIVE]))

    @invariant()
    def tables_and_ledgers_agree(self) -> None:
        for flag in (False, True):
            self.same(lambda s, f=flag: s.nodes(G, include_tombstoned=f))
            self.same(lambda s, f=flag: s.edges(G, include_tombstoned=f))
        self.same(lambda s: [event_key(e) for e in s.events(G)])
        self.same(lambda s: s.head(G))

    def teardown(self) -> None:
        try:
            for name, store in self.stores.items():
                report = verify(store, G)
                assert report.ok, f"{name}: {report.problems}"
        finally:
            for store in self.stores.values():
                store.close()
            shutil.rmtree(self.dir, ignore_errors=True)


def _walkable(
    store: Store, as_of: Any, edge_types: Any, start: str | None = None
) -> nx.MultiDiGraph:
    """The graph a walk may use: what shows at ``as_of``, plus a live ``start`` whatever
    its validity (``as_of`` does not filter a traversal's start)."""
    shown = {n.id for n in store.nodes(G, as_of=as_of)}
    shown |= {n.id for n in store.nodes(G) if n.id == start}
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(shown)
    for edge in store.edges(G, types=edge_types):
        if {edge.source, edge.target} <= shown and (as_of is None or edge.valid_at(as_of)):
            graph.add_edge(edge.source, edge.target, key=edge.type.value)
    return graph


def expected_traversal(
    store: Store, start: str, direction: str, *, edge_types: Any, max_depth: int, as_of: Any
) -> list[tuple[str, int, str, str]]:
    """The traversal rule restated on networkx: depth = BFS distance; via = the smallest
    node one step closer with an edge to it; edge type = the smallest such type."""
    graph = _walkable(store, as_of, edge_types, start)
    if start not in graph:
        return []
    if direction == "in":
        graph = graph.reverse()
    depth = nx.single_source_shortest_path_length(graph, start, cutoff=max_depth)
    out = []
    for node, d in sorted(depth.items(), key=lambda item: (item[1], item[0])):
        if node != start:
            parents = sorted(p for p in graph.predecessors(node) if depth.get(p) == d - 1)
            via = parents[0]
            out.append((node, d, via, min(graph.get_edge_data(via, node))))
    return out


def expected_path(
    store: Store, source: str, target: str, *, edge_types: Any, max_depth: int, as_of: Any
) -> list[str]:
    graph = _walkable(store, as_of, edge_types)
    if source not in graph or target not in graph or not nx.has_path(graph, source, target):
        return []
    if nx.shortest_path_length(graph, source, target) > max_depth:
        return []
    return min(nx.all_shortest_paths(graph, source, target))  # type: ignore[no-any-return]


# Histories per backend. DuckDB pays about 1-3 ms for every statement (it is built for
# large scans, not many tiny transactions), so it runs fewer of them; the rest run 50.
EXAMPLES = {"duckdb": 15}


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_backends_agree_with_the_reference(backend: str, tmp_path: Path) -> None:
    machine = type(
        f"BackendsAgree_{backend}", (BackendsAgree,), {"backend": backend, "workdir": tmp_path}
    )
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=EXAMPLES.get(backend, 50),
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
