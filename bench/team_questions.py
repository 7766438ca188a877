"""Question files for one team's records alone: how answering does on a store of some fifty
records, as a team that ingests only its own folder has, rather than all 132.

    .venv/bin/python bench/team_questions.py /tmp/teams
    decisis eval /tmp/teams/cloud-platform.jsonl --corpus data/adr-corpus/cloud-platform

For each folder of the corpus in data/ it writes the questions of the development file and
of ours (``bench/questions-*.jsonl``) whose answers all lie in that folder, and every
out-of-scope question (none of them is answered by any record, so by none of the team's).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "adr-corpus"
FILES = (
    ROOT / "data" / "questions-dev.jsonl",
    ROOT / "bench" / "questions-fresh.jsonl",
    ROOT / "bench" / "questions-indep.jsonl",
)


def team_questions(folder: str) -> list[str]:
    """The lines of the question files that a store of ``folder`` alone can be asked."""
    kept = []
    for path in FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            question = json.loads(line)
            keys = [question["expected"], *question["acceptable"]]
            if question["expected"] is None or all(k.startswith(f"{folder}:") for k in keys):
                kept.append(line)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write <team>.jsonl into")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for folder in sorted(p.name for p in CORPUS.iterdir() if p.is_dir()):
        lines = team_questions(folder)
        (args.out / f"{folder}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{folder}: {len(lines)} questions")


if __name__ == "__main__":
    main()
