"""Added latency of the per-run recorder: ``with recorder.run(agent=..., role=...):``.

Times an empty run block (one decision with its provenance, one ledger event,
committed to a SQLite file in WAL mode) beside an empty ``nullcontext()`` block
and the memory store, in interleaved rounds of the same run.

    .venv/bin/python bench/bench_agent.py [--quick]

Target: median added latency per run <= 1 ms on SQLite (a comparable system gates at 50 ms).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

from bench_core_common import cpu_timed, interleave, machine_line, ms, print_table, stats

import decisis
from decisis.agent import Recorder

TARGET_ADDED_NS = 1_000_000


def run_block(graph: decisis.Graph) -> Callable[[], None]:
    """One recorded run with nothing inside it."""
    recorder = Recorder(graph)

    def call() -> None:
        with recorder.run(agent="bench", role="step"):
            pass

    return call


def empty_block() -> None:
    with nullcontext():
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 runs instead of 2,000")
    args = parser.parse_args()
    rounds, per_round = (10, 20) if args.quick else (40, 50)
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        graph = decisis.open(f"sqlite:///{Path(tmp) / 'decisis.db'}")
        memory = decisis.open("memory://")
        calls: dict[str, Callable[[], None]] = {
            "recorder.run (SQLite, WAL)": run_block(graph),
            "empty context manager": empty_block,
            "recorder.run (memory)": run_block(memory),
        }
        names = list(calls)
        cpu: dict[str, list[int]] = {name: [] for name in names}
        subjects = {name: cpu_timed(call, cpu[name]) for name, call in calls.items()}
        times = interleave(
            subjects, rounds=rounds, per_round=dict.fromkeys(names, per_round), warmup=5
        )
        summary = {name: stats(times[name]) for name in names}
        cpu_summary = {name: stats(cpu[name][-len(times[name]) :]) for name in names}
        print(machine_line())
        print(f"{rounds} interleaved rounds x {per_round} runs of each subject\n")
        headers = ["subject", "runs", "median ms", "p95 ms", "CPU median ms", "CPU p95 ms"]
        rows = [
            [name, s.n, ms(s.median), ms(s.p95), ms(cpu_summary[name].median),
             ms(cpu_summary[name].p95)]
            for name, s in summary.items()
        ]  # fmt: skip
        print_table(headers, rows)
        added = summary[names[0]].median - summary[names[1]].median
        met = added <= TARGET_ADDED_NS
        print(f"\ntarget: added median <= 1 ms -> {ms(added)} ms: {'met' if met else 'MISSED'}")
        memory.close()
        graph.close()


if __name__ == "__main__":
    main()
