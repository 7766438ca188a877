"""PostgreSQL beside SQLite in the same run: one decision, concurrent writers, a graph build,
traversals.

Record: ``Graph.record_decision(label, goal=…)`` (the goal's id resolved, then a
decision and its ``leads_to`` edge: two ledger events in one transaction) on each
store, beside a bare psycopg insert + commit of one row on the same server (one
round trip and one commit: the floor of any durable PostgreSQL write), ``--calls``
calls of each per round: wall time, this process's CPU time, the server's CPU per
call (read from /proc when the server runs on this host), and the round trips and
statements of one PostgreSQL append counted in libpq's trace.

Writes: 1, 4 and 16 writer processes, each appending ``--batches`` batches (one
decision, its option and the ``chosen`` edge: three ledger events) as fast as
it can; reported as batches per second over the wall time from a common start
to the last commit. All writers share one graph (their appends queue on that
graph's lock: PostgreSQL's row lock on ``heads``, SQLite's one write lock per
file); on PostgreSQL also one graph per writer, where appends run in parallel.

Build: the synthetic graph of ``bench_core_graphs`` (``--edges``) is built in a
SQLite file, then its ledger is replayed through ``Store.append`` in chunks of
10,000 drafts into a fresh SQLite file and into PostgreSQL: the same events,
ids included, through the same code path, timed on each.

Traversals: descendants, ancestors and path_between from a node reaching about
1,000 nodes on that graph; PostgreSQL and SQLite interleaved in the same rounds.

    .venv/bin/python bench/bench_postgres.py [--quick] [--calls N] [--batches N] [--edges N]
        [--rounds N] [--only record|writes|traversals] [--delay-ms D]

The server is ``DECISIS_TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``); the run works in a schema of
its own and drops it at the end. Loopback hides what a round trip costs: with
``--delay-ms D`` the stores reach the server through a relay in this process
that holds every packet D ms each way, as a server on another machine would.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing as mp
import os
import queue
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
from bench_core_common import cpu_timed, interleave, machine_line, ms, print_table, stats
from bench_core_graphs import build
from psycopg import sql

import decisis
from decisis.model import EdgeType, EventDraft, NodeStatus, NodeType, new_id, utc_now
from decisis.model import events as drafts
from decisis.model.records import Edge, Node
from decisis.stores import Store, open_store

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
WRITERS = (1, 4, 16)
GRAPH = "bench"


def _relay(host: str, port: int, delay: float) -> int:
    """Start a thread relaying TCP to ``host:port`` that holds each chunk ``delay`` seconds
    in each direction (order kept); return the port it listens on."""
    loop = asyncio.new_event_loop()
    ports: queue.Queue[int] = queue.Queue()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while (item := await held.get())[1]:
                await asyncio.sleep(max(0.0, item[0] - loop.time()))
                writer.write(item[1])
                await writer.drain()
            writer.close()

        delivering = asyncio.ensure_future(deliver())
        while data := await reader.read(65536):
            held.put_nowait((loop.time() + delay, data))
        held.put_nowait((0.0, b""))
        await delivering

    async def connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(host, port)
        await asyncio.gather(
            pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True
        )

    async def serve() -> None:
        server = await asyncio.start_server(connect, "127.0.0.1", 0)
        ports.put(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True).start()
    return ports.get()


def _through_relay(url: str, delay: float) -> str:
    """``url`` pointed at a relay to its server holding packets ``delay`` s (0: as it is)."""
    if not delay:
        return url
    parts = urlsplit(url)
    port = _relay(parts.hostname or "127.0.0.1", parts.port or 5432, delay)
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{port}"))


@contextmanager
def pg_schema(delay: float = 0.0) -> Iterator[str]:
    """A URL whose search_path is a fresh schema on the server, dropped afterwards."""
    url = os.environ.get("DECISIS_TEST_POSTGRES_URL") or DEFAULT_URL
    name = f"decisis_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        option = quote(f"-csearch_path={name}", safe="")
        yield _through_relay(f"{url}{'&' if '?' in url else '?'}options={option}", delay)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))


def _recorder(graph: decisis.Graph) -> Callable[[], object]:
    """A call that records one decision under a goal of ``graph``, as an agent would."""
    goal = graph.add_goal("Ship the benchmark")
    counter = itertools.count()
    return lambda: graph.record_decision(
        f"Decision {next(counter)}", goal=goal.id, rationale="benchmark"
    )


def _bare_insert(conn: psycopg.Connection[Any]) -> Callable[[], object]:
    """One row inserted and committed (autocommit: one round trip, one commit)."""
    conn.execute("CREATE TABLE bare (id bigserial PRIMARY KEY, label text NOT NULL)")
    return lambda: conn.execute("INSERT INTO bare (label) VALUES (%s)", ("decision",))


def _protocol(url: str) -> tuple[int, int]:
    """Round trips (times the client waits on the server) and statements of one append of
    a writes batch, read from libpq's trace of a connection of its own."""
    from decisis.stores.postgres import writes

    def append(conn: psycopg.Connection[Any], batch: list[EventDraft]) -> object:
        if hasattr(writes, "append_committed"):
            return writes.append_committed(conn, GRAPH, batch)
        with conn.transaction():  # the code before pipelining
            return writes.append(conn, GRAPH, batch)

    with psycopg.connect(url, autocommit=True) as conn, tempfile.TemporaryFile("w+") as log:
        append(conn, _batch(0, 0))  # the graph exists: a steady-state append follows
        conn.pgconn.trace(log.fileno())
        conn.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        append(conn, _batch(0, 1))
        conn.pgconn.untrace()
        log.seek(0)
        messages = [line.split("\t")[:3] for line in log if line.strip()]
    directions = [message[0] for message in messages]
    waits = sum(1 for pair in itertools.pairwise(directions) if pair == ("F", "B"))
    statements = sum(1 for m in messages if m[0] == "F" and m[2] in ("Execute", "Query"))
    return waits, statements


