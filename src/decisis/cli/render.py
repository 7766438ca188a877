"""Rich output for people. Every piece of user text goes through ``Text``, never markup,
and through :func:`visible`, never raw: labels come from the web, MCP clients and ADR titles,
and a stored ``\\x1b[2J`` or ``\\x1b]0;title\\x07`` printed as it is would clear the
screen or retitle the window of whoever lists it.

Ids are printed short: each function takes ``short``, a mapping from full id to the
unique prefix ``Graph.short_ids`` gave it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from decisis.display import show_controls
from decisis.model import format_time
from decisis.model.ids import is_id

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from decisis.graph import GoalTree, Reached, SearchHit, Standing, VerifyReport
    from decisis.model import Edge, Event, Node, Provenance
    from decisis.plans import PlanCheck
    from decisis.search.precedents import Precedent
    from decisis.stale import Stale

__all__ = [
    "console",
    "print_change",
    "print_edge_change",
    "print_edges",
    "print_error",
    "print_events",
    "print_goal_trees",
    "print_hits",
    "print_message",
    "print_node",
    "print_nodes",
    "print_path",
    "print_plan_check",
    "print_provenance",
    "print_reached",
    "print_stale",
    "print_standing",
    "print_verify",
    "visible",
]

Short = Mapping[str, str]

TYPE_STYLES = {
    "goal": "bold magenta",
    "decision": "bold cyan",
    "option": "blue",
    "action": "green",
    "outcome": "yellow",
    "observation": "white",
    "revisit": "red",
}
STATUS_STYLES = {
    "active": "green",
    "completed": "blue",
    "superseded": "dim",
    "rejected": "red",
}


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with each control character shown as its escape (``\\x1b``, ``\\r``,
    ``\\u202e``): it cannot move the cursor, clear the screen, retitle the window or reorder
    the line, and the reader sees that something was there. A line break is shown as ``\\n``
    too (a label is one line, and one of two lines could pass for the next row of a table),
    or kept with ``lines``."""
    return show_controls(text, lines=lines)


def console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def _sid(short: Short, record_id: str) -> str:
    """An id's short form; anything else (``rule:names-replaced``) whole."""
    found = short.get(record_id)
    if found is not None:
        return visible(found)
    return record_id[:8] if is_id(record_id) else visible(record_id)


def _when(moment: datetime | None, length: int = 16) -> str:
    """``2026-11-01 12:00`` (the first ``length`` characters): from ``format_time``, not
    ``strftime``, which writes the year 503 as "503"."""
    return format_time(moment)[:length].replace("T", " ") if moment else ""


def _node_text(node: Node, short: Short, *, status: bool = True) -> Text:
    from rich.text import Text

    text = Text()
    text.append(_sid(short, node.id), style="bold yellow")
    text.append(" ")
    text.append(node.type.value, style=TYPE_STYLES.get(node.type.value, ""))
    text.append(": ")
    text.append(visible(node.label))
    if status:
        text.append(" (")
        text.append(node.status.value, style=STATUS_STYLES.get(node.status.value, ""))
        text.append(")")
    return text


def print_message(message: str, *, style: str = "") -> None:
    from rich.text import Text

    console().print(Text(visible(message, lines=True), style=style), soft_wrap=True)


def print_error(message: str) -> None:
    from rich.text import Text

    text = Text(visible(f"error: {message}", lines=True), style="bold red")
    console(stderr=True).print(text, soft_wrap=True)


def _node_table(title: str | None, *extra: str) -> Table:
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for name in ("id", "type", "label", "status", *extra):
        table.add_column(name, overflow="fold")
    return table


def _node_cells(node: Node, short: Short) -> list[Text | str]:
    from rich.text import Text

    return [
        Text(_sid(short, node.id), style="bold yellow"),
        Text(node.type.value, style=TYPE_STYLES.get(node.type.value, "")),
        Text(visible(node.label)),
        Text(node.status.value, style=STATUS_STYLES.get(node.status.value, "")),
    ]


def print_nodes(title: str, nodes: Sequence[Node], short: Short) -> None:
    """Nodes as a table: id, type, label, status, confidence, when recorded."""
    if not nodes:
        print_message(f"{title}: none", style="dim")
        return
    table = _node_table(title, "confidence", "recorded (UTC)")
    for node in nodes:
        confidence = "" if node.confidence is None else f"{node.confidence:g}"
        table.add_row(*_node_cells(node, short), confidence, _when(node.recorded_at))
    console().print(table)


def print_reached(title: str, reached: Sequence[Reached], short: Short) -> None:
    """Traversal results: each node with its depth and the hop that reached it."""
    if not reached:
        print_message(f"{title}: none", style="dim")
        return
    table = _node_table(title, "depth", "via")
    for item in reached:
        via = f"{item.edge_type.value} {_sid(short, item.via)}"
        table.add_row(*_node_cells(item.node, short), str(item.depth), via)
    console().print(table)


