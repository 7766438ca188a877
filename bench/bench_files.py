"""What the editor hook costs: ``decisis explain --hook`` per edit, and ``decisions_for`` in
process, on stores of N decisions that each govern a few paths.

The hook runs as a fresh process on every edit an agent makes, so its floor is the CLI's
start: it is timed beside ``decisis goals`` on the same store (a command that opens the store
and reads a little) and ``python -c pass``. In process, ``Graph.decisions_for([path])`` is
timed beside ``Graph.nodes()`` alone, the scan it is built on, so the ratio is what matching
patterns and walking to what stands add. Interleaved rounds, rotating order.

    .venv/bin/python bench/bench_files.py [--quick] [--sizes N,...] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats
from bench_core_startup import decisis_command

import decisis


def build(url: str, n: int) -> None:
    """``n`` decisions over 50 modules, a tenth of them replaced by a later one."""
    with decisis.open(url) as graph:
        with graph.batch() as batch:
            made = []
            for i in range(n):
                module = f"src/mod{i % 50}"
                affects = [f"{module}/**", f"{module}/file{i % 7}.py", "*.sql"][: 1 + i % 3]
                node = batch.record_decision(f"Decision {i}", metadata={"affects": affects})
                made.append(node.id)
        with graph.batch() as batch:
            for i in range(0, n - 1, 10):
                batch.supersede(made[i], made[i + 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one small store, 3 rounds")
    parser.add_argument("--sizes", help="decisions per store, comma separated")
    parser.add_argument("--rounds", type=int, help="rounds of each subject")
    args = parser.parse_args()
    sizes = [int(s) for s in (args.sizes or ("200" if args.quick else "100,1000,5000")).split(",")]
    rounds = args.rounds or (3 if args.quick else 9)
    cli = decisis_command()
    rows = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="decisis-bench-files-") as tmp:
        for n in sizes:
            url = f"sqlite:///{Path(tmp) / f'files-{n}.db'}"
            build(url, n)
            env = {**os.environ, "DECISIS_STORE": url}
            call = json.dumps(
                {
                    "hook_event_name": "PreToolUse",
                    "tool_name": "Edit",
                    "tool_input": {"file_path": str(Path(tmp) / "src/mod3/file3.py")},
                    "cwd": tmp,
                }
            )
            hook_said: list[str] = []

            def hook(
                env: dict[str, str] = env, call: str = call, said: list[str] = hook_said
            ) -> None:
                done = subprocess.run(
                    [*cli, "explain", "--hook"], input=call, env=env, capture_output=True,
                    text=True, check=True,
                )  # fmt: skip
                said.append(done.stdout)

            def goals(env: dict[str, str] = env) -> None:
                subprocess.run([*cli, "goals"], env=env, capture_output=True, check=True)

            def python() -> None:
                subprocess.run([sys.executable, "-c", "pass"], check=True)

            graph = decisis.open(url)

            subjects = {
                "python -c pass": python,
                "decisis goals": goals,
                "decisis explain --hook": hook,
                "Graph.nodes()": lambda graph=graph: graph.nodes(),
                "Graph.decisions_for([path])": lambda graph=graph: graph.decisions_for(
                    ["src/mod3/file3.py"]
                ),
            }
            times = interleave(subjects, rounds=rounds, warmup=1)
            graph.close()
            assert "additionalContext" in hook_said[-1], hook_said[-1][:500]
            summary = {name: stats(t) for name, t in times.items()}
            for name, s in summary.items():
                base = summary["decisis goals" if "decisis" in name else "Graph.nodes()"]
                if name == "python -c pass":
                    base = s
                rows.append(
                    [n, name, s.n, ms(s.median), ms(s.p95), f"{s.median / base.median:.2f}x"]
                )
    print(machine_line())
    print(f"{rounds} interleaved rounds per size ({time.perf_counter() - t0:.1f} s)\n")
    print_table(["decisions", "subject", "runs", "median ms", "p95 ms", "x baseline"], rows)
    print("\nbaseline: decisis goals for the processes, Graph.nodes() for the in-process calls")


if __name__ == "__main__":
    main()
