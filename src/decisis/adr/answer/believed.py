"""The replacements the walk believes: every (old, new) pair of records whose links together
reach the walk's threshold (stated or confirmed, or a noisy-OR of the rules' trusts), with no
link of the pair rejected. What ``decisis eval --links`` scores against a truth file."""

from __future__ import annotations

from dataclasses import dataclass

from decisis.adr.answer.settings import DEFAULT_SETTINGS
from decisis.adr.answer.walk import pair_belief
from decisis.adr.link.view import view_of
from decisis.graph import Graph
from decisis.model import Edge

__all__ = ["BelievedLink", "believed_links"]


@dataclass(frozen=True, slots=True)
class BelievedLink:
    old: str
    new: str
    belief: float
    rules: tuple[str, ...]
    partial: bool


def believed_links(
    graph: Graph, threshold: float = DEFAULT_SETTINGS.walk_threshold
) -> list[BelievedLink]:
    """Every (old, new) pair of records the graph's links replace with at least
    ``threshold`` belief, strongest first."""
    view = view_of(graph)
    pairs: dict[tuple[str, str], list[Edge]] = {}
    for edge in view.links:
        old, new = view.key_of.get(edge.target), view.key_of.get(edge.source)
        if old is not None and new is not None:
            pairs.setdefault((old, new), []).append(edge)
    out = []
    for (old, new), edges in pairs.items():
        believed = pair_belief(edges, view.trust)
        if believed is None:
            continue
        belief = 1.0 if believed[1] else believed[0]
        if belief + 1e-9 < threshold:
            continue
        rules = tuple(sorted({str(e.metadata.get("rule")) for e in edges}))
        partial = any(bool(e.metadata.get("partial")) for e in edges)
        out.append(BelievedLink(old, new, round(belief, 4), rules, partial))
    return sorted(out, key=lambda link: (-link.belief, link.old, link.new))