def print_hits(hits: Sequence[SearchHit], short: Short) -> None:
    if not hits:
        print_message("no matches", style="dim")
        return
    table = _node_table("matches", "score")
    for hit in hits:
        table.add_row(*_node_cells(hit.node, short), f"{hit.score:.3g}")
    console().print(table)


def print_precedents(found: Sequence[Precedent], short: Short) -> None:
    if not found:
        print_message("no decisions to compare with", style="dim")
        return
    table = _node_table("precedents", "score", "found by")
    for p in found:
        how = ", ".join(sorted(p.ranks))
        table.add_row(*_node_cells(p.node, short), f"{p.score:.3g}", how)
    console().print(table)


def print_path(nodes: Sequence[Node], short: Short) -> None:
    from rich.text import Text

    if not nodes:
        print_message("no path", style="dim")
        return
    line = Text()
    for index, node in enumerate(nodes):
        if index:
            line.append(" -> ", style="dim")
        line.append_text(_node_text(node, short, status=False))
    console().print(line, soft_wrap=True)


def _child_text(edge: Edge, node: Node, short: Short) -> Text:
    from rich.text import Text

    text = _node_text(node, short, status=False)
    if edge.type.value in {"chosen", "rejected"}:
        style = STATUS_STYLES["active" if edge.type.value == "chosen" else "rejected"]
        tag = Text(f"[{edge.type.value}] ", style=style)
    else:
        tag = Text(f"[{node.status.value}] ", style=STATUS_STYLES.get(node.status.value, ""))
    return tag + text


def print_goal_trees(trees: Sequence[GoalTree], short: Short) -> None:
    """Each active goal as a small tree of its immediate children."""
    from rich.tree import Tree

    if not trees:
        print_message("no active goals", style="dim")
        return
    out = console()
    for tree in trees:
        root = Tree(_node_text(tree.goal, short))
        for edge, child in tree.children:
            root.add(_child_text(edge, child, short))
        out.print(root)


def print_standing(standing: Standing, short: Short) -> None:
    """``A (superseded 2026-11-29) -> B (stands)``, one line per chain."""
    from rich.text import Text

    out = console()
    for chain in standing.chains:
        line = Text()
        for index, node in enumerate(chain):
            if index:
                line.append(" -> ", style="dim")
            line.append_text(_node_text(node, short, status=False))
            if index == len(chain) - 1:
                line.append(" (stands)", style="bold green")
            else:
                since = _when(node.valid_until, 10) or "?"
                line.append(f" (superseded {since})", style="dim")
        out.print(line, soft_wrap=True)
    if not standing.superseded:
        out.print(Text("never superseded", style="dim"))


def print_stale(title: str, found: Sequence[Stale], short: Short) -> None:
    """``01jc2k3m action: Write Jenkinsfile -leads_to- rests on 01jc2k2a … replaced by
    01jc2k4p …``, one line a dependent and premise; a line saying so when there is none."""
    from rich.text import Text

    out = console()
    if not found:
        out.print(Text("nothing rests on a replaced decision", style="dim"))
        return
    out.print(Text(title, style="bold"))
    for item in found:
        line = Text("- ")
        line.append_text(_node_text(item.node, short))
        line.append(f" rests on ({item.edge_type.value}) ", style="dim")
        line.append_text(_node_text(item.premise, short, status=False))
        line.append(", replaced by ", style="dim")
        for index, node in enumerate(item.standing):
            if index:
                line.append(" and ", style="dim")
            line.append_text(_node_text(node, short, status=False))
        out.print(line, soft_wrap=True)
    out.print(Text("re-affirm with `decisis reaffirm ID`, or supersede it", style="dim"))


def print_plan_check(check: PlanCheck) -> None:
    """Each step, and under it each finding's reason; a last line counting them."""
    from rich.text import Text

    out = console()
    for checked in check.steps:
        mark = ("! ", "bold red") if checked.findings else ("  ", "")
        line = Text(mark[0], style=mark[1])
        line.append(visible(f"{checked.step.number}. {checked.step.text}"))
        out.print(line, soft_wrap=True)
        for finding in checked.findings:
            out.print(Text(visible(f"     {finding.reason}"), style="yellow"), soft_wrap=True)
    flagged = sum(1 for s in check.steps if s.findings)
    if flagged:
        summary = f"{flagged} of {len(check.steps)} steps name what no longer stands"
    else:
        summary = f"nothing in {len(check.steps)} steps goes against what stands"
    out.print(Text(summary, style="bold" if flagged else "dim"))


def print_node(node: Node, short: Short) -> None:
    """One node's fields, one per line."""
    from rich.table import Table
    from rich.text import Text

    out = console()
    out.print(_node_text(node, short))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column(overflow="fold")
    rows = [
        ("id", node.id),
        ("confidence", "" if node.confidence is None else f"{node.confidence:g}"),
        ("rationale", node.rationale or ""),
        ("agent", node.agent or ""),
        ("valid", f"{_when(node.valid_from)} .. {_when(node.valid_until)}".rstrip(". ")),
        ("recorded", _when(node.recorded_at)),
        ("updated", _when(node.updated_at)),
        ("metadata", _compact(node.metadata) if node.metadata else ""),
        ("tombstoned", f"{_when(node.tombstoned_at)} {node.tombstone_reason or ''}".strip()),
    ]
    for name, value in rows:
        if value:
            grid.add_row(name, Text(visible(value, lines=True)))
    out.print(grid)


