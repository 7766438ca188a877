"""Corrections and ingests beside steady writers: how many land, the old write policy beside
the new.

    .venv/bin/python bench/writers_corrections.py                 # SQLite, 8 writers
    .venv/bin/python bench/writers_corrections.py --postgres postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python bench/writers_corrections.py --quick         # a smoke run

A correction (``decisis.adr.correct``) and an ingest (``decisis.adr.ingest``) read the
graph, work out their change and append it only if nobody wrote in between
(``decisis.contention.written_once``). Here ``--writers`` processes append goals to the
same graph, each one every ``--interval`` seconds, while this process runs
``--corrections`` corrections (questions of ``data/questions-dev.jsonl`` about the
folder, each corrected to its expected record) and ``--ingests`` ingests (each of a
folder of two new records written in a temporary folder) into a graph holding the
ingested ``--folder``. Each run uses a fresh store: a SQLite file, and with
``--postgres URL`` also a throwaway schema on that server.

Each store is run twice, in this order: ``before`` with the policy decisis had (five
tries, no wait, no lock: ``NO_WAIT``), then ``after`` with the default
(``DEFAULT_WRITES``: three tries with full-jitter backoff, then one under the graph's
write lock); ``--backoff-only`` adds a third run, retries with backoff for up to 10 s
and never the lock, which shows why the lock is there. It prints, for each, how many
corrections and ingests landed of how many, the median seconds a correction took
(landed or not) with its ratio to the baseline run beside it, how many goals the
writers wrote and how many of their writes failed (a writer waits up to the store's
busy timeout while a correction holds the lock), and whether the ledger verifies
afterwards. Counts are the measure; times on a shared
2-core machine are only indications.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench_core_common import machine_line, print_table

import decisis
from decisis.adr import correct, ingest
from decisis.contention import DEFAULT_WRITES, NO_WAIT, WritePolicy
from decisis.errors import DecisisError, HeadMoved
from decisis.evaluation.questions import load_questions
from decisis.stores import open_store

REPO = Path(__file__).resolve().parents[1]
GRAPH = "bench"
POLICIES: dict[str, WritePolicy] = {"before": NO_WAIT, "after": DEFAULT_WRITES}
# ``--backoff-only``: the retries with backoff alone, for 10 s, never the lock.
BACKOFF_ONLY = WritePolicy(tries=1_000, first_wait=0.02, max_wait=0.5, budget=10.0, lock=False)
_RECORD = """# {title}

Date: 2026-0{month}-1{day}

## Status

Accepted

## Context

The {topic} of the platform needs a decision for round {round}.

## Decision

We will use {choice} for the {topic}.

## Consequences

