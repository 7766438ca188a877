"""A cold ``decisis ask``: a new process answering one question on the 132-record SQLite
store (``data/adr-corpus``), beside a bare ``python -c "import sqlite3"`` started the same
way, interleaved in the same rounds so that the ratio holds on a noisy machine.

The store is ingested once and asked once before timing, as a user's would be: the first
question keeps the records' term weights in the store (``decisis.search.kept``), and every
process after it reads them instead of indexing the records again.

    .venv/bin/python bench/bench_cold_ask.py [--quick] [--runs N]

Targets (issue 26): median <= 150 ms, and <= 5x ``python -c "import sqlite3"``. Bytecode is
compiled first (``compileall``) so that no run pays for it, whatever
``PYTHONDONTWRITEBYTECODE`` says; the CPU time of each child (user + sys) is shown too.
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats
from bench_core_startup import decisis_command, runner

import decisis

TARGET_NS = 150_000_000
TARGET_RATIO = 5.0
QUESTION = "what do we use for CI"
CORPUS = Path(__file__).resolve().parent.parent / "data" / "adr-corpus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each instead of 15")
    parser.add_argument("--runs", type=int, help="runs of each command")
    args = parser.parse_args()
    runs = args.runs or (5 if args.quick else 15)
    compileall.compile_dir(str(Path(decisis.__file__).parent), quiet=1)
    cli = decisis_command()
    failures: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'c132.db'}"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"}
        subprocess.run(
            [*cli, "--store", url, "ingest", str(CORPUS)], env=env, check=True, capture_output=True
        )
        subprocess.run(
            [*cli, "--store", url, "ask", QUESTION], env=env, check=True, capture_output=True
        )
        commands = {
            'python -c "import sqlite3"': [sys.executable, "-c", "import sqlite3"],
            "decisis ask (cold process)": [*cli, "--store", url, "ask", QUESTION],
        }
        cpu: dict[str, list[int]] = {name: [] for name in commands}
        subjects = {name: runner(argv, env, failures, cpu[name]) for name, argv in commands.items()}
        t0 = time.perf_counter()
        times = interleave(subjects, rounds=runs, warmup=1)
        wall = time.perf_counter() - t0
    summary = {name: stats(t) for name, t in times.items()}
    cpu_summary = {name: stats(cpu[name][-runs:]) for name in times}
    base = summary['python -c "import sqlite3"']
    print(machine_line())
    print(f"{runs} interleaved runs of each ({wall:.1f} s); command: {' '.join(cli)}\n")
    print_table(
        ["command", "runs", "median ms", "p95 ms", "x import sqlite3", "CPU median ms"],
        [
            [
                name,
                s.n,
                ms(s.median),
                ms(s.p95),
                f"{s.median / base.median:.1f}x",
                ms(cpu_summary[name].median),
            ]
            for name, s in summary.items()
        ],
    )
    ask = summary["decisis ask (cold process)"]
    ratio = ask.median / base.median
    print(
        f"target cold ask: median <= 150 ms -> {ms(ask.median)} ms: "
        f"{'met' if ask.median <= TARGET_NS else 'MISSED'}; <= {TARGET_RATIO:.0f}x import "
        f"sqlite3 -> {ratio:.1f}x: {'met' if ratio <= TARGET_RATIO else 'MISSED'}"
    )
    for name, message in failures.items():
        print(f"FAILED: {name}: {message}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
