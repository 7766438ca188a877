"""Which standing decisions govern a file: ``Graph.decisions_for`` and ``decisis explain``.

A node governs the paths its ``affects`` patterns match (``decisis.files.patterns``). What an
answer lists is what stands now: a node that was replaced gives way to what replaced it
(``Graph.current``, the walk every answer uses), which is listed with the pattern the old one
named and the chain it replaced; a replaced node with no believed replacement, and a rejected
one, govern nothing, nor does one whose validity ended (``valid_until``). Decisions come
nearest first: the most specific pattern, then the newest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decisis.errors import InvalidInput
from decisis.files.affects import affects_of
from decisis.files.git import work_tree_root
from decisis.files.patterns import governs, normalise_path, reaches_into, specificity
from decisis.model import EdgeType, Node, NodeStatus, utc_now

if TYPE_CHECKING:
    from decisis.graph import Graph, Standing

__all__ = [
    "MAX_PATHS",
    "MAX_PATH_CHARS",
    "Governing",
    "PathDecisions",
    "decisions_for",
    "repo_path",
]

MAX_PATHS = 100  # paths one question may ask about
MAX_PATH_CHARS = 4096  # PATH_MAX on Linux
_NOT_STANDING = (NodeStatus.SUPERSEDED, NodeStatus.REJECTED)


@dataclass(frozen=True, slots=True)
class Governing:
    """A standing node that governs a path: by which pattern, named by which node (itself, or
    one it replaced), and what it replaced."""

    node: Node
    pattern: str
    named_by: Node
    replaced: list[Node] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.node.id,
            "type": self.node.type.value,
            "label": self.node.label,
            "status": self.node.status.value,
            "rationale": self.node.rationale,
            "pattern": self.pattern,
            "named_by": self.named_by.id,
            "replaced": [{"id": n.id, "label": n.label} for n in self.replaced],
        }


@dataclass(frozen=True, slots=True)
class PathDecisions:
    """The standing decisions on one path, nearest first."""

    path: str
    decisions: list[Governing]

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "decisions": [d.to_dict() for d in self.decisions]}


def repo_path(path: str, *, cwd: Path | None = None) -> str:
    """``path`` as patterns read it: relative to the root of its git work tree.

    An absolute path (what an editor hands a hook) is made relative to the work tree it is in;
    a relative one is read from ``cwd`` when that is given (a command line), else taken as
    relative to the root already. A path in no work tree is read from ``cwd`` or kept."""
    if not isinstance(path, str) or not path.strip():
        raise InvalidInput("paths", f"{path!r:.80} is not a path", "a file or folder path")
    if len(path) > MAX_PATH_CHARS or "\0" in path:
        raise InvalidInput(
            "paths", f"a path of {len(path)} characters", f"at most {MAX_PATH_CHARS}, no NUL"
        )
    given = Path(path.strip())
    if not given.is_absolute():
        if cwd is None:
            return normalise_path(path)
        given = cwd / given
    root = work_tree_root(given) or cwd
    try:
        return normalise_path(given.resolve().relative_to((root or Path("/")).resolve()).as_posix())
    except ValueError:
        return normalise_path(given.as_posix())


def _check_paths(paths: Sequence[str]) -> list[tuple[str, bool]]:
    """Each path as patterns read it, and whether it names a folder (a trailing ``/``, or an
    absolute path to a directory)."""
    if isinstance(paths, str) or not isinstance(paths, Sequence):
        raise InvalidInput("paths", f"expected a list of paths, got {type(paths).__name__}")
    if not paths or len(paths) > MAX_PATHS:
        raise InvalidInput("paths", f"{len(paths)} paths", f"1 to {MAX_PATHS} paths")
    return [(repo_path(p), _names_folder(p)) for p in paths]


def _names_folder(path: str) -> bool:
    text = path.strip().replace("\\", "/")
    if text.endswith("/") or text == ".":
        return True
    return Path(text).is_absolute() and Path(text).is_dir()


def _shown(path: str, folder: bool) -> str:
    return f"{path}/" if folder and path else ("./" if folder else path)


def _ended(node: Node, now: datetime) -> bool:
    """Whether the node stopped holding of itself (``valid_until`` passed): it governs nothing.
    A replaced node's validity ends with the replacement, which stands for it instead."""
    ended = node.valid_until is not None and node.valid_until <= now
    return ended and node.status is not NodeStatus.SUPERSEDED


class _Walker:
    """``Graph.current`` and the replaced nodes of a standing one, each asked once."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._current: dict[str, Standing] = {}
        self._replaced: dict[str, list[Node]] = {}

    def current(self, node: Node) -> Standing:
        if node.id not in self._current:
            self._current[node.id] = self.graph.current(node.id)
        return self._current[node.id]

    def replaced(self, node: Node) -> list[Node]:
        """The nodes ``node`` replaced, as the walk believes (it stands for them now)."""
        if node.id not in self._replaced:
            out = []
            edges = self.graph.edges(node.id, direction="out", types=[EdgeType.SUPERSEDES])
            for edge in edges:
                old = self.graph.get(edge.target)
                if any(n.id == node.id for n in self.current(old).standing):
                    out.append(old)
            self._replaced[node.id] = out
        return self._replaced[node.id]


def decisions_for(graph: Graph, paths: Sequence[str]) -> list[PathDecisions]:
    """The standing decisions governing each path, nearest first (see the module)."""
    wanted = _check_paths(paths)
    moment = graph.as_of or utc_now()
    claims = [
        (node, p)
        for node in graph.nodes()
        if not _ended(node, moment)
        for p in affects_of(node.metadata)
    ]
    walker = _Walker(graph)
    out = []
    for path, folder in wanted:
        found: dict[str, tuple[tuple[int, int], Governing]] = {}
        for node, pattern in claims:
            if node.status is NodeStatus.REJECTED:
                continue
            if not (governs(pattern, path) or (folder and reaches_into(pattern, path))):
                continue
            standing = walker.current(node)
            if not standing.superseded and node.status is NodeStatus.SUPERSEDED:
                continue  # retired with nothing believed to stand for it
            for now, chain in zip(standing.standing, standing.chains, strict=True):
                if now.status in _NOT_STANDING:
                    continue
                rank = specificity(pattern)
                replaced = [*chain[:-1], *walker.replaced(now)]
                seen = found.get(now.id)
                if seen is not None:
                    replaced = [*seen[1].replaced, *replaced]
                    if seen[0] >= rank:
                        rank, pattern_, by = seen[0], seen[1].pattern, seen[1].named_by
                    else:
                        pattern_, by = pattern, node
                else:
                    pattern_, by = pattern, node
                unique = list({n.id: n for n in replaced}.values())
                found[now.id] = (rank, Governing(now, pattern_, by, unique))
        ordered = sorted(
            found.values(), key=lambda item: (item[0], item[1].node.recorded_at), reverse=True
        )
        out.append(PathDecisions(_shown(path, folder), [g for _, g in ordered]))
    return out
