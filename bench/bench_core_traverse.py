"""Traversals on synthetic graphs of 10k, 100k and 1M edges, against two baselines.

For a node with about 1,000 reachable nodes (see ``bench_core_graphs`` for the
generator) it times ``Graph.descendants``, ``Graph.ancestors`` and
``Graph.path_between`` on a SQLite store, interleaved in the same rounds with

(a) *rebuild per query*: read every edge of the graph from the same SQLite file,
    build a dict of adjacency lists, then BFS -- what a store that indexes per
    traversal does (it returns ids only and skips node rows, which favours it);
(b) *networkx*: ``nx.descendants`` / ``nx.ancestors`` / ``nx.shortest_path`` on a
    ``DiGraph`` already in memory (ids only);
(c) *the floor* (descendants and ancestors): one recursive CTE on the same file that
    returns the reached nodes' rows as dicts -- the least any SQL traversal that hands
    back node rows can do (it gives no depth and no hop, which decisis does).

    .venv/bin/python bench/bench_core_traverse.py [--quick] [--sizes 10000,100000]
        [--rounds N] [--keep DIR] [--profile]

Goals at 1M edges: >= 100x faster than (a), within 3x of (b); at every size descendants
and ancestors within 1.5x of (c). Build time (through
``Store.append`` in chunks of 10k drafts) is reported on its own; ``--keep DIR``
keeps built files there and reuses them on the next run.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sqlite3
import tempfile
import time
from collections import deque
from dataclasses import asdict
from pathlib import Path
from typing import Any

import networkx as nx
from bench_core_common import Stats, interleave, machine_line, ms, print_table, stats
from bench_core_graphs import Picks, build

import decisis
from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.rows import NODE_FIELDS

GRAPH = "default"
FULL_SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (10_000,)
GOAL_VS_REBUILD = 100.0
GOAL_VS_NETWORKX = 3.0
GOAL_VS_FLOOR = 1.5


class RebuildPerQuery:
    """Baseline (a): every query reads all edges, builds adjacency lists, then BFS."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)

    def _adjacency(self, direction: str) -> dict[str, list[str]]:
        near, far = ("source", "target") if direction == "out" else ("target", "source")
        adjacency: dict[str, list[str]] = {}
        rows = self.conn.execute(
            f"SELECT {near}, {far} FROM edges WHERE graph = ? AND tombstoned_at IS NULL", (GRAPH,)
        )
        for a, b in rows:
            adjacency.setdefault(a, []).append(b)
        return adjacency

    def reach(self, start: str, direction: str) -> set[str]:
        adjacency = self._adjacency(direction)
        seen, queue = {start}, deque([start])
        while queue:
            for v in adjacency.get(queue.popleft(), ()):
                if v not in seen:
                    seen.add(v)
                    queue.append(v)
        return seen - {start}

    def path(self, source: str, target: str) -> list[str]:
        adjacency = self._adjacency("out")
        parent: dict[str, str | None] = {source: None}
        queue = deque([source])
        while queue and target not in parent:
            u = queue.popleft()
            for v in adjacency.get(u, ()):
                if v not in parent:
                    parent[v] = u
                    queue.append(v)
        if target not in parent:
            return []
        path: list[str] = []
        node: str | None = target
        while node is not None:
            path.append(node)
            node = parent[node]
        return path[::-1]


