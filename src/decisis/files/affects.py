"""What a node governs, as its metadata keeps it: ``affects`` (patterns) and ``commits``.

Both live in the node's metadata, so they go through the ledger like any field and need no
table of their own: ``{"affects": ["src/auth/**"], "commits": ["3f2a…"]}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from decisis.files.patterns import check_patterns

__all__ = [
    "AFFECTS_KEY",
    "COMMITS_KEY",
    "DATE_SOURCE_KEY",
    "affects_of",
    "commits_of",
    "module_path",
    "with_affects",
    "with_commit",
]

AFFECTS_KEY = "affects"
COMMITS_KEY = "commits"
DATE_SOURCE_KEY = "date_source"
_MODULE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_SOURCE_ROOTS = ("", "src/", "lib/")


def affects_of(metadata: dict[str, Any]) -> list[str]:
    """The patterns a node's metadata says it governs (text items of ``affects`` only)."""
    value = metadata.get(AFFECTS_KEY)
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str) and item.strip()]


def commits_of(metadata: dict[str, Any]) -> list[str]:
    value = metadata.get(COMMITS_KEY)
    return [c for c in value if isinstance(c, str)] if isinstance(value, list) else []


def module_path(name: str, root: Path | None) -> str:
    """A dotted module name (``decisis.adr``) as the path it lives at in ``root`` —
    ``decisis/adr``, ``src/decisis/adr`` (a package) or ``….py`` (a module), whichever exists
    first — and anything else, or a name with no such path, as it was.

    A name that is itself a path there (``setup.py``) stays a path."""
    if root is None or not _MODULE.fullmatch(name) or (root / name).exists():
        return name
    dotted = name.replace(".", "/")
    for base in _SOURCE_ROOTS:
        for candidate in (f"{base}{dotted}", f"{base}{dotted}.py"):
            if (root / candidate).exists():
                return candidate
    return name


def _from_root(pattern: str, root: Path | None) -> str:
    """An absolute path inside the work tree as a path from its root; patterns are relative
    to the root, so one outside it is refused."""
    text = pattern.strip()
    if not text.startswith("/") or "/" not in text[1:] or root is None:
        return text
    try:
        return Path(text).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        from decisis.errors import InvalidInput

        raise InvalidInput(
            AFFECTS_KEY, f"{text!r} is outside the work tree {root}", "a path inside it"
        ) from None


def with_affects(
    metadata: dict[str, Any] | None, patterns: Sequence[str], root: Path | None = None
) -> dict[str, Any]:
    """``metadata`` with ``patterns`` added to its ``affects`` (checked, module names resolved
    against ``root``, duplicates dropped)."""
    out = dict(metadata or {})
    given = [module_path(_from_root(p, root), root) for p in patterns]
    merged = check_patterns([*_listed(out.get(AFFECTS_KEY)), *given])
    if merged:
        out[AFFECTS_KEY] = merged
    return out


def with_commit(metadata: dict[str, Any] | None, commit: str) -> dict[str, Any]:
    """``metadata`` with ``commit`` joined to its ``commits`` (once)."""
    out = dict(metadata or {})
    commits = commits_of(out)
    out[COMMITS_KEY] = commits if commit in commits else [*commits, commit]
    return out


def _listed(value: object) -> Iterable[object]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
