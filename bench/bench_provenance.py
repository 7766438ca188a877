"""What ingest's provenance entries cost: the git lookups, and a first ingest in a git tree.

N synthetic records (``synthetic_adrs.py``) are written twice: into a git repository
(committed) and into a plain folder. Timed in interleaved rounds: ``record_sources`` (the
file re-read and hashed; in the repository also ``git rev-parse`` and ``git ls-tree``)
on each, beside ``read_folder`` on the same records (what every ingest does anyway); and
a first ingest into a fresh memory store from each folder. The ratios say what the git
ids add to reading, and to a whole ingest.

    .venv/bin/python bench/bench_provenance.py [--quick] [--records N]

No target: what provenance adds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats
from synthetic_adrs import write_corpus

import decisis
from decisis.adr.link.ingest import ingest
from decisis.adr.link.sources import record_sources
from decisis.adr.read.reader import read_folder


def _commit(repo: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "records"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)


def _ingest_fresh(folder: Path) -> Callable[[], None]:
    def call() -> None:
        with decisis.open("memory://") as graph:
            ingest(graph, folder)

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds of 200 records")
    parser.add_argument("--records", type=int, default=None)
    args = parser.parse_args()
    records = args.records or (200 if args.quick else 1000)
    rounds = 3 if args.quick else 7
    with tempfile.TemporaryDirectory(prefix="decisis-bench-") as tmp:
        repo, plain = Path(tmp) / "repo", Path(tmp) / "plain"
        write_corpus(repo, records)
        shutil.copytree(repo, plain)
        _commit(repo)
        read_repo = read_folder(repo).records
        read_plain = read_folder(plain).records
        sources = record_sources(read_repo)
        with_ids = sum(1 for s in sources.values() if s.blob and s.commit)
        subjects: dict[str, Callable[[], object]] = {
            "read_folder (baseline)": lambda: read_folder(plain),
            "record_sources, git tree": lambda: record_sources(read_repo),
            "record_sources, plain folder": lambda: record_sources(read_plain),
            "first ingest, plain folder": _ingest_fresh(plain),
            "first ingest, git tree": _ingest_fresh(repo),
        }
        times = interleave(subjects, rounds=rounds, warmup=1)
        summary = {name: stats(times[name]) for name in subjects}
        print(machine_line())
        print(f"{records} records ({with_ids} with blob and commit), {rounds} rounds\n")
        base = summary["read_folder (baseline)"].median
        ingest_base = summary["first ingest, plain folder"].median
        rows = []
        for name, s in summary.items():
            against = ingest_base if name.startswith("first ingest") else base
            rows.append([name, s.n, ms(s.median), ms(s.p95), f"{s.median / against:.3f}"])
        print_table(["subject", "runs", "median ms", "p95 ms", "ratio to its baseline"], rows)


if __name__ == "__main__":
    main()
