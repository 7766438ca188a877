"""Link rules on a synthetic corpus whose replacements are known: for each rule, how many
links it proposes, how many of them are right, and its share of the rules' time.

    .venv/bin/python bench/bench_rules.py                  # 5,000 records, seed 7
    .venv/bin/python bench/bench_rules.py --records 20000

A proposal is right when the generator made the newer record replace the older one,
directly or along a chain of replacements of the same topic (``synthetic_adrs.Spec``).
Times are relative to all the rules together, since this machine's absolute times move.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench_core_common import machine_line, print_table
from synthetic_adrs import Corpus, write_corpus

from decisis.adr.link.rules import RuleContext, rules
from decisis.adr.read.reader import read_folder


def replaced_pairs(corpus: Corpus) -> set[tuple[str, str]]:
    """Every ``(old, new)`` the generator made: ``new`` replaces ``old`` or one it replaced."""
    pairs = set()
    for spec in corpus.specs:
        old = spec.replaces
        while old is not None:
            pairs.add((old.key, spec.key))
            old = old.replaces
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(machine_line())
    with tempfile.TemporaryDirectory() as tmp:
        corpus = write_corpus(Path(tmp), args.records, args.seed)
        records = read_folder(tmp).records
    truth = replaced_pairs(corpus)
    context = RuleContext(records)
    rows, times = [], {}
    for rule in rules():
        started = time.perf_counter()
        proposed = {(p.old, p.new) for p in rule.propose(context)}
        times[rule.name] = time.perf_counter() - started
        right = len(proposed & truth)
        share = f"{right / len(proposed):.2f}" if proposed else "-"
        rows.append([rule.name, len(proposed), right, share])
    total = sum(times.values()) or 1.0
    for row in rows:
        row.append(f"{times[str(row[0])] / total:.2f}")
    print(f"{len(records)} records, {len(truth)} replaced pairs (direct or along a chain)")
    print_table(["rule", "proposed", "right", "precision", "share of rule time"], rows)


if __name__ == "__main__":
    main()