def _server_cpu_ns(conn: psycopg.Connection[Any], app: str) -> int | None:
    """CPU time the server's backends named ``app`` have used, from /proc (a server on
    this host only; ``None`` otherwise)."""
    rows = conn.execute(
        "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (app,)
    ).fetchall()
    try:
        return sum(int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) for (pid,) in rows)
    except OSError:
        return None


def bench_record(sqlite_dir: Path, rounds: int, per_round: int, delay: float) -> None:
    app = f"decisis_bench_{os.getpid()}"
    with pg_schema(delay) as pg_url, psycopg.connect(pg_url, autocommit=True) as bare:
        graphs = {
            "PostgreSQL": decisis.open(f"{pg_url}&application_name={app}", graph=GRAPH),
            "SQLite": decisis.open(f"sqlite:///{sqlite_dir}/record.db", graph=GRAPH),
        }
        try:
            calls = {name: _recorder(graph) for name, graph in graphs.items()}
            calls["bare PG"] = _bare_insert(bare)
            cpu: dict[str, list[int]] = {name: [] for name in calls}
            subjects = {name: cpu_timed(call, cpu[name]) for name, call in calls.items()}
            for call in subjects.values():
                call()  # the pool's connections are open: the server CPU counts from here
            server_before = _server_cpu_ns(bare, app)
            times = interleave(
                subjects, rounds=rounds, per_round=dict.fromkeys(subjects, per_round), warmup=5
            )
            server_after = _server_cpu_ns(bare, app)
        finally:
            for graph in graphs.values():
                graph.close()
        waits, statements = _protocol(pg_url)
    n_pg = len(times["PostgreSQL"]) + 5  # the warm-up calls ran on the same backends
    server = (
        "?"
        if server_before is None or server_after is None
        else ms((server_after - server_before) / n_pg)
    )
    print(f"\nrecord_decision: {rounds} interleaved rounds x {per_round} calls of each\n")
    _print_record(times, cpu, server)
    print(
        f"\none PostgreSQL append of a writes batch (3 events): {waits} round trips, "
        f"{statements} statements (libpq trace)"
    )


