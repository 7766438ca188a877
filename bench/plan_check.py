"""Plan check quality: precision and recall of ``decisis.plans.check_plan`` on plans written
from the development corpora, with their expected findings (``bench/plans-dev.jsonl``).

    .venv/bin/python bench/plan_check.py                 # the default settings
    .venv/bin/python bench/plan_check.py --min-idf 3.0   # another threshold
    .venv/bin/python bench/plan_check.py --sweep         # min_idf from 1.5 to 4.0
    .venv/bin/python bench/plan_check.py --held-out      # picked on four corpora, on the fifth
    .venv/bin/python bench/plan_check.py --json          # the figures as JSON

Each plan's corpus is ingested into its own in-memory graph (one team's records, as a team
would have them), the plan is written out in its format (numbered, bullets, lines or prose)
and checked whole, so the step splitting is measured too: a plan split into another number
of steps than it was written with counts every expected finding of it as missed.

A finding is right when its premise (the record or option no longer standing, or the
standing record that turned the thing down) is one the step is expected to name, or one
marked acceptable for it; an expected finding is found when any finding names one of its
keys. Precision = right findings / findings; recall = expected findings found / expected.
Beside it, the same figures for a baseline that flags a step whenever it shares any term
with a replaced record's title (what a plain word match would do).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import decisis
from decisis.adr import ingest
from decisis.graph import Graph
from decisis.plans import DEFAULT_CHECK, CheckSettings, check_plan
from decisis.search.text import terms

ROOT = Path(__file__).resolve().parents[1]
PLANS = ROOT / "bench" / "plans-dev.jsonl"
DATA = ROOT / "data"


def load_plans(path: Path = PLANS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def render(plan: dict[str, Any]) -> str:
    """The plan's steps written out in its ``format``."""
    texts = [step["text"] for step in plan["steps"]]
    form = plan.get("format", "lines")
    if form == "numbered":
        return "\n".join(f"{i}. {t}" for i, t in enumerate(texts, 1))
    if form == "bullets":
        return "\n".join(f"- {t}" for t in texts)
    if form == "prose":
        return " ".join(t if t.endswith(".") else f"{t}." for t in texts)
    return "\n".join(texts)


@dataclasses.dataclass
class Score:
    findings: int = 0
    right: int = 0
    expected: int = 0
    found: int = 0
    quiet_steps: int = 0
    quiet_right: int = 0
    steps: int = 0
    split_wrong: int = 0
    wrong: list[str] = dataclasses.field(default_factory=list)
    missed: list[str] = dataclasses.field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.findings if self.findings else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    def figures(self) -> dict[str, Any]:
        return {
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "findings": self.findings,
            "right": self.right,
            "expected": self.expected,
            "found": self.found,
            "steps": self.steps,
            "steps_expecting_none": self.quiet_steps,
            "of_them_quiet": self.quiet_right,
            "plans_split_wrong": self.split_wrong,
        }


def _graphs(plans: list[dict[str, Any]]) -> dict[str, Graph]:
    graphs = {}
    for corpus in sorted({p["corpus"] for p in plans}):
        graph = decisis.open("memory://", graph=corpus.replace("/", "-"))
        ingest(graph, DATA / corpus)
        graphs[corpus] = graph
    return graphs


def _score_step(score: Score, step: dict[str, Any], named: list[str], where: str) -> None:
    groups = [set(g) for g in step["expect"]]
    fine = set().union(*groups, set(step.get("acceptable", [])))
    score.steps += 1
    if not groups:
        score.quiet_steps += 1
        score.quiet_right += not named
    score.findings += len(named)
    for key in named:
        if key in fine:
            score.right += 1
        else:
            score.wrong.append(f"{where} {step['text']!r}: {key}")
    score.expected += len(groups)
    for group in groups:
        if group & set(named):
            score.found += 1
        else:
            score.missed.append(f"{where} {step['text']!r}: {sorted(group)}")


def measure(
    plans: list[dict[str, Any]], settings: CheckSettings, graphs: dict[str, Graph]
) -> Score:
    score = Score()
    for plan in plans:
        checked = check_plan(graphs[plan["corpus"]], render(plan), settings)
        if len(checked.steps) != len(plan["steps"]):
            score.split_wrong += 1
            named_by_step: list[list[str]] = [[] for _ in plan["steps"]]
        else:
            named_by_step = [
                [f.premise_key or f.premise.id for f in s.findings] for s in checked.steps
            ]
        for number, (step, named) in enumerate(zip(plan["steps"], named_by_step, strict=True), 1):
            _score_step(score, step, named, f"{plan['id']}#{number}")
    return score


