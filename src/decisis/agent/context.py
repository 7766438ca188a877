"""The decision context for a system prompt: active goals as small trees, the recent
decisions agents and people recorded, the work that rests on a replaced decision (until
re-affirmed or superseded), then one line on the team's ingested ADR records.

It is bounded in tokens, and when it must leave something out it says how much
("+12 older decisions not shown"), so an absence never reads as "nothing there".
The ADR records are not listed (a team has hundreds): the line says how many there are
and how to ask them. ``None`` when the graph holds nothing worth saying. Example::

    ## Decision memory
    ### Active goals
    - `0193a1b2` Ship auth (active, confidence 0.9)
      - `0193a1c4` Use JWT tokens (active)
    ### Recent decisions
    - `0193a1c4` Use JWT tokens (active)
    ### Resting on replaced decisions
    - `0193a1d0` Write the token refresh job rests on `0193a1c4` Use JWT tokens, replaced by
      `0193a1e2` Use server sessions: re-affirm it or supersede it
    ### Decision records
    - 132 records ingested from ADR files, 104 standing: ask `current_decision`
"""

from __future__ import annotations

from dataclasses import dataclass

from decisis.adr import count_tokens
from decisis.agent.handlers import RUN_KIND, agent_decisions, ingested_records, short_ids
from decisis.graph import GoalTree, Graph
from decisis.model import EdgeType, Node, NodeStatus
from decisis.stale import Stale

__all__ = ["DEFAULT_MAX_TOKENS", "RUN_KIND", "build_context"]

DEFAULT_MAX_TOKENS = 800
_MAX_CHILDREN = 8
_NOTE_RESERVE = 24  # tokens kept for the "+N not shown" lines


def _status(node: Node) -> str:
    conf = f", confidence {node.confidence:g}" if node.confidence is not None else ""
    return f"({node.status.value}{conf})"


def _goal_lines(tree: GoalTree, short: dict[str, str]) -> list[str]:
    goal = tree.goal
    lines = [f"- `{short[goal.id]}` {goal.label} {_status(goal)}"]
    for edge, child in tree.children[:_MAX_CHILDREN]:
        if edge.type in (EdgeType.CHOSEN, EdgeType.REJECTED):
            how = f"[{edge.type.value}]"
        else:
            how = f"({child.status.value})"
        lines.append(f"  - `{short[child.id]}` {child.label} {how}")
    hidden = len(tree.children) - _MAX_CHILDREN
    if hidden > 0:
        lines.append(f"  - +{hidden} more not shown")
    return lines


@dataclass
class _Budget:
    """Lines added while they fit in ``left`` tokens."""

    left: int

    def fits(self, lines: list[str]) -> bool:
        cost = count_tokens("\n".join(lines)) + 1
        if cost > self.left:
            return False
        self.left -= cost
        return True


def _stale_line(item: Stale, short: dict[str, str]) -> str:
    now = " and ".join(f"`{short[n.id]}` {n.label}" for n in item.standing)
    return (
        f"- `{short[item.node.id]}` {item.node.label} rests on `{short[item.premise.id]}` "
        f"{item.premise.label}, replaced by {now}: re-affirm it or supersede it"
    )


def _stale_lines(found: list[Stale], short: dict[str, str], budget: _Budget) -> list[str]:
    lines = ["### Resting on replaced decisions"]
    shown = 0
    for item in found:
        line = _stale_line(item, short)
        if not budget.fits([line]):
            break
        lines.append(line)
        shown += 1
    if shown < len(found):
        lines.append(f"+{len(found) - shown} more resting on replaced decisions not shown")
    return lines


def build_context(
    graph: Graph, *, decision_limit: int = 5, max_tokens: int = DEFAULT_MAX_TOKENS
) -> str | None:
    """Markdown for a system prompt, or ``None`` when there are no goals or decisions."""
    trees = graph.goal_trees()
    recent, total = agent_decisions(graph, decision_limit)
    records = ingested_records(graph)
    stale = graph.stale()
    if not trees and not recent and not records and not stale:
        return None
    ids = (
        [t.goal.id for t in trees]
        + [c.id for t in trees for _, c in t.children]
        + [n.id for n in recent]
        + [n.id for item in stale for n in (item.node, item.premise, *item.standing)]
    )
    short = short_ids(graph, ids)
    headers = (
        "## Decision memory\n### Active goals\n### Recent decisions\n### Decision records\n"
        "### Resting on replaced decisions\n"
        "- 10000 records ingested from ADR files, 10000 standing: ask `current_decision`\n"
    )
    budget = _Budget(max_tokens - count_tokens(headers) - _NOTE_RESERVE)
    lines = ["## Decision memory"]
    if trees:
        lines.append("### Active goals")
        shown = 0
        for tree in trees:
            block = _goal_lines(tree, short)
            if not budget.fits(block):
                break
            lines += block
            shown += 1
        if shown < len(trees):
            lines.append(f"+{len(trees) - shown} more active goals not shown")
    if recent:
        lines.append("### Recent decisions")
        shown = 0
        for node in recent:
            line = f"- `{short[node.id]}` {node.label} {_status(node)}"
            if not budget.fits([line]):
                break
            lines.append(line)
            shown += 1
        if shown < total:
            lines.append(f"+{total - shown} older decisions not shown")
    if stale:
        lines += _stale_lines(stale, short, budget)
    if records:
        standing = sum(1 for n in records if n.status is NodeStatus.ACTIVE)
        lines += [
            "### Decision records",
            f"- {len(records)} records ingested from ADR files, {standing} standing: "
            "ask `current_decision`",
        ]
    return "\n".join(lines)
