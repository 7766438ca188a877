"""Added latency of recording one decision while an agent runs.

Times ``Graph.record_decision(label, goal=goal_id)`` (a node, a ``leads_to`` edge
and their two ledger events, committed to a SQLite file in WAL mode, with the default
``synchronous=FULL`` and with ``?synchronous=normal``) beside a bare ``sqlite3``
insert-and-commit of one row into a similar WAL file with the same ``synchronous``
setting, and the memory store for reference, in interleaved rounds of the same run.

    .venv/bin/python bench/bench_core_record.py [--quick] [--profile]

Wall-clock and process CPU time are both reported per call: on a shared machine
the wall-clock p95 is mostly time spent waiting for a core.

Targets: median <= 1 ms; and what ``record_decision`` adds over the bare insert+commit
with the same ``synchronous`` setting, median minus median, <= 0.25 ms (issue #26), for
FULL and for NORMAL. When one is missed (or with ``--profile``) the script profiles the
call with cProfile and prints the top costs.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import pstats
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench_core_common import cpu_timed, interleave, machine_line, ms, print_table, stats

import decisis

TARGET_MEDIAN_NS = 1_000_000
TARGET_ADDED_NS = 250_000  # record_decision median minus the bare insert+commit's

_BARE_TABLE = """CREATE TABLE IF NOT EXISTS nodes (
    pk INTEGER PRIMARY KEY, graph TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL,
    label TEXT NOT NULL, status TEXT NOT NULL, recorded_at TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}', UNIQUE (graph, id))"""
_BARE_INSERT = (
    "INSERT INTO nodes (graph, id, type, label, status, recorded_at) "
    "VALUES ('default', ?, 'decision', ?, 'active', strftime('%Y-%m-%dT%H:%M:%fZ'))"
)


def bare_sqlite(path: Path, synchronous: str) -> tuple[sqlite3.Connection, Callable[[], None]]:
    """A WAL file set up like the store's (``synchronous`` as given, autocommit off), and a
    call that inserts and commits one row in its own ``BEGIN IMMEDIATE`` transaction."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute(_BARE_TABLE)
    counter = itertools.count()

    def insert_and_commit() -> None:
        n = next(counter)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(_BARE_INSERT, (f"{n:026d}", f"decision {n}"))
        conn.execute("COMMIT")

    return conn, insert_and_commit


def recorder(graph: decisis.Graph) -> Callable[[], None]:
    """A call that records one decision under a fresh goal of ``graph``."""
    goal = graph.add_goal("Ship the benchmark", confidence=0.9)
    counter = itertools.count()

    def record() -> None:
        graph.record_decision(f"Decision {next(counter)}", goal=goal.id, rationale="benchmark")

    return record


def profile(graph: decisis.Graph, calls: int, top: int = 15) -> None:
    """cProfile ``calls`` decisions and print the functions with the most own time."""
    record = recorder(graph)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        record()
    prof.disable()
    print(f"\ncProfile of {calls} record_decision calls (sorted by own time):")
    pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 calls instead of 2,000")
    parser.add_argument("--profile", action="store_true", help="always print a cProfile")
    args = parser.parse_args()
    rounds, per_round = (10, 20) if args.quick else (40, 50)

    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        graph = decisis.open(f"sqlite:///{Path(tmp) / 'decisis.db'}")
        normal = decisis.open(f"sqlite:///{Path(tmp) / 'normal.db'}?synchronous=normal")
        memory = decisis.open("memory://")
        bare_full_conn, bare_full = bare_sqlite(Path(tmp) / "bare-full.db", "FULL")
        bare_conn, bare = bare_sqlite(Path(tmp) / "bare.db", "NORMAL")
        calls = {
            "decisis record_decision (SQLite, WAL, FULL)": recorder(graph),
            "decisis record_decision (SQLite, WAL, NORMAL)": recorder(normal),
            "bare sqlite3 insert + commit (WAL, NORMAL)": bare,
            "decisis record_decision (memory)": recorder(memory),
            "bare sqlite3 insert + commit (WAL, FULL)": bare_full,
        }
        names = list(calls)
        cpu: dict[str, list[int]] = {name: [] for name in names}
        subjects = {name: cpu_timed(call, cpu[name]) for name, call in calls.items()}
        times = interleave(
            subjects, rounds=rounds, per_round=dict.fromkeys(names, per_round), warmup=5
        )
        summary = {name: stats(times[name]) for name in names}
        cpu_summary = {name: stats(cpu[name][-len(times[name]) :]) for name in names}
        base = summary[names[2]]
        print(machine_line())
        print(f"{rounds} interleaved rounds x {per_round} calls of each subject\n")
        print_table(
            [
                "subject",
                "calls",
                "median ms",
                "p95 ms",
                "mean ms",
                "CPU median ms",
                "CPU p95 ms",
                "median / bare sqlite3",
            ],
            [
                [
                    name,
                    s.n,
                    ms(s.median),
                    ms(s.p95),
                    ms(s.mean),
                    ms(cpu_summary[name].median),
                    ms(cpu_summary[name].p95),
                    f"{s.median / base.median:.1f}x",
                ]
                for name, s in summary.items()
            ],
        )
        subject = summary[names[0]]
        met = subject.median <= TARGET_MEDIAN_NS
        print(f"\ntarget: median <= 1 ms -> {ms(subject.median)} ms: {'met' if met else 'MISSED'}")
        for setting, recorded, bare_name in (
            ("FULL", names[0], names[4]),
            ("NORMAL", names[1], names[2]),
        ):
            added = summary[recorded].median - summary[bare_name].median
            added_met = added <= TARGET_ADDED_NS
            met = met and added_met
            print(
                f"target: record_decision adds <= 0.25 ms over a bare insert+commit, "
                f"synchronous={setting}: {ms(summary[recorded].median)} - "
                f"{ms(summary[bare_name].median)} = {ms(added)} ms: "
                f"{'met' if added_met else 'MISSED'}"
            )
        full_over_normal = subject.median / summary[names[1]].median
        print(f"synchronous=FULL / NORMAL, median: {full_over_normal:.2f}x")
        if args.profile or not met:
            profile(graph, 200 if args.quick else 1000)
        bare_conn.close()
        bare_full_conn.close()
        memory.close()
        normal.close()
        graph.close()


if __name__ == "__main__":
    main()
