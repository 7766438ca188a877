"""Path patterns a decision governs: gitignore-like globs over paths relative to the repository.

Rules (also in docs/files.md):

- Paths are relative to the root of the work tree, with ``/`` between parts.
- A pattern with a ``/`` in it (other than at its end) is anchored at the root:
  ``src/auth/*.py``; one without is a name matched at any depth: ``*.sql``, ``Makefile``.
  A leading ``/`` anchors a name too (``/Makefile``: only the one at the root).
- ``*`` matches within one part, ``?`` one character, ``[abc]`` one of a set; ``**`` as a whole
  part matches any number of parts (none included): ``src/**/test_*.py``.
- A pattern that names a directory governs everything under it: ``src/auth`` and ``src/auth/``
  govern ``src/auth/login.py``, as ``src/auth/**`` does.
- ``.`` parts are dropped; ``..`` parts, empty patterns and control characters are refused.

Specificity orders the decisions on a file, nearest first: a literal part counts 2, a part
with a wildcard 1, ``**`` nothing; ties go to the pattern with more literal characters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from decisis.errors import InvalidInput

__all__ = [
    "MAX_PATTERNS",
    "MAX_PATTERN_CHARS",
    "check_patterns",
    "governs",
    "normalise_path",
    "normalise_pattern",
    "reaches_into",
    "specificity",
]

MAX_PATTERN_CHARS = 500
MAX_PATTERNS = 100  # patterns on one node
ALLOWED = "a path relative to the repository root or a glob such as 'src/auth/**' or '*.sql'"
_WILD = re.compile(r"[*?\[]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def normalise_pattern(pattern: object, field: str = "affects") -> str:
    """``pattern`` in its stored form, or ``InvalidInput`` naming what is wrong with it."""
    if not isinstance(pattern, str):
        raise InvalidInput(field, f"{pattern!r} is not text", ALLOWED)
    text = pattern.strip().replace("\\", "/")
    if not text:
        raise InvalidInput(field, "is an empty pattern", ALLOWED)
    if len(text) > MAX_PATTERN_CHARS:
        raise InvalidInput(
            field, f"a pattern of {len(text)} characters", f"at most {MAX_PATTERN_CHARS}"
        )
    if _CONTROL.search(text):
        raise InvalidInput(field, f"{text!r} holds a control character", ALLOWED)
    anchored = text.startswith("/")
    # Blanks around a part are a typing slip, not a name ("src/ auth" is src/auth).
    parts = [p.strip() for p in text.split("/")]
    parts = [p for p in parts if p not in ("", ".")]
    if ".." in parts:
        raise InvalidInput(field, f"{text!r} leaves the repository ('..')", ALLOWED)
    if not parts:
        raise InvalidInput(field, f"{text!r} names no path", ALLOWED)
    joined = "/".join(parts)
    stored = "/" + joined if anchored and len(parts) == 1 else joined
    try:
        _compiled(stored)
    except re.error as exc:  # a set such as [z-a]
        raise InvalidInput(field, f"{text!r} is not a glob ({exc.msg})", ALLOWED) from None
    return stored


def check_patterns(patterns: Iterable[object], field: str = "affects") -> list[str]:
    """Each pattern normalised, duplicates dropped, order kept; at most ``MAX_PATTERNS``."""
    out: list[str] = []
    for pattern in patterns:
        normal = normalise_pattern(pattern, field)
        if normal not in out:
            out.append(normal)
    if len(out) > MAX_PATTERNS:
        raise InvalidInput(field, f"{len(out)} patterns", f"at most {MAX_PATTERNS} a node")
    return out


def normalise_path(path: str) -> str:
    """A repository path as patterns see it: ``/`` between parts, no ``.`` parts, no leading
    ``./`` or ``/``."""
    parts = [p for p in path.strip().replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts)


def _part(part: str) -> str:
    """One part of a pattern as a regular expression (``*``, ``?`` and ``[...]`` stay in it)."""
    out, i = [], 0
    while i < len(part):
        char = part[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = part.find("]", i + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = part[i + 1 : end]
                negated = body[:1] in ("!", "^")
                # every character literal but the ranges' dashes: no nested sets, no escapes
                chars = "".join(c if c == "-" else re.escape(c) for c in body[negated:])
                if not chars:  # "[!]": no set, the characters as they are
                    out.append(re.escape(char))
                    i += 1
                    continue
                out.append(("[^" if negated else "[") + chars + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str]:
    anchored = pattern.startswith("/") or "/" in pattern
    parts = pattern.lstrip("/").split("/")
    body = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            body.append(".*" if last else "(?:[^/]+/)*")
        else:
            body.append(_part(part) + ("" if last else "/"))
    head = "" if anchored else "(?:.*/)?"
    return re.compile(head + "".join(body) + "(?:/.*)?", re.DOTALL)


def governs(pattern: str, path: str) -> bool:
    """Whether ``pattern`` (stored form) governs the repository path ``path``: it names the
    path, or a directory the path is under."""
    try:
        compiled = _compiled(pattern)
    except re.error:  # metadata written by hand, never checked: it governs nothing
        return False
    return compiled.fullmatch(normalise_path(path)) is not None


def reaches_into(pattern: str, folder: str) -> bool:
    """Whether ``pattern`` (stored form) governs something inside the repository folder
    ``folder`` ("" is the root): ``src/auth/login.py`` and ``src/**/test_*.py`` reach into
    ``src``, ``docs/*.md`` does not. Read part by part for anchored patterns only: a name
    pattern (``*.sql``) governs a name at any depth, so it reaches into every folder and says
    nothing about this one."""
    if not ("/" in pattern or pattern.startswith("/")):
        return False
    parts = pattern.lstrip("/").split("/")
    inside = [p for p in normalise_path(folder).split("/") if p]
    for depth, name in enumerate(inside):
        if depth == len(parts):
            return True  # the pattern names a folder above: it governs all of this one
        if parts[depth] == "**":
            return True
        try:
            if re.fullmatch(_part(parts[depth]), name, re.DOTALL) is None:
                return False
        except re.error:  # metadata written by hand, never checked: it governs nothing
            return False
    return True


def specificity(pattern: str) -> tuple[int, int]:
    """How near a pattern is to the files it governs: higher is nearer (see the module)."""
    parts = pattern.lstrip("/").split("/")
    score = sum(0 if p == "**" else 1 if _WILD.search(p) else 2 for p in parts)
    literal = len(_WILD.sub("", pattern.replace("**", "")))
    return score, literal
