"""Checkpoints witnessed by git: each one a commit on ``refs/decisis/checkpoints``.

The repository the store sits in (the folder of a SQLite or DuckDB file; the working
directory for a server or memory store) gets one commit per checkpoint on a ref of its
own, outside every branch: its tree holds ``<graph>.json``, the latest checkpoint of each
graph, and its parent is the commit before. Pushed with the rest (``git push origin
'refs/decisis/*:refs/decisis/*'``), the team's clones hold copies of every checkpoint that
whoever writes the database cannot take back. Only git's plumbing is used (``hash-object``,
``mktree``, ``commit-tree``, ``update-ref`` with the old value, so two writers cannot lose
each other's commit); the work tree, the index and HEAD are never touched.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from decisis.errors import Conflict, InvalidInput, StoreError

__all__ = ["REF", "require_repository", "store_folder", "witness"]

REF = "refs/decisis/checkpoints"
_IDENTITY = {"name": "decisis", "email": "decisis@localhost"}


def store_folder(store: object) -> Path:
    """Where a store sits: its file's folder, or the working directory."""
    path = getattr(store, "path", None)
    if isinstance(path, str) and path and path != ":memory:":
        return Path(path).resolve().parent
    return Path.cwd()


def _git(
    folder: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=env,
        )
    except FileNotFoundError:
        raise InvalidInput("git", "git is not installed", "a machine with git") from None
    if done.returncode != 0:
        raise _Failed(done.stderr.strip() or f"git {args[0]} exited {done.returncode}")
    return done.stdout.strip()


class _Failed(Exception):
    pass


def _identity_env(folder: Path) -> dict[str, str]:
    """The user's git identity where one is set, ``decisis`` where none is."""
    env = dict(os.environ)
    for part in ("name", "email"):
        try:
            _git(folder, "config", f"user.{part}")
        except _Failed:
            for role in ("AUTHOR", "COMMITTER"):
                env.setdefault(f"GIT_{role}_{part.upper()}", _IDENTITY[part])
    return env


def require_repository(folder: Path) -> None:
    """``InvalidInput`` unless ``folder`` is inside a git repository."""
    try:
        _git(folder, "rev-parse", "--git-dir")
    except _Failed:
        raise InvalidInput(
            "git", f"{folder} is not inside a git repository", "a store inside a git work tree"
        ) from None


def witness(checkpoint: dict[str, Any], folder: Path) -> str:
    """Commit ``checkpoint`` on ``REF`` of the repository around ``folder``; the commit id."""
    require_repository(folder)
    graph = str(checkpoint["graph"])
    if "/" in graph or graph.startswith(".") or "\n" in graph or "\t" in graph:
        raise InvalidInput("graph", f"{graph!r} cannot name a file in git", "a plain graph name")
    try:
        parent = _git(folder, "rev-parse", "--verify", "--quiet", f"{REF}^{{commit}}")
    except _Failed:
        parent = ""
    try:
        entries = _git(folder, "ls-tree", parent).splitlines() if parent else []
        blob = _git(
            folder, "hash-object", "-w", "--stdin", stdin=json.dumps(checkpoint, indent=2) + "\n"
        )
        name = f"{graph}.json"
        kept = [line for line in entries if line.split("\t", 1)[-1] != name]
        tree = _git(
            folder, "mktree", stdin="\n".join([*kept, f"100644 blob {blob}\t{name}"]) + "\n"
        )
        message = (
            f"checkpoint of graph {graph}: {checkpoint['size']} entries\n\n"
            f"root {checkpoint['root']}\nhead {checkpoint['head']}\n"
            f"time {checkpoint['time']}\nkey {checkpoint['key_id']}\n"
        )
        args = ["commit-tree", tree, *(["-p", parent] if parent else []), "-m", message]
        commit = _git(folder, *args, env=_identity_env(folder))
    except _Failed as exc:
        raise StoreError(f"cannot write the checkpoint to git in {folder}: {exc}") from None
    try:
        _git(folder, "update-ref", "-m", "decisis checkpoint", REF, commit, parent)
    except _Failed as exc:
        raise Conflict(f"{REF} moved while the checkpoint was written; sign again: {exc}") from None
    return commit