class Floor:
    """Baseline (c): one recursive CTE returning the reached nodes' rows as dicts."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)
        columns = ", ".join(f"n.{name}" for name in NODE_FIELDS)
        self.sql = {
            direction: f"""
                WITH RECURSIVE reach(id) AS (
                    SELECT :start
                    UNION
                    SELECT e.{far} FROM reach r
                    JOIN edges e ON e.graph = :graph AND e.{near} = r.id
                    WHERE e.tombstoned_at IS NULL
                )
                SELECT {columns} FROM reach r
                JOIN nodes n ON n.graph = :graph AND n.id = r.id
                WHERE n.tombstoned_at IS NULL AND r.id != :start"""
            for direction, (near, far) in {
                "out": ("source", "target"),
                "in": ("target", "source"),
            }.items()
        }

    def reach(self, start: str, direction: str) -> list[dict[str, Any]]:
        cursor = self.conn.execute(self.sql[direction], {"start": start, "graph": GRAPH})
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]


def prepare(directory: Path, n_edges: int) -> tuple[Path, dict[str, Any]]:
    """The graph file for ``n_edges`` (built now, or reused from ``directory``) and its facts."""
    path = directory / f"core-traverse-{n_edges}.db"
    facts_path = path.with_suffix(".json")
    if path.exists() and facts_path.exists():
        facts = json.loads(facts_path.read_text())
        facts["reused"] = True
        return path, facts
    for stale in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    t0 = time.perf_counter()
    with SQLiteStore(path) as store:
        nodes, picks = build(store, GRAPH, n_edges)
    seconds = time.perf_counter() - t0
    facts = {"edges": n_edges, "nodes": nodes, "build_s": seconds, "picks": asdict(picks)}
    facts_path.write_text(json.dumps(facts, indent=1))
    facts["reused"] = False
    return path, facts


def load_networkx(path: Path) -> nx.DiGraph:
    """The graph's live edges as a networkx ``DiGraph`` (baseline b's graph in memory)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT source, target FROM edges WHERE graph = ? AND tombstoned_at IS NULL", (GRAPH,)
        )
        g = nx.DiGraph()
        g.add_edges_from(rows)
        return g
    finally:
        conn.close()


def check_agree(
    graph: decisis.Graph, rebuild: RebuildPerQuery, floor: Floor, g: nx.DiGraph, p: Picks
) -> None:
    """Refuse to time anything unless the four answer the same questions the same way."""
    for start, direction, nx_reach in (
        (p.descendants_from, "out", nx.descendants),
        (p.ancestors_from, "in", nx.ancestors),
    ):
        walk = graph.descendants if direction == "out" else graph.ancestors
        ours = {r.node.id for r in walk(start)}
        lowest = {row["id"] for row in floor.reach(start, direction)}
        assert ours == nx_reach(g, start) == rebuild.reach(start, direction) == lowest, direction
    lengths = {
        len(graph.path_between(p.path_source, p.path_target)),
        len(nx.shortest_path(g, p.path_source, p.path_target)),
        len(rebuild.path(p.path_source, p.path_target)),
    }
    assert lengths == {p.path_length + 1}, lengths


def profile(graph: decisis.Graph, p: Picks, calls: int = 20, top: int = 12) -> None:
    """cProfile ``calls`` of each decisis operation; print the functions with most own time."""
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        graph.descendants(p.descendants_from)
        graph.ancestors(p.ancestors_from)
        graph.path_between(p.path_source, p.path_target)
    prof.disable()
    print(f"\n  cProfile of {calls} x (descendants, ancestors, path_between), by own time:")
    pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(top)


def time_size(
    path: Path, picks: Picks, rounds: int, *, with_profile: bool = False
) -> list[tuple[str, int, dict[str, Stats]]]:
    """Interleaved timings of the three operations; per operation: name, reach, stats."""
    t0 = time.perf_counter()
    g = load_networkx(path)
    print(f"  networkx graph loaded in {time.perf_counter() - t0:.1f} s (not timed below)")
    rebuild = RebuildPerQuery(path)
    floor = Floor(path)
    results = []
    with decisis.open(f"sqlite:///{path}", GRAPH) as graph:
        check_agree(graph, rebuild, floor, g, picks)
        p = picks
        operations = {
            "descendants": (
                p.reach_down,
                lambda: graph.descendants(p.descendants_from),
                lambda: rebuild.reach(p.descendants_from, "out"),
                lambda: nx.descendants(g, p.descendants_from),
                lambda: floor.reach(p.descendants_from, "out"),
            ),
            "ancestors": (
                p.reach_up,
                lambda: graph.ancestors(p.ancestors_from),
                lambda: rebuild.reach(p.ancestors_from, "in"),
                lambda: nx.ancestors(g, p.ancestors_from),
                lambda: floor.reach(p.ancestors_from, "in"),
            ),
            "path_between": (
                p.path_length + 1,
                lambda: graph.path_between(p.path_source, p.path_target),
                lambda: rebuild.path(p.path_source, p.path_target),
                lambda: nx.shortest_path(g, p.path_source, p.path_target),
                None,
            ),
        }
        for name, (reach, ours, rebuilt, in_memory, lowest) in operations.items():
            calls = {"decisis": ours, "rebuild": rebuilt, "networkx": in_memory}
            per_round = {"decisis": 5, "rebuild": 1, "networkx": 5}
            if lowest is not None:
                calls["floor"], per_round["floor"] = lowest, 5
            times = interleave(calls, rounds=rounds, per_round=per_round)
            results.append((name, reach, {k: stats(v) for k, v in times.items()}))
        if with_profile:
            profile(graph, picks)
    rebuild.conn.close()
    floor.conn.close()
    return results


