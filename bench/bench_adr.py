"""ADR benchmarks: ingest and ``ask`` latency, beside plain full-text search, on the shared
corpus (132 records) or on a synthetic corpus of any size (``bench/synthetic_adrs.py``).

    .venv/bin/python bench/bench_adr.py                       # the 132 shared records
    .venv/bin/python bench/bench_adr.py --synthetic 50000     # a generated corpus, SQLite
    .venv/bin/python bench/bench_adr.py --synthetic 50000 --keep /tmp/adr50k  # reuse it

Each run reports, apart, in wall-clock and process CPU time: ingest (``ingest`` of the
folder into a fresh SQLite store); the view build (``view_of``: every record read back and
indexed, once per ledger head); the first ``ask`` on that view (what answering derives from
a view once: record vectors, folder words); a correction (it moves the ledger head), then
the view rebuild and the first ``ask`` after it; and the steady-state ``ask``, timed in
interleaved rounds beside the baseline: the same questions answered by the store's
full-text search, top hit (system (a) of ``decisis eval``). ``--profile`` adds a cProfile
of the steady-state asks. The synthetic corpus is written to a temporary folder, or to
``--keep DIR`` (``DIR/corpus`` and ``DIR/store.db``), where it is kept with its store so
that a rerun skips generation and ingest; each run adds its one correction to a kept store.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import pstats
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from bench_core_common import cpu_timed, interleave, machine_line, ms, print_table, stats
from synthetic_adrs import Corpus, generate, questions, write_corpus

import decisis
from decisis.adr.answer import ask
from decisis.adr.learn.corrections import correct
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from decisis.evaluation import load_questions
from decisis.evaluation.systems import FullTextTop
from decisis.graph import Graph

DATA = Path(__file__).resolve().parents[1] / "data"
T = TypeVar("T")


def _timed(call: Callable[[], T]) -> tuple[T, str, str]:
    """``call``'s result, and its wall-clock and process CPU seconds as table cells."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, f"{time.perf_counter() - wall:.2f}", f"{time.process_time() - cpu:.2f}"


def _row(label: str, call: Callable[[], object]) -> list[object]:
    _, wall, cpu = _timed(call)
    return [label, wall, cpu]


def _rotating(fn: Callable[[str], object], items: Sequence[str]) -> Callable[[], object]:
    """A call answering the next item each time (so each round covers every item once)."""
    turn = itertools.cycle(items)
    return lambda: fn(next(turn))


def _steady(graph: Graph, texts: Sequence[str], rounds: int, profile: bool) -> None:
    """Steady-state ask beside full-text top hit, interleaved; every question once a round."""
    baseline = FullTextTop(graph)
    cpu: dict[str, list[int]] = {"ask": [], "fulltext top hit": []}
    subjects = {
        "ask": cpu_timed(_rotating(lambda q: ask(graph, q), texts), cpu["ask"]),
        "fulltext top hit": cpu_timed(_rotating(baseline.ask, texts), cpu["fulltext top hit"]),
    }
    per_round = dict.fromkeys(subjects, len(texts))
    times = interleave(subjects, rounds=rounds, per_round=per_round, warmup=0)
    # A question's first asking pays for what is then kept (its terms' BM25 factors, its
    # vector, the records it reaches); asked again it costs less. Both are shown, and all.
    first = len(texts)
    parts = {"": slice(None), ", first time asked": slice(0, first)}
    if rounds > 1:
        parts[", asked again"] = slice(first, None)
    rows = []
    for part, cut in parts.items():
        base = stats(times["fulltext top hit"][cut])
        for name, samples in times.items():
            s, c = stats(samples[cut]), stats(cpu[name][cut])
            ratio = f"{s.median / base.median:.1f}x"
            label = name + part
            rows.append([label, s.n, ms(s.median), ms(s.p95), ms(c.median), ms(c.p95), ratio])
    headers = ["subject", "calls", "median ms", "p95 ms", "CPU median ms", "CPU p95 ms"]
    print_table([*headers, "median / fulltext"], rows)
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for q in texts:
            ask(graph, q)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)


