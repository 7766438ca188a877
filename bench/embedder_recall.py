"""Recall@1 and recall@5 of an embedder's vectors alone, per corpus of a suite: of the questions
that have an answer, the share whose right start (a record whose walk ends at a right answer)
is the closest candidate by the record cosine, or among the five closest.

    .venv/bin/python bench/embedder_recall.py [bench/suite.toml]
    DECISIS_EMBEDDER=sentence-transformers .venv-st/bin/python bench/embedder_recall.py

The embedder is the one answering uses (``DECISIS_EMBEDDER``, default ``static-minilm``).
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from pathlib import Path

from decisis.adr.answer.settings import FEATURES
from decisis.evaluation.fit import cases_of
from decisis.evaluation.suite import load_suite

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    suite = load_suite(sys.argv[1] if len(sys.argv) > 1 else ROOT / "bench" / "suite.toml")
    cosine = FEATURES.index("cosine")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for case in cases_of(suite):
        question = case.question
        if question.expected is None:
            continue
        good = {question.expected, *question.acceptable}
        ranked = sorted(
            zip(case.found.keys, case.found.values, strict=True), key=lambda kv: -kv[1][cosine]
        )
        places = [
            i for i, (key, _) in enumerate(ranked) if key in good or case.end(key, None)[0] in good
        ]
        row = counts[case.group]
        row[0] += bool(places) and places[0] < 1
        row[1] += bool(places) and places[0] < 5
        row[2] += 1
    name = os.environ.get("DECISIS_EMBEDDER") or "static-minilm"
    print(f"embedder: {name}")
    total = [0, 0, 0]
    for group, (one, five, n) in [*counts.items()]:
        print(f"{group:24s} recall@1 {one / n:.2f}  recall@5 {five / n:.2f}  ({n} questions)")
        total = [total[0] + one, total[1] + five, total[2] + n]
    print(f"{'pooled':24s} recall@1 {total[0] / total[2]:.2f}  recall@5 {total[1] / total[2]:.2f}")


if __name__ == "__main__":
    main()