def _parse_sizes(text: str) -> tuple[int, ...]:
    return tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())


def run(sizes: tuple[int, ...], rounds: int, directory: Path, *, with_profile: bool) -> None:
    """Build (or reuse) each graph, time it, and print the build and the ratio tables."""
    print(machine_line())
    print(f"{rounds} interleaved rounds; per round 5 decisis, 5 networkx, 1 rebuild call\n")
    builds, timings = [], []
    for n_edges in sizes:
        print(f"graph with {n_edges:,} edges:", flush=True)
        path, facts = prepare(directory, n_edges)
        picks = Picks(**facts["picks"])
        events = int(facts["nodes"]) + n_edges
        build_s = float(facts["build_s"])
        builds.append(
            [
                f"{n_edges:,}",
                f"{facts['nodes']:,}",
                f"{build_s:.1f}" + (" (reused)" if facts["reused"] else ""),
                f"{events / build_s:,.0f}",
                f"{path.stat().st_size / 2**20:,.0f}",
            ]
        )
        last = n_edges == sizes[-1]
        for name, reach, s in time_size(path, picks, rounds, with_profile=with_profile and last):
            timings.append(_row(n_edges, name, reach, s))
    print("\nbuild (Store.append, chunks of 10,000 drafts):")
    print_table(["edges", "nodes", "build s", "events/s", "file MiB"], builds)
    print("\ntraversals (median ms, p95 in brackets; ratios of medians):")
    print_table(
        [
            "edges",
            "operation",
            "reached",
            "decisis",
            "(a) rebuild+BFS",
            "(b) networkx",
            "(c) floor",
            "x faster than (a)",
            "x time of (b)",
            "x time of (c)",
        ],
        timings,
    )
    print(
        f"\ngoals at 1M edges: >= {GOAL_VS_REBUILD:.0f}x faster than (a), "
        f"<= {GOAL_VS_NETWORKX:.0f}x the time of (b); descendants and ancestors "
        f"<= {GOAL_VS_FLOOR}x the time of (c) at every size"
    )


def _row(n_edges: int, name: str, reach: int, s: dict[str, Stats]) -> list[object]:
    ours, rebuilt, in_memory = s["decisis"], s["rebuild"], s["networkx"]
    vs_a = rebuilt.median / ours.median
    vs_b = ours.median / in_memory.median
    lowest = s.get("floor")
    vs_c = "-"
    if lowest is not None:
        ratio = ours.median / lowest.median
        vs_c = f"{ratio:.2f}x" + (" ok" if ratio <= GOAL_VS_FLOOR else " MISSED")
    marks = ""
    if n_edges >= 1_000_000:
        marks = " ok" if vs_a >= GOAL_VS_REBUILD else " MISSED"
    return [
        f"{n_edges:,}",
        name,
        reach,
        f"{ms(ours.median)} ({ms(ours.p95)})",
        f"{ms(rebuilt.median)} ({ms(rebuilt.p95)})",
        f"{ms(in_memory.median)} ({ms(in_memory.p95)})",
        "-" if lowest is None else f"{ms(lowest.median)} ({ms(lowest.p95)})",
        f"{vs_a:,.0f}x{marks}" if vs_a >= 10 else f"{vs_a:.1f}x{marks}",
        f"{vs_b:.1f}x"
        + ((" ok" if vs_b <= GOAL_VS_NETWORKX else " MISSED") if n_edges >= 1_000_000 else ""),
        vs_c,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10k edges only, 3 rounds")
    parser.add_argument("--sizes", type=_parse_sizes, help="comma-separated edge counts")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per operation")
    parser.add_argument("--keep", type=Path, help="build into DIR and reuse what is there")
    parser.add_argument("--profile", action="store_true", help="cProfile at the largest size")
    args = parser.parse_args()
    sizes = args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES)
    rounds = args.rounds or (3 if args.quick else 11)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(sizes, rounds, args.keep, with_profile=args.profile)
        return
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        run(sizes, rounds, Path(tmp), with_profile=args.profile)


if __name__ == "__main__":
    main()
