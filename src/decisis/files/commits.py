"""Decisions joined to commits: ``decisis add --commit`` and the post-commit hook's
``decisis link-commit``."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from decisis.files.affects import commits_of, with_commit
from decisis.files.git import commit_time, resolve_commit, work_tree_root
from decisis.model import Node, NodeStatus, NodeType

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = ["LATEST_WINDOW", "latest_unjoined", "link_commit"]

LATEST_WINDOW = 200  # the newest decisions looked at for one not joined to a commit yet
# Decisions nobody took while working: records read from ADR files, questions, agent runs.
_NOT_WORK = frozenset({"adr", "adr-question", "agent-run"})


def latest_unjoined(
    graph: Graph, *, agent: str | None, since: datetime | None = None
) -> Node | None:
    """The newest active decision (by ``agent``, when given) joined to no commit yet and
    recorded after ``since`` (the parent commit's time), or ``None``."""
    for node in graph.nodes(
        types=[NodeType.DECISION],
        statuses=[NodeStatus.ACTIVE],
        newest_first=True,
        limit=LATEST_WINDOW,
    ):
        if node.metadata.get("kind") in _NOT_WORK or commits_of(node.metadata):
            continue
        if agent is not None and node.agent != agent:
            continue
        if since is not None and node.recorded_at < since:
            return None  # older than the work this commit holds: leave it alone
        return node
    return None


def link_commit(
    graph: Graph, cwd: Path, ref: str = "HEAD", *, agent: str | None = None
) -> tuple[str, Node | None]:
    """Join the latest decision taken for the commit ``ref`` names to it: the newest one (by
    ``agent``) joined to no commit and recorded since the commit before it. Returns the
    commit's full id and the node joined, or ``None`` when no decision qualifies."""
    sha = resolve_commit(cwd, ref)
    root = work_tree_root(cwd) or cwd
    since = commit_time(root, f"{sha}^")  # None for a first commit: no lower bound
    node = latest_unjoined(graph, agent=agent, since=since)
    if node is None:
        return sha, None
    return sha, graph.update(node.id, metadata=with_commit(node.metadata, sha))