Teams move their {topic} to {choice}.
"""


@dataclass
class Run:
    """What one run counted."""

    corrections: int = 0
    corrected: int = 0
    ingests: int = 0
    ingested: int = 0
    seconds: list[float] = field(default_factory=list)  # each correction's wall time
    goals: int = 0
    writer_errors: Counter[str] = field(default_factory=Counter)
    verified: bool = False


def _write_goals(url: str, writer: int, interval: float, ready: Any, stop: Any, out: Any) -> None:
    """A steady writer: a goal every ``interval`` seconds until ``stop`` is set."""
    graph = decisis.Graph(open_store(url), GRAPH, owns_store=True)
    written, errors = 0, Counter[str]()
    try:
        graph.add_goal(f"writer {writer} starts")
        ready.release()
        while not stop.is_set():
            try:
                graph.add_goal(f"writer {writer} goal {written}")
                written += 1
            except DecisisError as exc:
                errors[f"{type(exc).__name__}: {str(exc)[-40:]}"] += 1
            if interval:
                time.sleep(interval)
    finally:
        graph.close()
        out.put((written, dict(errors)))


def _new_folder(root: Path, run: str, index: int) -> Path:
    """A folder of two records nobody has ingested (its name is part of their keys)."""
    folder = root / f"{run}-ingest-{index}"
    folder.mkdir(parents=True)
    for number, (topic, choice) in enumerate((("queueing", "RabbitMQ"), ("tracing", "Jaeger"))):
        title = f"Use {choice} for {topic} ({run} {index})"
        (folder / f"{number + 1:04d}-use-{choice.lower()}.md").write_text(
            _RECORD.format(
                title=title,
                month=number + 1,
                day=index % 10,
                topic=topic,
                round=index,
                choice=choice,
            ),
            encoding="utf-8",
        )
    return folder


def _pairs(folder: Path, count: int) -> list[tuple[str, str]]:
    """``count`` (question, expected key) pairs about ``folder``, cycled when too few."""
    team = folder.name
    questions = [
        (q.question, q.expected)
        for q in load_questions(REPO / "data" / "questions-dev.jsonl")
        if q.expected and q.expected.startswith(f"{team}:")
    ]
    if not questions:
        raise SystemExit(f"no question of data/questions-dev.jsonl is about {team}")
    return [questions[i % len(questions)] for i in range(count)]


def one_run(url: str, name: str, policy: WritePolicy, args: argparse.Namespace) -> Run:
    """Corrections and ingests under ``policy`` while the writers write; see the docstring."""
    run = Run()
    graph = decisis.Graph(open_store(url), GRAPH, writes=policy, owns_store=True)
    ctx = mp.get_context("spawn")
    ready, stop, out = ctx.Semaphore(0), ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_write_goals, args=(url, w, args.interval, ready, stop, out))
        for w in range(args.writers)
    ]
    try:
        ingest(graph, args.folder)  # the graph the corrections ask, before anyone writes
        for proc in procs:
            proc.start()
        for _ in procs:
            ready.acquire()
        time.sleep(0.3)  # every writer past its first goal, writing steadily
        with tempfile.TemporaryDirectory() as tmp:
            for question, key in _pairs(args.folder, args.corrections):
                run.corrections += 1
                started = time.perf_counter()
                try:
                    correct(graph, question, key)
                    run.corrected += 1
                except HeadMoved:
                    pass
                run.seconds.append(time.perf_counter() - started)
            for index in range(args.ingests):
                run.ingests += 1
                try:
                    report = ingest(graph, _new_folder(Path(tmp), name, index))
                    run.ingested += bool(report.added)
                except HeadMoved:
                    pass
    finally:
        stop.set()
        for _ in procs:
            written, errors = out.get(timeout=120)
            run.goals += written
            run.writer_errors.update(errors)
        for proc in procs:
            proc.join(timeout=60)
    try:
        run.verified = graph.verify().ok
    finally:
        graph.close()
    return run


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        yield f"sqlite:///{tmp}/bench.db"


@contextmanager
def postgres_url(server: str) -> Iterator[str]:
    """``server`` with its search_path set to a fresh schema, dropped afterwards."""
    import psycopg
    from psycopg import sql

    schema = f"decisis_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        option = quote(f"-csearch_path={schema}", safe="")
        yield f"{server}{'&' if '?' in server else '?'}options={option}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def _row(backend: str, name: str, run: Run, baseline: Run | None) -> list[object]:
    median = statistics.median(run.seconds) if run.seconds else 0.0
    ratio = ""
    if baseline is not None and baseline.seconds:
        base = statistics.median(baseline.seconds)
        ratio = f"{median / base:.2f}" if base else ""
    errors = sum(run.writer_errors.values())
    return [
        backend,
        name,
        f"{run.corrected} of {run.corrections}",
        f"{run.ingested} of {run.ingests}",
        f"{median:.3f}",
        ratio or "1.00",
        run.goals,
        errors,
        "ok" if run.verified else "FAILS",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--interval", type=float, default=0.005, help="seconds between goals")
    parser.add_argument("--corrections", type=int, default=8)
    parser.add_argument("--ingests", type=int, default=3)
    parser.add_argument(
        "--folder", type=Path, default=REPO / "data" / "adr-corpus" / "cloud-platform"
    )
    parser.add_argument("--postgres", metavar="URL", help="also run on this PostgreSQL server")
    parser.add_argument("--quick", action="store_true", help="2 writers, 2 corrections, 1 ingest")
    parser.add_argument(
        "--backoff-only",
        action="store_true",
        help="also run backoff without the lock (up to 10 s a correction)",
    )
    args = parser.parse_args()
    policies = dict(POLICIES)
    if args.backoff_only:
        policies["backoff only"] = BACKOFF_ONLY
    if args.quick:
        args.writers, args.corrections, args.ingests = 2, 2, 1
    stores = {"sqlite": sqlite_url}
    if args.postgres:
        stores["postgres"] = lambda: postgres_url(args.postgres)
    print(machine_line())
    print(
        f"{args.writers} writers, a goal each every {args.interval} s; "
        f"{args.corrections} corrections and {args.ingests} ingests on {args.folder.name}\n"
    )
    rows: list[list[object]] = []
    problems: Counter[str] = Counter()
    for backend, opener in stores.items():
        baseline: Run | None = None
        for name, policy in policies.items():
            with opener() as url:
                run = one_run(url, name, policy, args)
            rows.append(_row(backend, name, run, baseline))
            problems.update({f"{backend} {name}: {k}": v for k, v in run.writer_errors.items()})
            baseline = baseline or run
    print_table(
        [
            "store",
            "policy",
            "corrections landed",
            "ingests landed",
            "median correction s",
            "ratio to before",
            "writer goals",
            "writer errors",
            "verify",
        ],
        rows,
    )
    for problem, count in problems.most_common():
        print(f"- {count} x {problem}")


if __name__ == "__main__":
    main()
