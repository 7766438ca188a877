"""MCP over stdio from a cold start: ``decisis mcp`` spawned as a client spawns it, timed to
its answer to ``initialize`` (and, on the same process, to ``tools/list``), beside a bare
``python -c "import sqlite3"`` spawned the same way, interleaved in the same rounds.

A client (Claude Code, an agent harness) starts the server once per session and waits for
``initialize`` before it can list or call a tool, so this is what every session pays first.
The store is the 132-record SQLite store of ``data/adr-corpus``, ingested once before timing.

    .venv/bin/python bench/bench_mcp_start.py [--quick] [--runs N]

Target (issue 26): ``initialize`` answered within 300 ms of the spawn (median). Bytecode is
compiled first so that no run pays for it. The CPU time of each child (user + sys, to its
exit) is shown too.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats
from bench_core_startup import _children_cpu_ns, decisis_command, runner

import decisis

TARGET_NS = 300_000_000
CORPUS = Path(__file__).resolve().parent.parent / "data" / "adr-corpus"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}


def _send(proc: subprocess.Popen[bytes], message: dict[str, object]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def _answer(proc: subprocess.Popen[bytes], ident: int) -> dict[str, object]:
    """The next JSON-RPC message on the server's stdout answering ``ident``."""
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server closed stdout before answering")
        message = json.loads(line)
        if message.get("id") == ident:
            if "error" in message:
                raise RuntimeError(f"error answer: {message['error']}")
            return dict(message)


def mcp_session(
    argv: list[str], env: dict[str, str], marks: dict[str, list[int]], cpu: list[int]
) -> Callable[[], None]:
    """A call that spawns the server, sends ``initialize`` (time to its answer into
    ``marks["initialize"]``), then ``tools/list`` (time from the spawn into
    ``marks["tools/list"]``), and closes stdin so that the server exits."""

    def run() -> None:
        before = _children_cpu_ns()
        t0 = time.perf_counter_ns()
        proc = subprocess.Popen(
            argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            _send(proc, INITIALIZE)
            _answer(proc, 1)
            marks["initialize"].append(time.perf_counter_ns() - t0)
            _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
            tools = _answer(proc, 2)
            marks["tools/list"].append(time.perf_counter_ns() - t0)
            assert tools["result"]["tools"], "the server listed no tools"  # type: ignore[index]
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=30)
            cpu.append(_children_cpu_ns() - before)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each instead of 15")
    parser.add_argument("--runs", type=int, help="runs of each")
    args = parser.parse_args()
    runs = args.runs or (5 if args.quick else 15)
    compileall.compile_dir(str(Path(decisis.__file__).parent), quiet=1)
    cli = decisis_command()
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'c132.db'}"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"}
        subprocess.run(
            [*cli, "--store", url, "ingest", str(CORPUS)], env=env, check=True, capture_output=True
        )
        marks: dict[str, list[int]] = {"initialize": [], "tools/list": []}
        cpu: dict[str, list[int]] = {"base": [], "mcp": []}

        failures: dict[str, str] = {}
        subjects = {
            'python -c "import sqlite3"': runner(
                [sys.executable, "-c", "import sqlite3"], env, failures, cpu["base"]
            ),
            "decisis mcp": mcp_session([*cli, "--store", url, "mcp"], env, marks, cpu["mcp"]),
        }
        t0 = time.perf_counter()
        times = interleave(subjects, rounds=runs, warmup=1)
        wall = time.perf_counter() - t0
    if failures:
        raise SystemExit(f"the baseline failed: {failures}")
    base = stats(times['python -c "import sqlite3"'])
    rows = {
        'python -c "import sqlite3" (to exit)': (base, stats(cpu["base"][-runs:])),
        "decisis mcp: initialize answered": (stats(marks["initialize"][-runs:]), None),
        "decisis mcp: tools/list answered": (stats(marks["tools/list"][-runs:]), None),
        "decisis mcp: whole session (to exit)": (
            stats(times["decisis mcp"]),
            stats(cpu["mcp"][-runs:]),
        ),
    }
    print(machine_line())
    print(f"{runs} interleaved runs of each ({wall:.1f} s); command: {' '.join(cli)} mcp\n")
    print_table(
        ["subject", "runs", "median ms", "p95 ms", "x import sqlite3", "CPU median ms"],
        [
            [
                name,
                s.n,
                ms(s.median),
                ms(s.p95),
                f"{s.median / base.median:.1f}x",
                ms(c.median) if c is not None else "",
            ]
            for name, (s, c) in rows.items()
        ],
    )
    init = rows["decisis mcp: initialize answered"][0]
    verdict = "met" if init.median <= TARGET_NS else "MISSED"
    print(f"target initialize: median <= 300 ms -> {ms(init.median)} ms: {verdict}")


if __name__ == "__main__":
    main()
