"""An evaluation as a table for people and as JSON for scripts."""

from __future__ import annotations

import json
from collections.abc import Sequence

from decisis.evaluation.run import Summary

__all__ = ["to_json", "to_table"]

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
    return "\n".join(lines)


def to_json(summaries: Sequence[Summary], **extra: object) -> str:
    return json.dumps({**extra, "systems": [s.to_dict() for s in summaries]}, indent=2)
