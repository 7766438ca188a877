"""The few questions decisis asks git, each one ``git`` subprocess with a timeout.

Nothing here needs git to be installed until it is asked: outside a work tree, or with no
``git`` on the path, the lookups answer ``None`` (or an empty set) and the commands that need a
commit say so (``decisis add --commit``, ``decisis link-commit``).
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

from decisis.errors import InvalidInput

__all__ = [
    "GIT_TIMEOUT",
    "commit_time",
    "first_added",
    "git_output",
    "hooks_file",
    "resolve_commit",
    "tracked_paths",
    "work_tree_root",
]

GIT_TIMEOUT = 10.0  # seconds for one git call: a lookup, never a long job


def git_output(cwd: Path, *args: str) -> str | None:
    """The output of ``git ARGS`` run in ``cwd``, or ``None`` when git fails, is missing or
    takes longer than ``GIT_TIMEOUT``: the one way decisis asks git a question.

    Output is read as UTF-8 with undecodable bytes kept as surrogates (a path git lists with
    ``-z`` is raw bytes). What a git hook's environment sets (``GIT_DIR``,
    ``GIT_INDEX_FILE``…) would point the call at the repository running the hook, so only
    the dates and identity that callers set on purpose pass; the call takes no optional
    locks, never prompts and answers in the C locale."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _KEEP}
    env |= {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, timeout=GIT_TIMEOUT, env=env, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else None


_KEEP = frozenset({"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "GIT_CONFIG_NOSYSTEM"})


def work_tree_root(start: Path) -> Path | None:
    """The root of the git work tree holding ``start`` (a file or a folder), or ``None``.

    Found by looking upward for ``.git`` (a folder, or the file a linked work tree has), so
    it costs no subprocess: the editor hook asks it on every edit."""
    here = start if start.is_dir() else start.parent
    try:
        here = here.resolve()
    except OSError:
        return None
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def tracked_paths(root: Path) -> tuple[frozenset[str], frozenset[str]]:
    """The files git tracks under ``root``, and every folder that holds one (both relative
    to ``root``, ``/`` between parts); empty sets when git cannot say."""
    out = git_output(root, "ls-files", "-z", "--full-name")
    if out is None:
        return frozenset(), frozenset()
    files = frozenset(name for name in out.split("\0") if name)
    folders = set()
    for name in files:
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.add("/".join(parts[:i]))
    return files, frozenset(folders)


def resolve_commit(cwd: Path, ref: str = "HEAD") -> str:
    """The full id of the commit ``ref`` names in the work tree at ``cwd``; ``InvalidInput``
    outside a work tree or for a name that is no commit there."""
    root = work_tree_root(cwd)
    if root is None:
        raise InvalidInput(
            "commit",
            f"{cwd} is not inside a git work tree",
            "run inside a git work tree, or leave --commit out",
        )
    text = ref.strip()
    if not text or text.startswith("-"):
        raise InvalidInput(
            "commit", f"{ref!r} is not a commit name", "a commit id, HEAD or a branch"
        )
    out = git_output(
        root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{text}^{{commit}}"
    )
    if not out or not out.strip():
        raise InvalidInput(
            "commit", f"{text!r} is not a commit of {root}", "a commit id, HEAD or a branch there"
        )
    return out.strip()


def commit_time(root: Path, ref: str) -> dt.datetime | None:
    """When ``ref`` was committed (committer date), or ``None`` if it names no commit."""
    out = git_output(root, "log", "-1", "--format=%cI", "--end-of-options", ref, "--")
    return dt.datetime.fromisoformat(out.strip()) if out and out.strip() else None


def first_added(file: Path) -> dt.datetime | None:
    """When ``file`` was first added to its repository (the author date of the earliest commit
    adding it, followed through renames), or ``None`` when it is not committed."""
    root = work_tree_root(file)
    if root is None:
        return None
    out = git_output(
        root, "log", "--diff-filter=A", "--follow", "--format=%aI", "--", str(file.resolve())
    )
    lines = [line for line in (out or "").splitlines() if line.strip()]
    return dt.datetime.fromisoformat(lines[-1].strip()) if lines else None


def hooks_file(root: Path, name: str) -> Path | None:
    """Where git runs the hook ``name`` for the work tree at ``root`` (``core.hooksPath`` and
    linked work trees honoured), or ``None`` when git cannot say."""
    out = git_output(root, "rev-parse", "--git-path", f"hooks/{name}")
    if not out or not out.strip():
        return None
    path = Path(out.strip())
    return path if path.is_absolute() else root / path
