"""A soak: every door writing to one store at once, for a bounded time, on loopback only.

Writers, each in its own thread with its own connection or client:

* web: ``POST /api/tools/add_goal`` to ``decisis serve`` (a subprocess)
* web corrections: ``POST /api/corrections`` on the ingested records
* MCP: ``add_goal`` over streamable HTTP to ``decisis mcp --http`` (a subprocess)
* CLI: ``decisis --json add goal`` (a process per write)
* Python: ``record_decision``; ``decisis.adr.correct``; ``decisis.adr.ingest`` again

Afterwards every acknowledged write must be in the store (each goal and decision by the id
its door answered with, each correction by its question node) and the ledger must verify.
It prints throughput, p50/p99 latency and refusals by kind for each writer.

    .venv/bin/python bench/soak.py [--seconds 300] [--postgres postgresql://…]

The store is a SQLite file in a temporary folder, or a fresh graph on the PostgreSQL URL.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
from bench_core_common import machine_line, print_table

import decisis
from decisis.adr import correct, ingest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.agent.conftest import write_adrs  # noqa: E402  (the two-record team folder)
from tests.servers import running  # noqa: E402

QUESTIONS = ("Do we build on a Jenkins server?", "Where do builds run now?")


@dataclass
class Writer:
    """One writer's record: latencies of acknowledged writes, refusals by kind, and what
    its acknowledgements named (ids, or correction questions) to look for afterwards."""

    name: str
    latencies: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    acknowledged: list[str] = field(default_factory=list)

    def run(self, stop: threading.Event, write: Callable[[int], str]) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            started = time.perf_counter()
            try:
                named = write(n)
            except Exception as exc:  # a refusal is a result here, counted by kind
                self.refused[_kind(exc)] += 1
                continue
            self.latencies.append(time.perf_counter() - started)
            self.acknowledged.append(named)


class Refused(Exception):
    """A door answered with an error: its status or error type is the kind."""


def _kind(exc: Exception) -> str:
    return str(exc) if isinstance(exc, Refused) else type(exc).__name__


def _http_writer(
    base: str, path: str, body: Callable[[int], dict[str, object]]
) -> Callable[[int], str]:
    client = httpx.Client(base_url=base, timeout=60)

    def write(n: int) -> str:
        answer = client.post(path, json=body(n))
        if answer.status_code != 200:
            raise Refused(f"HTTP {answer.status_code}")
        data = answer.json()
        return str(data.get("goal", {}).get("id") or data.get("question") or "")

    return write


def _mcp_writer(url: str) -> Callable[[int], str]:
    """``add_goal`` calls over one MCP session, run on an event loop of its own thread."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    requests: list[tuple[int, threading.Event, list[object]]] = []
    ready, lock = threading.Event(), threading.Lock()

    async def serve_calls() -> None:
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            ready.set()
            while True:
                with lock:
                    pending = list(requests)
                    requests.clear()
                for n, done, out in pending:
                    if n < 0:
                        return
                    result = await session.call_tool("add_goal", {"label": f"mcp goal {n}"})
                    out.append(result)
                    done.set()
                await anyio.sleep(0.001)

    thread = threading.Thread(target=anyio.run, args=(serve_calls,), daemon=True)
    thread.start()
    ready.wait(60)

    def write(n: int) -> str:
        done, out = threading.Event(), list[object]()
        with lock:
            requests.append((n, done, out))
        if not done.wait(60):
            raise Refused("MCP timeout")
        result: Any = out[0]
        if result.is_error:
            raise Refused("MCP error")
        return str(json.loads(result.content[0].text)["goal"]["id"])

    write.close = lambda: requests.append((-1, threading.Event(), []))  # type: ignore[attr-defined]
    return write


def _cli_writer(store: str, graph: str) -> Callable[[int], str]:
    def write(n: int) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "decisis", "--store", store, "--graph", graph, "--json",
             "add", "goal", f"cli goal {n}"],
            check=False, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if done.returncode != 0:
            raise Refused(f"CLI exit {done.returncode}")
        return str(json.loads(done.stdout)["id"])

    return write