def _print_record(times: dict[str, list[int]], cpu: dict[str, list[int]], server: str) -> None:
    lite = stats(times["SQLite"])
    rows = []
    for name, label in (
        ("SQLite", "record_decision, SQLite (WAL)"),
        ("PostgreSQL", "record_decision, PostgreSQL"),
        ("bare PG", "bare psycopg INSERT + COMMIT, PostgreSQL"),
    ):
        wall, client = stats(times[name]), stats(cpu[name][-len(times[name]) :])
        rows.append(
            [
                label,
                ms(wall.median),
                ms(wall.p95),
                ms(client.median),
                server if name == "PostgreSQL" else "-",
                f"{wall.median / lite.median:.2f}",
            ]
        )
    print_table(
        [
            "subject",
            "median ms",
            "p95 ms",
            "client CPU median ms",
            "server CPU ms/call",
            "median / SQLite",
        ],
        rows,
    )


def _batch(writer: int, index: int) -> list[EventDraft]:
    now = utc_now()
    common: dict[str, Any] = {"recorded_at": now, "updated_at": now, "valid_from": now}
    node_common = {**common, "status": NodeStatus.ACTIVE}
    decision = Node(
        id=new_id(), type=NodeType.DECISION, label=f"w{writer} decision {index}", **node_common
    )
    option = Node(
        id=new_id(), type=NodeType.OPTION, label=f"w{writer} option {index}", **node_common
    )
    edge = Edge(id=new_id(), type=EdgeType.CHOSEN, source=decision.id, target=option.id, **common)
    return [
        drafts.node_added(decision, now),
        drafts.node_added(option, now),
        drafts.edge_added(edge, now),
    ]


def _writer(url: str, graph: str, writer: int, batches: int, start: Any, ready: Any) -> None:
    store = open_store(url)
    try:
        ready.release()
        start.wait()
        for index in range(batches):
            store.append(graph, _batch(writer, index))
    finally:
        store.close()


def writes_per_second(url: str, writers: int, batches: int, *, own_graphs: bool) -> float:
    """Batches per second for ``writers`` processes appending ``batches`` each."""
    ctx = mp.get_context("spawn")
    start, ready = ctx.Event(), ctx.Semaphore(0)
    procs = [
        ctx.Process(
            target=_writer,
            args=(url, f"{GRAPH}{w}" if own_graphs else GRAPH, w, batches, start, ready),
        )
        for w in range(writers)
    ]
    for proc in procs:
        proc.start()
    for _ in procs:
        ready.acquire()
    t0 = time.perf_counter()
    start.set()
    for proc in procs:
        proc.join()
        if proc.exitcode != 0:
            raise SystemExit(f"a writer failed with exit code {proc.exitcode}")
    return writers * batches / (time.perf_counter() - t0)


def bench_writes(sqlite_dir: Path, batches: int, delay: float) -> None:
    rows = []
    for writers in WRITERS:
        with pg_schema(delay) as pg_url:
            open_store(pg_url).close()
            pg = writes_per_second(pg_url, writers, batches, own_graphs=False)
            pg_own = writes_per_second(pg_url, writers, batches, own_graphs=True)
        lite_url = f"sqlite:///{sqlite_dir}/writes{writers}.db"
        open_store(lite_url).close()
        lite = writes_per_second(lite_url, writers, batches, own_graphs=False)
        rows.append([writers, f"{lite:.0f}", f"{pg:.0f}", f"{pg / lite:.2f}", f"{pg_own:.0f}"])
    print(f"\nwrites: {batches} batches per writer, 3 events per batch\n")
    print_table(
        [
            "writers",
            "SQLite batches/s",
            "PostgreSQL batches/s (one graph)",
            "PG / SQLite",
            "PostgreSQL batches/s (graph per writer)",
        ],
        rows,
    )


def _replay(source: Store, target: Store, chunk: int = 10_000) -> None:
    """The same graph, ids included, in ``target``: the source's events appended in chunks."""
    batch: list[EventDraft] = []
    for event in source.events(GRAPH):
        batch.append(EventDraft(event.kind, event.entity, event.payload, event.at))
        if len(batch) >= chunk:
            target.append(GRAPH, batch)
            batch = []
    if batch:
        target.append(GRAPH, batch)


def _timed_replay(source: Store, target: Store) -> float:
    t0 = time.perf_counter()
    _replay(source, target)
    return time.perf_counter() - t0


