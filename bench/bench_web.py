"""What the web front door adds to a call: ``POST /api/ask`` and ``GET /api/recent`` over
real HTTP (keep-alive) to ``decisis serve`` in another process, beside the same calls in
this process on the same SQLite file, in interleaved rounds; and the same ``GET /api/recent``
to a second server started with ``--token`` (every request checked for it).

    .venv/bin/python bench/bench_web.py [--quick]

The store is the ADR corpus in data/ (data/adr-corpus) with a small decision graph.
No target: the ratios say what HTTP, JSON and the server's thread hop cost per call.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import httpx
from bench_core_common import interleave, machine_line, ms, print_table, stats

import decisis
from decisis.adr.answer import ask
from decisis.adr.link.ingest import ingest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the servers are started as the web tests start them
from tests.servers import running  # noqa: E402

CORPUS = ROOT / "data" / "adr-corpus"
QUESTION = "Does each business unit get its own cluster now?"


TOKEN = "a-token-for-the-benchmark"


def _measure(
    graph: decisis.Graph, url: str, logs: Path, rounds: int, per_round: int
) -> dict[str, list[int]]:
    """Each call's times, in interleaved rounds, with both servers up."""
    with (
        running(["--store", url, "serve"], logs / "open.log") as port,
        running(["--store", url, "serve", "--token", TOKEN], logs / "guarded.log") as guarded,
        httpx.Client(base_url=f"http://127.0.0.1:{port}/api", timeout=60) as client,
        httpx.Client(
            base_url=f"http://127.0.0.1:{guarded}/api",
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=60,
        ) as token_client,
    ):
        calls: dict[str, Callable[[], object]] = {
            "ask, in process": lambda: ask(graph, QUESTION),
            "POST /api/ask": lambda: client.post("/ask", json={"question": QUESTION}),
            "recent_decisions, in process": lambda: graph.recent_decisions(10),
            "GET /api/recent": lambda: client.get("/recent", params={"limit": 10}),
            "GET /api/recent, --token": lambda: token_client.get("/recent", params={"limit": 10}),
        }
        times = interleave(
            calls, rounds=rounds, per_round=dict.fromkeys(calls, per_round), warmup=3
        )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 30")
    args = parser.parse_args()
    rounds, per_round = (5, 5) if args.quick else (30, 10)
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'web.db'}"
        with decisis.open(url) as graph:
            ingest(graph, CORPUS)
            goal = graph.add_goal("Ship the payments service")
            for n in range(20):
                graph.record_decision(f"Decision {n}", goal=goal.id)
            times = _measure(graph, url, Path(tmp), rounds, per_round)
    summary = {name: stats(samples) for name, samples in times.items()}
    print(machine_line())
    print(f"{rounds} interleaved rounds x {per_round} calls of each subject\n")
    pairs = {
        "POST /api/ask": "ask, in process",
        "GET /api/recent": "recent_decisions, in process",
        "GET /api/recent, --token": "GET /api/recent",
    }
    rows = []
    for name, s in summary.items():
        base = pairs.get(name)
        ratio = f"{s.median / summary[base].median:.2f}x" if base else ""
        rows.append([name, s.n, ms(s.median), ms(s.p95), ratio])
    print_table(["subject", "calls", "median ms", "p95 ms", "vs baseline"], rows)


if __name__ == "__main__":
    main()