def _python_writers(store: str, graph: str, team: Path) -> dict[str, Callable[[int], str]]:
    recorder = decisis.open(store, graph)
    corrector = decisis.open(store, graph)
    ingester = decisis.open(store, graph)

    def record(n: int) -> str:
        return recorder.record_decision(f"python decision {n}").id

    def teach(n: int) -> str:
        question = f"{QUESTIONS[n % 2]} (python {n})"
        correct(corrector, question, "team:002")
        return question

    def reingest(n: int) -> str:
        ingest(ingester, team)
        return ""

    return {"python record_decision": record, "python correct": teach, "python ingest": reingest}


def _missing(store: str, graph: str, writers: list[Writer]) -> dict[str, int]:
    """Acknowledged writes that are not in the store, per writer."""
    with decisis.open(store, graph) as g:
        questions = {n.label for n in g.nodes(types=["observation"])}
        nodes = {n.id for n in g.nodes()}
        missing = {}
        for w in writers:
            named = [a for a in w.acknowledged if a]
            if "correct" in w.name:
                lost = [q for q in named if q not in questions]
            else:
                lost = [i for i in named if not any(n.startswith(i) for n in nodes)]
            missing[w.name] = len(lost)
        return missing


def soak(store: str, graph: str, seconds: float, logs: Path) -> None:
    team = write_adrs(logs / "adrs")
    with decisis.open(store, graph) as g:
        ingest(g, team)
    args = ["--store", store, "--graph", graph]
    with (
        running([*args, "serve"], logs / "web.log") as web_port,
        running([*args, "mcp", "--http"], logs / "mcp.log") as mcp_port,
    ):
        web = f"http://127.0.0.1:{web_port}/api"
        doors: dict[str, Callable[[int], str]] = {
            "web add_goal": _http_writer(
                web, "/tools/add_goal", lambda n: {"label": f"web goal {n}"}
            ),
            "web correction": _http_writer(
                web,
                "/corrections",
                lambda n: {"question": f"{QUESTIONS[n % 2]} (web {n})", "key": "team:002"},
            ),
            "MCP add_goal": _mcp_writer(f"http://127.0.0.1:{mcp_port}/mcp"),
            "CLI add goal": _cli_writer(store, graph),
            **_python_writers(store, graph, team),
        }
        writers = [Writer(name) for name in doors]
        stop = threading.Event()
        threads = [
            threading.Thread(target=w.run, args=(stop, doors[w.name]), daemon=True) for w in writers
        ]
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join(180)
        closer = getattr(doors["MCP add_goal"], "close", None)
        if closer is not None:
            closer()
    missing = _missing(store, graph, writers)
    with decisis.open(store, graph) as g:
        report = g.verify()
    rows = []
    for w in writers:
        done = sorted(w.latencies)
        p50 = statistics.median(done) * 1000 if done else float("nan")
        p99 = done[min(len(done) - 1, int(0.99 * len(done)))] * 1000 if done else float("nan")
        refused = ", ".join(f"{k} x{v}" for k, v in w.refused.most_common()) or "none"
        rows.append(
            [w.name, len(done), f"{len(done) / seconds:.1f}", f"{p50:.1f}", f"{p99:.1f}",
             refused, missing[w.name]]
        )  # fmt: skip
    print(f"{seconds:.0f} s on {store.split('?', maxsplit=1)[0]} (graph {graph})\n")
    print_table(
        ["writer", "acknowledged", "per s", "p50 ms", "p99 ms", "refused", "acknowledged, missing"],
        rows,
    )
    print(f"\nverify: {report}")
    lost = sum(missing.values())
    print(f"every acknowledged write present: {'yes' if lost == 0 else f'NO ({lost} missing)'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--postgres", help="a PostgreSQL URL to soak instead of a SQLite file")
    args = parser.parse_args()
    print(machine_line())
    with tempfile.TemporaryDirectory(prefix="decisis-soak-") as tmp:
        if args.postgres:  # in a schema of its own, dropped after
            from tests.stores.postgres.server import drop_schema, new_schema, schema_url

            schema = new_schema(args.postgres)
            try:
                url = schema_url(schema, args.postgres)
                soak(url, f"soak-{uuid.uuid4().hex[:8]}", args.seconds, Path(tmp))
            finally:
                drop_schema(schema, args.postgres)
        else:
            soak(f"sqlite:///{Path(tmp) / 'soak.db'}", "soak", args.seconds, Path(tmp))


if __name__ == "__main__":
    main()
