"""Signed checkpoints and Merkle proofs at 100,000 ledger entries, and what keeping the
tree costs ``record_decision`` (issue 28).

    .venv/bin/python bench/bench_proofs.py [--events N] [--quick]

A SQLite file (WAL, the default ``synchronous=FULL``) is filled with ``--events`` entries
(default 100,000) in batches, its tree kept as it grows. Then, in interleaved rounds of
one run:

* ``Graph.checkpoint`` (catch the tree up, read its head, sign, keep the checkpoint:
  two write transactions) beside a bare ``sqlite3`` insert + commit into a WAL file with
  the same ``synchronous=FULL``: the cost of one durable write;
* ``Graph.prove`` of one node's entries (its history read, O(log n) stored hashes)
  beside ``Graph.history`` of the same node, the read a proof cannot do without;
* ``record_decision`` on a store that keeps the tree beside one whose tree is switched
  off (its ``SqlTree.extend`` does nothing), both at the same size.

Targets: checkpoint <= 5 ms, inclusion proof <= 1 ms, record_decision with the tree
<= 1.10x without it (medians).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_core_common import interleave, machine_line, ms, print_table, stats

import decisis
from decisis.graph import Graph, new_key
from decisis.stores.merkle import SqlTree
from decisis.stores.sqlite.store import SQLiteStore

TARGETS = {"checkpoint": 5_000_000, "prove": 1_000_000}
RECORD_RATIO = 1.10


class _NoTree(SqlTree):
    """The tree switched off, for the baseline of ``record_decision`` only."""

    def extend(self, conn: Any, graph: str, events: Any) -> None:
        return None


def fill(graph: Graph, events: int) -> list[str]:
    """About ``events`` entries: goals added in batches of 1,000; returns their ids."""
    ids: list[str] = []
    while len(ids) < events:
        with graph.batch() as batch:
            ids += [batch.add_goal(f"goal {len(ids) + i}").id for i in range(1000)]
    return ids


def bare_commit(path: Path) -> Callable[[], None]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    counter = itertools.count()

    def insert_and_commit() -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (v) VALUES (?)", (f"row {next(counter)}",))
        conn.execute("COMMIT")

    return insert_and_commit


def recorder(graph: Graph) -> Callable[[], None]:
    goal = graph.add_goal("Ship the benchmark")
    counter = itertools.count()

    def record() -> None:
        graph.record_decision(f"Decision {next(counter)}", goal=goal.id, rationale="bench")

    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args()
    rounds, per_round = (5, 10) if args.quick else (20, 25)
    with tempfile.TemporaryDirectory(prefix="decisis-bench-proofs-") as tmp_name:
        tmp = Path(tmp_name)
        private, _, _ = new_key(tmp / "signer")
        graph = decisis.open(f"sqlite:///{tmp / 'kept.db'}", "bench")
        ids = fill(graph, args.events)
        off_store = SQLiteStore(tmp / "off.db")
        off_store._tree = _NoTree()  # this store only: its appends skip the tree
        off = Graph(off_store, "bench")
        fill(off, args.events)
        checkpoint = graph.checkpoint(private)
        chosen = random.Random(28).sample(ids, 64)
        turn = itertools.cycle(chosen)
        subjects: dict[str, Callable[[], object]] = {
            "checkpoint": lambda: graph.checkpoint(private),
            "bare sqlite3 insert + commit (WAL, FULL)": bare_commit(tmp / "bare.db"),
            "prove (inclusion of one node's entries)": lambda: graph.prove(next(turn), checkpoint),
            "history of one node (the read a proof needs)": lambda: graph.history(next(turn)),
            "record_decision, tree kept": recorder(graph),
            "record_decision, tree off": recorder(off),
        }
        times = interleave(subjects, rounds=rounds, per_round=dict.fromkeys(subjects, per_round))
        summary = {name: stats(t) for name, t in times.items()}
        names = list(subjects)
        baseline = {names[0]: names[1], names[2]: names[3], names[4]: names[5]}
        print(machine_line())
        print(f"{graph.store.head('bench')[0]:,} entries; {rounds} rounds x {per_round} calls\n")
        print_table(
            ["subject", "calls", "median ms", "p95 ms", "baseline", "median / baseline"],
            [
                [
                    name,
                    s.n,
                    ms(s.median),
                    ms(s.p95),
                    baseline.get(name, ""),
                    f"{s.median / summary[baseline[name]].median:.2f}x" if name in baseline else "",
                ]
                for name, s in summary.items()
            ],
        )
        verdict = []
        for name, key in ((names[0], "checkpoint"), (names[2], "prove")):
            met = summary[name].median <= TARGETS[key]
            limit = ms(TARGETS[key])
            verdict.append(
                f"{key} <= {limit} ms: {ms(summary[name].median)} ms {'met' if met else 'MISSED'}"
            )
        ratio = summary[names[4]].median / summary[names[5]].median
        met = "met" if ratio <= RECORD_RATIO else "MISSED"
        verdict.append(f"record_decision kept/off <= {RECORD_RATIO:.2f}x: {ratio:.2f}x {met}")
        print("\ntargets: " + "; ".join(verdict))
        graph.close()
        off.close()


if __name__ == "__main__":
    main()