def _compact(data: object) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def print_edges(title: str, edges: Sequence[Edge], short: Short) -> None:
    from rich.table import Table
    from rich.text import Text

    if not edges:
        print_message(f"{title}: none", style="dim")
        return
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for name in ("id", "source", "type", "target", "state", "rationale"):
        table.add_column(name, overflow="fold")
    for edge in edges:
        table.add_row(
            Text(_sid(short, edge.id), style="yellow"),
            _sid(short, edge.source),
            Text(edge.type.value, style="bold"),
            _sid(short, edge.target),
            edge.state.value,
            Text(visible(edge.rationale or "")),
        )
    console().print(table)


def print_events(title: str, events: Sequence[Event], short: Short) -> None:
    """Ledger entries: seq, time, kind, entity and the start of the checksum."""
    from rich.table import Table
    from rich.text import Text

    if not events:
        print_message(f"{title}: none", style="dim")
        return
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for name in ("seq", "at (UTC)", "kind", "entity", "checksum", "tombstoned"):
        table.add_column(name, overflow="fold")
    for event in events:
        table.add_row(
            str(event.seq),
            _when(event.at, 19),
            event.kind.value,
            Text(_sid(short, event.entity), style="yellow"),
            event.checksum[:15],
            Text(visible(event.invalidated_reason or "")),
        )
    console().print(table)


def print_provenance(entries: Sequence[Provenance], short: Short) -> None:
    """Provenance entries, oldest first: when, what activity, which agent of which type in
    which role, from what source (and git blob and commit), how sure, how it ended."""
    from rich.table import Table
    from rich.text import Text

    if not entries:
        print_message("provenance: none", style="dim")
        return
    table = Table(title="provenance", title_justify="left", show_edge=False, pad_edge=False)
    for name in ("seq", "at (UTC)", "activity", "agent", "role", "source", "conf.", "outcome"):
        table.add_column(name, overflow="fold")
    for entry in entries:
        agent = entry.agent or ""
        if entry.agent_type is not None:
            agent = f"{agent} ({entry.agent_type.value})".strip()
        source = Text(visible(entry.source or ""))
        for name, git_id in (("blob", entry.source_blob), ("commit", entry.source_commit)):
            if git_id:
                source.append(f"\n{name} {git_id[:12]}", style="dim")
        outcome = entry.outcome or ""
        if entry.error:
            outcome = f"{outcome}: {entry.error}" if outcome else entry.error
        table.add_row(
            str(entry.seq),
            _when(entry.recorded_at, 19),
            Text(visible(entry.activity), style="bold"),
            Text(visible(agent)),
            Text(visible(entry.role or "")),
            source,
            "" if entry.confidence is None else f"{entry.confidence:.2f}",
            Text(visible(outcome)),
        )
    console().print(table)


def print_verify(report: VerifyReport) -> None:
    """The verdict of ``verify``: how many events were checked, or where it breaks."""
    from rich.text import Text

    out = console()
    checked = f"checked: {', '.join(report.checked)}" if report.checked else ""
    if report.ok:
        out.print(Text(f"ok: ledger intact, {report.events} events checked", style="green"))
        if checked:
            out.print(Text(checked, style="dim"))
        return
    where = (
        f"the ledger breaks at seq {report.first_bad_seq}"
        if report.first_bad_seq is not None
        else "the ledger's chain is whole, but"
    )
    count = len(report.problems)
    out.print(
        Text(
            f"FAILED: {where} ({count} problem{'s' if count != 1 else ''}, "
            f"{report.events} events read)",
            style="bold red",
        )
    )
    for problem in report.problems:
        out.print(Text(visible(f"  - {problem}"), style="red"))
    if checked:
        out.print(Text(checked, style="dim"))


def print_change(verb: str, node: Node, short: Short) -> None:
    """``added 01jc2k3m decision: Use JWT tokens (active)``."""
    from rich.text import Text

    line = Text(f"{verb} ", style="bold")
    line.append_text(_node_text(node, short))
    console().print(line, soft_wrap=True)


def print_edge_change(verb: str, edge: Edge, short: Short) -> None:
    """``linked 01jc2k3m -enables-> 01jc2k4p (edge 01jc2k5q)``."""
    from rich.text import Text

    line = Text(f"{verb} ", style="bold")
    line.append(_sid(short, edge.source), style="bold yellow")
    line.append(f" -{edge.type.value}-> ")
    line.append(_sid(short, edge.target), style="bold yellow")
    line.append(f" (edge {_sid(short, edge.id)})", style="dim")
    console().print(line, soft_wrap=True)
