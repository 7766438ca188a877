"""The ADR reader on adversarial lines of length n and 10n: linear time reads the longer
in about 10 times as long, quadratic time in about 100 times (issue #31, part 4).

    .venv/bin/python bench/reader_linear.py                  # n = 20,000 characters
    .venv/bin/python bench/reader_linear.py --n 50000 --rounds 5
    .venv/bin/python bench/reader_linear.py --quick          # n = 2,000, one round

Each case is one record whose body is one such line (a heading of ``#``, a status line with
spaces inside, autolinks or tags that nothing closes…), read with ``read_record``. Beside
them, in the same interleaved rounds, the baseline: an ordinary record of the same sizes
(paragraphs of prose with links and emphasis). The table gives the median process CPU time
at n and at 10n (CPU time: this machine is shared, and wall-clock time counts the waits for
a core), the ratio of the two (about 10 when the reader is linear) and the case's time at
10n over the baseline's (what an adversarial line costs over prose of its size).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench_core_common import cpu_timed, interleave, machine_line, ms, print_table

from decisis.adr.read.reader import read_record

HEAD = "# T\n\nStatus: accepted\n\n## Decision\n\n"
# Paragraphs with emphasis and one link each: about 600 characters a reference, so that a
# record of 10n stays under the 500 references a record is read for (past them, reading stops).
PROSE = "We keep *events* in order for each account, as the team agreed. " * 9 + (
    "See [Kafka](0002-kafka.md).\n\n"
)

# A record of about ``n`` characters whose one long line is adversarial.
CASES: dict[str, Callable[[int], str]] = {
    "baseline: prose": lambda n: HEAD + PROSE * (n // len(PROSE)) + "\n",
    "heading of #": lambda n: "# " + "#" * n + "x\n\nStatus: accepted\n",
    "heading, spaces before its end": lambda n: "# T" + " " * n + "x\n\nStatus: accepted\n",
    "status line, spaces inside": lambda n: "# T\n\nStatus: a" + " " * n + "b\n",
    "spaces before no title": lambda n: " " * n + "x\n\nStatus: accepted\n",
    "autolinks never closed": lambda n: HEAD + "We use " + "<http://" * (n // 8) + "\n",
    "tags never closed": lambda n: HEAD + "We use " + "<a" * (n // 2) + "\n",
    "link target of spaces": lambda n: HEAD + "See [a](" + " " * n + "x\n",
    "struck tags never closed": lambda n: "# T\n\n## Status\n\nAccepted " + "<s>" * (n // 3) + "\n",
    "title of braces": lambda n: "# " + "{" * n + "\n\nStatus: accepted\n",
    "punctuation between two references": lambda n: (
        HEAD
        + ("- " * 400 + "superseded by ADR-2 ")
        + ("- " * (n // 2) + "y ADR-3 ")
        + ("- " * 400 + "\n")
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20_000, help="the shorter line's length")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="n = 2,000, one round")
    args = parser.parse_args()
    n, rounds = (2_000, 1) if args.quick else (args.n, args.rounds)
    print(machine_line())
    print(f"n = {n:,} characters, 10n = {10 * n:,}; {rounds} rounds; median CPU ms of read_record")
    with tempfile.TemporaryDirectory() as tmp:
        subjects = {}
        for i, (name, make) in enumerate(CASES.items()):
            for size in (n, 10 * n):
                path = Path(tmp) / f"{i:02d}-{size}" / f"{i + 1:04d}-case.md"
                path.parent.mkdir()
                path.write_text(make(size), encoding="utf-8")
                subjects[(name, size)] = path
        cpu: dict[str, list[int]] = {f"{name}@{size}": [] for name, size in subjects}
        interleave(
            {
                key: cpu_timed(lambda p=path: read_record(p), cpu[key])
                for key, path in ((f"{name}@{size}", p) for (name, size), p in subjects.items())
            },
            rounds=rounds,
            warmup=0,
        )
    median = {key: statistics.median(values) for key, values in cpu.items()}
    base = median[f"baseline: prose@{10 * n}"]
    rows = []
    for name in CASES:
        short, long = median[f"{name}@{n}"], median[f"{name}@{10 * n}"]
        rows.append([name, ms(short), ms(long), f"{long / short:.1f}", f"{long / base:.2f}"])
    print_table(["line", "n ms", "10n ms", "10n / n", "10n vs baseline"], rows)


if __name__ == "__main__":
    main()
