"""Traversals stay fast where a path-enumerating recursive CTE would explode: dense graphs
with cycles, and a large graph where one node reaches about a thousand others."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from decisis.model import EdgeType, format_time, utc_now
from decisis.stores.sqlite import SQLiteStore
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added


def test_a_dense_layered_graph_with_cycles_is_walked_once(sqlite_store: SQLiteStore) -> None:
    """12 layers of 10 nodes, every node joined to every node of the next layer and the last
    layer back to the first: 10**12 paths, 1,200 edges, one visit each."""
    layers = [[make_node(f"layer {i} node {j}") for j in range(10)] for i in range(12)]
    edges = [
        make_edge(a, b)
        for upper, lower in zip(layers, layers[1:] + layers[:1], strict=True)
        for a in upper
        for b in lower
    ]
    batch = [node_added(n) for layer in layers for n in layer] + [edge_added(e) for e in edges]
    sqlite_store.append(G, batch)
    start = layers[0][0]
    reached = sqlite_store.traverse(G, start.id, direction="out")
    back = sqlite_store.traverse(G, start.id, direction="in")
    path = sqlite_store.path_between(G, start.id, layers[11][9].id)
    assert len(reached) == len(back) == 119
    assert [r.depth for r in reached] == sorted(r.depth for r in reached)
    assert {r.depth for r in reached if r.node.id in {n.id for n in layers[0]}} == {12}
    assert reached[0].via == start.id
    assert path == [start.id] + [layer[0].id for layer in layers[1:11]] + [layers[11][9].id]


def _bulk_graph(path: Path, clusters: int, size: int, degree: int) -> list[str]:
    """Write nodes and edges straight into the tables (no ledger: this measures reads only;
    made-up ids in id order keep the build quick).
    Each cluster's nodes link only within it, so a walk reaches about ``size`` nodes."""
    rng = random.Random(42)
    now = format_time(utc_now())
    SQLiteStore(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    starts = []
    node_rows, edge_rows = [], []
    types = [t.value for t in EdgeType]
    edge_ids = (f"e{i:025d}" for i in range(clusters * size * (degree + 1)))
    for c in range(clusters):
        members = [f"n{c * size + i:025d}" for i in range(size)]
        starts.append(members[0])
        node_rows += [(G, m, "decision", f"node {m}", "active", now, now, now) for m in members]
        for source in members:
            for target in rng.sample(members, degree + 1):
                if target != source:
                    edge_type = rng.choice(types)
                    edge_rows.append(
                        (G, next(edge_ids), edge_type, source, target, now, now, now, "stated")
                    )
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO nodes (graph, id, type, label, status, recorded_at, updated_at, valid_from)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        node_rows,
    )
    conn.executemany(
        "INSERT INTO edges (graph, id, type, source, target, recorded_at, updated_at,"
        " valid_from, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        edge_rows,
    )
    conn.execute("COMMIT")
    conn.close()
    return starts


@pytest.mark.slow
def test_a_thousand_nodes_from_a_large_graph(db_path: Path) -> None:
    """A walk on a large graph reaches what it should (its speed is bench_core_traverse's)."""
    starts = _bulk_graph(db_path, clusters=20, size=1000, degree=5)  # 20k nodes, ~100k edges
    with SQLiteStore(db_path) as store:
        for start in starts[1:4]:
            reached = store.traverse(G, start, direction="out")
            assert 900 <= len(reached) < 1000
        far = store.traverse(G, starts[1], direction="out")[-1].node.id
        path = store.path_between(G, starts[1], far)
    assert path[0] == starts[1] and path[-1] == far
