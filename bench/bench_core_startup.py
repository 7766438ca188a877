"""Startup time of the CLI: ``decisis --help`` and ``decisis goals`` on a small SQLite store.

Each command runs as a fresh process, interleaved in the same rounds with
``python -c pass`` (the interpreter's own floor) and ``python -c "import decisis"``
(the library alone), so the ratios hold on a noisy machine. Help goes to a pipe here,
so it is plain text; a last row shows ``--help`` as a terminal gets it (Rich panels,
``TTY_COMPATIBLE=1``): the cost of Rich help is the import of ``typer.rich_utils``
(Rich, markdown-it).

    .venv/bin/python bench/bench_core_startup.py [--quick] [--runs N]

Targets: <= 300 ms median wall time for ``--help`` and ``goals``; issue 26: ``--help``
<= 100 ms. The CPU time of
each child (user + sys) is shown too: it does not count time spent waiting for
a core, so it is the steadier number on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats

import decisis

TARGET_NS = 300_000_000
HELP_TARGET_NS = 100_000_000  # issue 26


def decisis_command() -> list[str]:
    """The installed ``decisis`` script beside this interpreter, or ``python -m decisis``."""
    script = Path(sys.executable).parent / "decisis"
    return [str(script)] if script.exists() else [sys.executable, "-m", "decisis"]


def small_store(path: Path) -> str:
    """A SQLite store with 5 goals of 3 decisions each; returns its URL."""
    url = f"sqlite:///{path}"
    with decisis.open(url) as graph:
        for g in range(5):
            goal = graph.add_goal(f"Goal {g}", confidence=0.8)
            for d in range(3):
                graph.record_decision(f"Decision {g}.{d}", goal=goal.id, rationale="because")
    return url


def _children_cpu_ns() -> int:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return int((usage.ru_utime + usage.ru_stime) * 1e9)


def runner(
    argv: list[str], env: dict[str, str], failures: dict[str, str], cpu: list[int]
) -> Callable[[], None]:
    """A call that runs ``argv`` to completion and appends the child's CPU time to ``cpu``;
    the first failure is kept in ``failures``."""
    name = " ".join(Path(argv[0]).name if i == 0 else a for i, a in enumerate(argv))

    def run() -> None:
        before = _children_cpu_ns()
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        cpu.append(_children_cpu_ns() - before)
        if done.returncode != 0 and name not in failures:
            failures[name] = (done.stderr or done.stdout).strip()[-500:]

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs of each instead of 11")
    parser.add_argument("--runs", type=int, help="runs of each command")
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 11)
    cli = decisis_command()
    failures: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        env = {**os.environ, "DECISIS_STORE": small_store(Path(tmp) / "small.db")}
        env.pop("PYTHONPROFILEIMPORTTIME", None)
        commands = {
            "python -c pass": ([sys.executable, "-c", "pass"], env),
            "python -c 'import decisis'": ([sys.executable, "-c", "import decisis"], env),
            "decisis --help": ([*cli, "--help"], env),
            "decisis goals": ([*cli, "goals"], env),
            "decisis --help, as on a terminal (TTY_COMPATIBLE=1: Rich)": (
                [*cli, "--help"],
                {**env, "TTY_COMPATIBLE": "1"},
            ),
        }
        cpu: dict[str, list[int]] = {name: [] for name in commands}
        subjects = {
            name: runner(argv, run_env, failures, cpu[name])
            for name, (argv, run_env) in commands.items()
        }
        t0 = time.perf_counter()
        times = interleave(subjects, rounds=runs, warmup=1)
        wall = time.perf_counter() - t0
    summary = {name: stats(t) for name, t in times.items()}
    cpu_summary = {name: stats(cpu[name][-runs:]) for name in times}
    base = summary["python -c pass"]
    print(machine_line())
    print(f"{runs} interleaved runs of each command ({wall:.1f} s); command: {' '.join(cli)}\n")
    print_table(
        [
            "command",
            "runs",
            "median ms",
            "p95 ms",
            "minus python -c pass",
            "x python -c pass",
            "CPU median ms",
        ],
        [
            [
                name,
                s.n,
                ms(s.median),
                ms(s.p95),
                ms(s.median - base.median),
                f"{s.median / base.median:.1f}x",
                ms(cpu_summary[name].median),
            ]
            for name, s in summary.items()
        ],
    )
    for name in ("decisis --help", "decisis goals"):
        verdict = "met" if summary[name].median <= TARGET_NS else "MISSED"
        print(f"target {name}: median <= 300 ms -> {ms(summary[name].median)} ms: {verdict}")
    for name in ("decisis --help", "decisis --help, as on a terminal (TTY_COMPATIBLE=1: Rich)"):
        verdict = "met" if summary[name].median <= HELP_TARGET_NS else "MISSED"
        print(f"target {name}: median <= 100 ms -> {ms(summary[name].median)} ms: {verdict}")
    for name, message in failures.items():
        print(f"FAILED: {name}: {message}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