def _once(graph: Graph, first: str, change: tuple[str, str | None] | None) -> list[list[object]]:
    """The one-time costs: view build, first ask after ingest, first ask after a change."""
    rows = [
        _row("view build (view_of after ingest)", lambda: view_of(graph)),
        _row("first ask on it (record vectors, folder words)", lambda: ask(graph, first)),
    ]
    if change is not None:
        correct(graph, *change)
        rows.append(_row("view rebuild after a correction", lambda: view_of(graph)))
        rows.append(_row("first ask after the correction", lambda: ask(graph, first)))
    return rows


def shared_corpus(rounds: int, profile: bool) -> None:
    """The 132 shared records and the development questions."""
    texts = [q.question for q in load_questions(DATA / "questions-dev.jsonl")]
    print(machine_line())
    with tempfile.TemporaryDirectory() as tmp, decisis.open(f"sqlite:///{tmp}/b.db") as g:
        rows = [_row("ingest of 132 records", lambda: ingest(g, DATA / "adr-corpus"))]
        rows += _once(g, texts[0], None)
        print_table(["one-time step", "seconds", "CPU seconds"], rows)
        _steady(g, texts, rounds, profile)


def _prepare(folder: Path, records: int, seed: int) -> tuple[Corpus, bool, float]:
    """The corpus's specs, whether ``folder`` already holds its files and store, and the
    seconds it took to generate (and write) them."""
    marker = folder / "bench-synthetic.json"
    wanted = {"records": records, "seed": seed}
    start = time.perf_counter()
    if marker.exists() and json.loads(marker.read_text()) == wanted:
        return generate(records, seed), True, time.perf_counter() - start
    marker.unlink(missing_ok=True)
    for name in ("store.db", "store.db-wal", "store.db-shm"):
        (folder / name).unlink(missing_ok=True)
    shutil.rmtree(folder / "corpus", ignore_errors=True)
    corpus = write_corpus(folder / "corpus", records, seed)
    return corpus, False, time.perf_counter() - start


def synthetic(args: argparse.Namespace, folder: Path) -> None:
    """A generated corpus of ``args.synthetic`` records, ingested into SQLite, and questions."""
    corpus, reused, took = _prepare(folder, args.synthetic, args.seed)
    texts = [q.text for q in questions(corpus, args.questions)]
    teams = len({s.folder for s in corpus.specs})
    print(machine_line())
    print(f"synthetic corpus: {len(corpus.specs)} records in {teams} folders, seed {args.seed}")
    kept = " (kept files)" if reused else ""
    rows: list[list[object]] = [[f"generate the corpus{kept}", f"{took:.1f}", ""]]
    with decisis.open(f"sqlite:///{folder}/store.db") as g:
        if reused:
            rows.append(["ingest", "kept store (--keep)", ""])
        else:
            report, wall, cpu = _timed(lambda: ingest(g, folder / "corpus"))
            added = f"ingest ({len(report.added)} records, {report.links_added} links)"
            rows.append([added, wall, cpu])
            marker = {"records": args.synthetic, "seed": args.seed}
            (folder / "bench-synthetic.json").write_text(json.dumps(marker))
        change = next(((q.text, q.expected) for q in questions(corpus, 50, 3) if q.expected), None)
        rows += _once(g, texts[0], change)
        print_table(["one-time step", "seconds", "CPU seconds"], rows)
        _steady(g, texts, args.rounds, args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, metavar="N", help="generate N records instead")
    parser.add_argument("--seed", type=int, default=7, help="of the synthetic corpus")
    parser.add_argument("--questions", type=int, default=100, help="synthetic questions")
    parser.add_argument("--rounds", type=int, default=3, help="each question once a round")
    parser.add_argument("--keep", metavar="DIR", help="keep the synthetic corpus and store here")
    parser.add_argument("--profile", action="store_true", help="cProfile the steady-state asks")
    args = parser.parse_args()
    if not args.synthetic:
        shared_corpus(args.rounds, args.profile)
    elif args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        synthetic(args, Path(args.keep))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            synthetic(args, Path(tmp))


if __name__ == "__main__":
    main()
