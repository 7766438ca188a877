"""An evaluation as a table for people and as JSON for scripts."""

from __future__ import annotations

import json
from collections.abc import Sequence

from decisis.evaluation.links import LinkReport
from decisis.evaluation.run import Outcome, Summary, misses, summarise

__all__ = ["group_table", "links_table", "misses_table", "to_json", "to_table"]

_COLUMNS = ("right", "outdated", "wrong", "abstained", "out_of_scope_abstained")


def _cell(rate: tuple[float, float, float]) -> str:
    r, lo, hi = rate
    return f"{100 * r:5.1f}% [{100 * lo:4.1f}-{100 * hi:5.1f}]"


def to_table(summaries: Sequence[Summary]) -> str:
    """Fixed-width text: one row per system, each rate with its 95% interval."""
    head = ["system".ljust(15), *(c.replace("_", " ")[:22].ljust(22) for c in _COLUMNS), "tokens"]
    lines = ["  ".join(head)]
    for s in summaries:
        row = [s.system.ljust(15), *(_cell(s.rates[c]).ljust(22) for c in _COLUMNS)]
        lines.append("  ".join([*row, f"{s.median_tokens:.0f}"]))
    kinds = list(dict.fromkeys(k for s in summaries for k in s.by_kind))
    if kinds:
        lines += ["", "right, by kind of question (answers scored)"]
        lines.append("  ".join(["system".ljust(15), *(k.ljust(18) for k in kinds)]))
        for s in summaries:
            cells = []
            for kind in kinds:
                rate, n = s.by_kind.get(kind, (0.0, 0))
                cells.append(f"{100 * rate:5.1f}% of {n}".ljust(18) if n else "-".ljust(18))
            lines.append("  ".join([s.system.ljust(15), *cells]))
    return "\n".join(lines)


def misses_table(outcomes: Sequence[Outcome], system: str) -> str:
    """The questions ``system`` missed, a line each: how often, and what it answered."""
    lines = [f"missed by {system} (orders missed/run, what it answered):"]
    for question, missed, run, answered in misses(outcomes, system):
        said = ", ".join(f"{key} x{n}" for key, n in answered.most_common())
        lines.append(f"  {question}  {missed}/{run}  {said}")
    if len(lines) == 1:
        lines.append("  none")
    return "\n".join(lines)


def to_json(summaries: Sequence[Summary], **extra: object) -> str:
    return json.dumps({**extra, "systems": [s.to_dict() for s in summaries]}, indent=2)


_GROUP_COLUMNS = ("right", "outdated", "wrong", "out_of_scope_abstained")


def group_table(outcomes: Sequence[Outcome], systems: Sequence[str]) -> str:
    """One row per corpus (group) and system, and a pooled row: the per-corpus table."""
    groups = list(dict.fromkeys(o.group for o in outcomes))
    head = ["corpus".ljust(24), "system".ljust(15), "n".rjust(4)]
    head += [c.replace("out_of_scope_abstained", "oos abstained").ljust(20) for c in _GROUP_COLUMNS]
    lines = ["  ".join([*head, "tokens", "paraphrase"])]
    for group in [*groups, "pooled"]:
        for system in systems:
            mine = [o for o in outcomes if o.system == system and group in ("pooled", o.group)]
            if not mine:
                continue
            [summary] = summarise(mine)
            questions = len({(o.group, o.question) for o in mine})
            row = [group.ljust(24), system.ljust(15), str(questions).rjust(4)]
            row += [_cell(summary.rates[c]).ljust(20) for c in _GROUP_COLUMNS]
            rate, n = summary.by_kind.get("paraphrase", (0.0, 0))
            para = f"{100 * rate:5.1f}%" if n else "-"
            lines.append("  ".join([*row, f"{summary.median_tokens:6.0f}", para]))
    return "\n".join(lines)


def links_table(report: LinkReport) -> str:
    """Precision and recall of the believed links per corpus, and what was missed or wrong."""
    lines = [f"{'corpus'.ljust(24)}  true  believed  precision  recall"]
    for counts in [*report.corpora, report.pooled]:
        true = len(counts.found) + len(counts.missed)
        believed = len(counts.found) + len(counts.false)
        lines.append(
            f"{counts.corpus.ljust(24)}  {true:4d}  {believed:8d}  {counts.precision:9.2f}"
            f"  {counts.recall:6.2f}"
        )
    for counts in report.corpora:
        for link in counts.false:
            lines.append(
                f"  believed, not true: {link.old} -> {link.new} ({', '.join(link.rules)})"
            )
        for gone in counts.missed:
            lines.append(f"  missed: {gone.old} -> {gone.new} ({gone.kind}, {gone.where})")
    return "\n".join(lines)
