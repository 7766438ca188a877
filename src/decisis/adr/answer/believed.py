"""The replacements the walk believes: every (old, new) pair of records whose links together
reach the walk's threshold (stated or confirmed, or a noisy-OR of the rules' trusts), with no
link of the pair rejected, and the pairs a chain of such full replacements joins (``through``).
What ``decisis eval --links`` scores against a truth file."""

from __future__ import annotations

from dataclasses import dataclass

from decisis.adr.answer.settings import DEFAULT_SETTINGS
from decisis.adr.answer.walk import pair_belief, pair_partial
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
    via: str = ""  # the record between, for a pair a chain of full replacements joins


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
        partial = pair_partial(edges)
        out.append(BelievedLink(old, new, round(belief, 4), rules, partial))
    out += through(out, threshold)
    return sorted(out, key=lambda link: (-link.belief, link.old, link.new))


def through(links: list[BelievedLink], threshold: float) -> list[BelievedLink]:
    """The pairs that chains of full replacements among ``links`` join, believed as the
    product of the chain's beliefs when that reaches ``threshold``: a record that replaced
    in full one that replaced another in full replaced that one too (``021`` replaced
    ``012``, ``036`` replaced ``021``: the walk from ``012`` stands on ``036``). A partial
    replacement breaks the chain: the part it left still stands. Measured on the five
    development corpora (``decisis eval --suite bench/suite.toml``): one such chain of
    believed links (cloud-platform ``012 -> 021 -> 036``), and both chains of full true
    links there list the pair they join; no threshold of its own."""
    best: dict[tuple[str, str], BelievedLink] = {(b.old, b.new): b for b in links}
    full = [b for b in links if not b.partial]
    joined: dict[tuple[str, str], BelievedLink] = {}
    frontier = full
    while frontier:
        found = []
        for first in frontier:
            for second in full:
                pair = (first.old, second.new)
                if second.old != first.new or pair[0] == pair[1] or pair in best:
                    continue
                belief = round(first.belief * second.belief, 4)
                if belief + 1e-9 < threshold:
                    continue
                rules = tuple(sorted({*first.rules, *second.rules}))
                link = BelievedLink(*pair, belief, rules, False, via=first.new)
                best[pair] = joined[pair] = link
                found.append(link)
        frontier = found
    return list(joined.values())