def bench_traversals(sqlite_dir: Path, n_edges: int, rounds: int, delay: float) -> None:
    with pg_schema(delay) as pg_url:
        source = open_store(f"sqlite:///{sqlite_dir}/source.db")
        stores: dict[str, Store] = {
            "SQLite": open_store(f"sqlite:///{sqlite_dir}/walk.db"),
            "PostgreSQL": open_store(pg_url),
        }
        try:
            t0 = time.perf_counter()
            _, picks = build(source, GRAPH, n_edges, seed=7)
            generated = time.perf_counter() - t0
            events = source.head(GRAPH)[0]
            built = {name: _timed_replay(source, store) for name, store in stores.items()}
            queries: dict[str, Callable[[Store], object]] = {
                "descendants": lambda s: s.traverse(GRAPH, picks.descendants_from, direction="out"),
                "ancestors": lambda s: s.traverse(GRAPH, picks.ancestors_from, direction="in"),
                "path_between": lambda s: s.path_between(
                    GRAPH, picks.path_source, picks.path_target
                ),
            }
            rows = []
            for query, run in queries.items():
                subjects = {name: (lambda r=run, s=store: r(s)) for name, store in stores.items()}
                timed = {k: stats(v) for k, v in interleave(subjects, rounds=rounds).items()}
                lite, pg = timed["SQLite"], timed["PostgreSQL"]
                rows.append(
                    [
                        query,
                        ms(lite.median),
                        ms(pg.median),
                        ms(pg.p95),
                        f"{pg.median / lite.median:.2f}",
                    ]
                )
        finally:
            for store in (source, *stores.values()):
                store.close()
    lite, pg = built["SQLite"], built["PostgreSQL"]
    print(
        f"\nbuild: {n_edges} edges, {events} events replayed in chunks of 10,000 "
        f"(generated in SQLite first: {generated:.1f} s)\n"
    )
    print_table(
        ["store", "build s", "events/s", "PG / SQLite"],
        [
            ["SQLite", f"{lite:.1f}", f"{events / lite:.0f}", "1.00"],
            ["PostgreSQL", f"{pg:.1f}", f"{events / pg:.0f}", f"{pg / lite:.2f}"],
        ],
    )
    print(
        f"\ntraversals: {n_edges} edges, reach ~{picks.reach_down} down / {picks.reach_up} up, "
        f"path of {picks.path_length} hops\n"
    )
    print_table(
        ["query", "SQLite median ms", "PostgreSQL median ms", "PostgreSQL p95 ms", "PG / SQLite"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small sizes")
    parser.add_argument("--calls", type=int, help="record_decision calls per round (default 25)")
    parser.add_argument("--batches", type=int, help="batches per writer (default 200)")
    parser.add_argument("--edges", type=int, help="edges of the traversal graph (default 10000)")
    parser.add_argument("--rounds", type=int, help="timed rounds per query (default 30)")
    parser.add_argument(
        "--only", choices=("record", "writes", "traversals"), help="run one part only"
    )
    parser.add_argument(
        "--delay-ms", type=float, default=0.0, help="hold each packet this long each way"
    )
    args = parser.parse_args()
    delay = args.delay_ms / 1000
    batches = args.batches or (10 if args.quick else 200)
    n_edges = args.edges or (2_000 if args.quick else 10_000)
    rounds = args.rounds or (3 if args.quick else 30)
    calls = args.calls or (5 if args.quick else 25)
    print(f"{machine_line()}, PostgreSQL {_server_version()}, psycopg {psycopg.__version__}")
    if delay:
        print(f"PostgreSQL reached through a relay holding each packet {args.delay_ms} ms each way")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "record"):
            bench_record(Path(tmp), rounds, calls, delay)
        if args.only in (None, "writes"):
            bench_writes(Path(tmp), batches, delay)
        if args.only in (None, "traversals"):
            bench_traversals(Path(tmp), n_edges, rounds, delay)


def _server_version() -> str:
    url = os.environ.get("DECISIS_TEST_POSTGRES_URL") or DEFAULT_URL
    with psycopg.connect(url) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "?"


if __name__ == "__main__":
    main()
