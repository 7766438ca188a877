"""``replaced-together``: two records that went together, replaced by two that go together.

"009 Use protobufs" builds on "008 Serialize form data" ("The background behind this
approach is described in ADR 008"); "023" says it overrides 008, "024" that it overrides
009, and 024 cites 023 ("no longer … as a blob (see ADR 023)"). Each newer record then takes
over part of the other older one too: the pair of decisions was replaced as a pair. The
links are partial: what each older record decided on its own is the other's to replace.
"""

from __future__ import annotations

from collections.abc import Iterator

from decisis.adr.link.rules.base import Proposal, RuleContext
from decisis.adr.link.rules.cited import stated_in_text, status_line
from decisis.model import LinkState

__all__ = ["replaced_together"]


def _cited(ctx: RuleContext) -> dict[str, set[str]]:
    """Each record's key -> the keys of the other records of its ingest it cites."""
    out: dict[str, set[str]] = {}
    for record in ctx.records:
        for link in record.links:
            if link.target_key and link.target_key != record.key and link.target_key in ctx.by_key:
                out.setdefault(record.key, set()).add(link.target_key)
    return out


def replaced_together(ctx: RuleContext) -> Iterator[Proposal]:
    """For stated full replacements ``a -> a2`` and ``b -> b2`` of four records where ``b``
    cites ``a`` and one of ``a2``, ``b2`` cites the other: ``b -> a2`` and ``a -> b2`` in
    part, each newer record written after the older one it takes from."""
    replaced_by: dict[str, set[str]] = {}
    for p in (*status_line(ctx), *stated_in_text(ctx)):
        if not p.partial and p.old in ctx.by_key and p.new in ctx.by_key and p.old != p.new:
            replaced_by.setdefault(p.old, set()).add(p.new)
    if len(replaced_by) < 2:
        return
    cited = _cited(ctx)
    citers: dict[str, set[str]] = {}
    for source, targets in cited.items():
        for target in targets:
            citers.setdefault(target, set()).add(source)

    def joined(x: str, y: str) -> bool:
        return y in cited.get(x, ()) or x in cited.get(y, ())

    for a in sorted(replaced_by):
        for b in sorted(citers.get(a, set()) & replaced_by.keys()):
            for a2 in sorted(replaced_by[a]):
                for b2 in sorted(replaced_by[b]):
                    if len({a, a2, b, b2}) < 4 or not joined(a2, b2):
                        continue
                    evidence = (
                        f"{b} builds on {a}; {a2} replaced {a} and {b2} replaced {b}, "
                        "and the two go together"
                    )
                    for old, new in ((b, a2), (a, b2)):
                        if new not in replaced_by.get(old, ()) and ctx.later(
                            ctx.by_key[old], ctx.by_key[new]
                        ):
                            yield Proposal(
                                old, new, "replaced-together", LinkState.CANDIDATE, evidence, True
                            )