def baseline(plans: list[dict[str, Any]], graphs: dict[str, Graph]) -> Score:
    """Flag a step with every fully replaced record whose title shares a term with it."""
    from decisis.adr import believed_links, view_of

    score = Score()
    for plan in plans:
        graph = graphs[plan["corpus"]]
        view = view_of(graph)
        old = {link.old for link in believed_links(graph) if not link.partial}
        titles = {key: set(terms(view.records[key].label)) for key in old}
        for number, step in enumerate(plan["steps"], 1):
            said = set(terms(step["text"]))
            named = sorted(key for key, title in titles.items() if title & said)
            _score_step(score, step, named, f"{plan['id']}#{number}")
    return score


_GRID = [(a / 10, b / 10) for a in range(15, 41, 5) for b in range(20, 51, 5)]


def _pick(plans: list[dict[str, Any]], graphs: dict[str, Graph]) -> tuple[float, float]:
    """The thresholds with the best recall at precision >= 0.9 on ``plans`` (ties: the
    higher thresholds, the cautious side)."""
    best: tuple[float, float, float, float] = (-1.0, 0.0, 0.0, 0.0)
    for title, text in _GRID:
        s = measure(
            plans, dataclasses.replace(DEFAULT_CHECK, min_idf=title, min_idf_text=text), graphs
        )
        if s.precision >= 0.9 and (s.recall, title, text) > best[1:]:
            best = (s.precision, s.recall, title, text)
    return best[2], best[3]


def held_out(plans: list[dict[str, Any]], graphs: dict[str, Graph]) -> Score:
    """Leave one corpus out: thresholds picked on the other four, scored on it; summed."""
    total = Score()
    for corpus in sorted(graphs):
        train = [p for p in plans if p["corpus"] != corpus]
        test = [p for p in plans if p["corpus"] == corpus]
        title, text = _pick(train, graphs)
        settings = dataclasses.replace(DEFAULT_CHECK, min_idf=title, min_idf_text=text)
        s = measure(test, settings, graphs)
        print(
            f"| {corpus} | {title:.1f} | {text:.1f} "
            f"| {s.right}/{s.findings} | {s.found}/{s.expected} |"
        )
        for name in (
            "findings",
            "right",
            "expected",
            "found",
            "quiet_steps",
            "quiet_right",
            "steps",
        ):
            setattr(total, name, getattr(total, name) + getattr(s, name))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plans", type=Path, default=PLANS)
    parser.add_argument("--min-idf", type=float, default=DEFAULT_CHECK.min_idf)
    parser.add_argument("--min-idf-text", type=float, default=DEFAULT_CHECK.min_idf_text)
    parser.add_argument("--sweep", action="store_true", help="both thresholds, 1.5 to 4.0")
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="thresholds picked on four corpora, scored on the fifth",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", "-v", action="store_true", help="list wrong and missed")
    args = parser.parse_args()
    plans = load_plans(args.plans)
    graphs = _graphs(plans)
    if args.sweep:
        print("| min_idf | min_idf_text | precision | recall | findings |")
        print("| --- | --- | --- | --- | --- |")
        for title, text in itertools.product(range(15, 41, 5), range(20, 51, 5)):
            settings = dataclasses.replace(
                DEFAULT_CHECK, min_idf=title / 10, min_idf_text=text / 10
            )
            s = measure(plans, settings, graphs)
            print(
                f"| {title / 10:.1f} | {text / 10:.1f} | {s.precision:.3f} | {s.recall:.3f} "
                f"| {s.findings} |"
            )
        return
    if args.held_out:
        print("| held out | min_idf | min_idf_text | right/findings | found/expected |")
        print("| --- | --- | --- | --- | --- |")
        s = held_out(plans, graphs)
        print(f"| all five | | | {s.precision:.3f} precision | {s.recall:.3f} recall |")
        return
    settings = dataclasses.replace(
        DEFAULT_CHECK, min_idf=args.min_idf, min_idf_text=args.min_idf_text
    )
    score, base = measure(plans, settings, graphs), baseline(plans, graphs)
    if args.json:
        print(json.dumps({"check": score.figures(), "baseline": base.figures()}, indent=1))
        return
    print(f"{len(plans)} plans, {score.steps} steps, corpora: {', '.join(sorted(graphs))}")
    print(
        "| system | precision | recall | findings | quiet steps |\n| --- | --- | --- | --- | --- |"
    )
    for name, s in (("check_plan", score), ("baseline: any title term", base)):
        quiet = f"{s.quiet_right}/{s.quiet_steps}"
        print(f"| {name} | {s.precision:.3f} | {s.recall:.3f} | {s.findings} | {quiet} |")
    if args.verbose:
        for line in score.wrong:
            print("wrong:", line)
        for line in score.missed:
            print("missed:", line)


if __name__ == "__main__":
    main()
