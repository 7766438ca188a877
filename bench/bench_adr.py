"""ADR benchmarks: ingest of the shared corpus and ``ask`` latency, beside a plain FTS query.

.venv/bin/python bench/bench_adr.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import decisis
from decisis.adr.answer import ask
from decisis.adr.ingest import ingest
from decisis.evaluation import load_questions

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _median_ms(fn, items) -> float:  # type: ignore[no-untyped-def]
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    questions = [q.question for q in load_questions(DATA / "questions-dev.jsonl")]
    with tempfile.TemporaryDirectory() as tmp, decisis.open(f"sqlite:///{tmp}/b.db") as g:
        start = time.perf_counter()
        ingest(g, DATA / "adr-corpus")
        ingest_s = time.perf_counter() - start
        ask(g, questions[0])  # build the cached view and load the tokenizer once
        ask_ms = _median_ms(lambda q: ask(g, q), questions * 3)
        fts_ms = _median_ms(lambda q: g.search(q, limit=10), questions * 3)
    print(f"ingest 132 records: {ingest_s:.2f} s (target <= 2 s)")
    print(f"ask median: {ask_ms:.1f} ms (target <= 20 ms); plain FTS query median: {fts_ms:.2f} ms")


if __name__ == "__main__":
    main()
