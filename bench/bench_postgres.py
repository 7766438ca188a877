"""PostgreSQL beside SQLite in the same run: concurrent writers, then traversal latency.

Writes: 1, 4 and 16 writer processes, each appending ``--batches`` batches (one
decision, its option and the ``chosen`` edge: three ledger events) as fast as
it can; reported as batches per second over the wall time from a common start
to the last commit. All writers share one graph (their appends queue on that
graph's lock: PostgreSQL's row lock on ``heads``, SQLite's one write lock per
file); on PostgreSQL also one graph per writer, where appends run in parallel.

Traversals: descendants, ancestors and path_between from a node reaching about
1,000 nodes on the synthetic graph of ``bench_core_graphs`` (``--edges``),
built in both stores; PostgreSQL and SQLite interleaved in the same rounds.

    .venv/bin/python bench/bench_postgres.py [--quick] [--batches N] [--edges N] [--rounds N]
        [--only writes|traversals]

The server is ``DECISIS_TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``); the run works in a schema of
its own and drops it at the end.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from bench_core_common import interleave, machine_line, ms, print_table, stats
from bench_core_graphs import build
from psycopg import sql

from decisis.model import EdgeType, EventDraft, NodeStatus, NodeType, new_id, utc_now
from decisis.model import events as drafts
from decisis.model.records import Edge, Node
from decisis.stores import Store, open_store

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
WRITERS = (1, 4, 16)
GRAPH = "bench"


@contextmanager
def pg_schema() -> Iterator[str]:
    """A URL whose search_path is a fresh schema on the server, dropped afterwards."""
    url = os.environ.get("DECISIS_TEST_POSTGRES_URL") or DEFAULT_URL
    name = f"decisis_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        option = quote(f"-csearch_path={name}", safe="")
        yield f"{url}{'&' if '?' in url else '?'}options={option}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))


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


def bench_writes(sqlite_dir: Path, batches: int) -> None:
    rows = []
    for writers in WRITERS:
        with pg_schema() as pg_url:
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


def bench_traversals(sqlite_dir: Path, n_edges: int, rounds: int) -> None:
    with pg_schema() as pg_url:
        stores: dict[str, Store] = {
            "SQLite": open_store(f"sqlite:///{sqlite_dir}/walk.db"),
            "PostgreSQL": open_store(pg_url),
        }
        try:
            built = {}
            t0 = time.perf_counter()
            _, picks = build(stores["SQLite"], GRAPH, n_edges, seed=7)
            built["SQLite"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            _replay(stores["SQLite"], stores["PostgreSQL"])
            built["PostgreSQL"] = time.perf_counter() - t0
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
            for store in stores.values():
                store.close()
    print(
        f"\ntraversals: {n_edges} edges, reach ~{picks.reach_down} down / {picks.reach_up} up, "
        f"path of {picks.path_length} hops; build SQLite {built['SQLite']:.1f} s, "
        f"PostgreSQL {built['PostgreSQL']:.1f} s\n"
    )
    print_table(
        ["query", "SQLite median ms", "PostgreSQL median ms", "PostgreSQL p95 ms", "PG / SQLite"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small sizes")
    parser.add_argument("--batches", type=int, help="batches per writer (default 200)")
    parser.add_argument("--edges", type=int, help="edges of the traversal graph (default 10000)")
    parser.add_argument("--rounds", type=int, help="timed rounds per query (default 30)")
    parser.add_argument("--only", choices=("writes", "traversals"), help="run one part only")
    args = parser.parse_args()
    batches = args.batches or (10 if args.quick else 200)
    n_edges = args.edges or (2_000 if args.quick else 10_000)
    rounds = args.rounds or (3 if args.quick else 30)
    print(machine_line() + f", PostgreSQL server {_server_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "traversals":
            bench_writes(Path(tmp), batches)
        if args.only != "writes":
            bench_traversals(Path(tmp), n_edges, rounds)


def _server_version() -> str:
    url = os.environ.get("DECISIS_TEST_POSTGRES_URL") or DEFAULT_URL
    with psycopg.connect(url) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "?"


if __name__ == "__main__":
    main()
