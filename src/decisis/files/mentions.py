"""Paths a record's text names that exist in its repository: what an ADR governs by its words.

Precise on purpose: a token counts only when it looks like a path (it has a ``/``, or is a
file name with an extension: ``src/auth/login.py``, ``docs/``, ``pyproject.toml``) and names a
file or folder git tracks. Tokens starting ``./`` or ``../`` are read from the record's own
folder (Markdown links), others from the root. What lies inside the ADR folder itself (other
records, its README) is left out: a record naming a record is a link, not a file it governs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from decisis.files.git import tracked_paths, work_tree_root

__all__ = ["Tree", "named_paths"]

# A run of path characters with a "/" in it, or a name with an extension.
_TOKEN = re.compile(r"(?<![\w@+~-])((?:\.{1,2}/)*[\w@+~-][\w.@+~-]*(?:/[\w.@+~-]+)*/?)")
_HAS_EXTENSION = re.compile(r"[\w-]\.[A-Za-z0-9]{1,10}$")


class Tree:
    """The tracked files and folders of one work tree, read once for many records."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.files, self.folders = tracked_paths(self.root)

    @classmethod
    def around(cls, start: Path) -> Tree | None:
        """The work tree holding ``start``, or ``None`` when it is in none."""
        root = work_tree_root(start)
        return cls(root) if root is not None else None

    def relative(self, path: Path) -> str | None:
        """``path`` relative to the root (``/`` between parts), or ``None`` if outside it."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None

    def has(self, path: str) -> bool:
        return path in self.files or path in self.folders


def _candidates(text: str) -> Iterable[str]:
    for m in _TOKEN.finditer(text):
        token = m.group(1).rstrip(".")
        if "/" in token or _HAS_EXTENSION.search(token):
            yield token


def named_paths(text: str, record: Path, tree: Tree, *, leave_out: Iterable[str] = ()) -> list[str]:
    """The tracked paths ``text`` names (relative to the root, in the order first named),
    without those under any of ``leave_out`` (root-relative folders, such as the ADR folder)."""
    here = tree.relative(record.parent) or ""
    skip = [p for p in leave_out if p is not None]
    out: list[str] = []
    for token in _candidates(text):
        local = token.startswith(("./", "../"))
        joined = PurePosixPath(here, token) if local else PurePosixPath(token)
        parts: list[str] = []
        for part in joined.parts:
            if part == "..":
                if not parts:
                    break
                parts.pop()
            elif part not in (".", "/"):
                parts.append(part)
        else:
            path = "/".join(parts)
            inside = any(path == s or path.startswith(s + "/") for s in skip if s)
            if path and tree.has(path) and not inside and path not in out:
                out.append(path)
    return out
