"""Where a record was read from: its file, and inside a git work tree its blob and commit.

A provenance entry of an ingested record names the file it came from (``source``). When
the file sits in a git work tree it also names ``source_blob``, the git object id of the
bytes read (computed as git does: the hash of ``blob <length>\\0`` and the bytes, SHA-1 or,
in a SHA-256 repository, SHA-256), and ``source_commit``, the commit checked out (``HEAD``)
when its tree holds that very blob at the file's path. A file changed since that commit,
or never committed, has a blob but no commit: nothing vouches that any commit held it.
Outside a work tree, or when git is missing or slow, both are absent.

git runs as a subprocess with a timeout: one ``rev-parse`` per folder, and per repository
one ``rev-parse HEAD`` and one ``ls-tree`` of the folders read. Only records about to be
written are looked up, so re-ingesting an unchanged folder starts no git at all.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from decisis.adr.read.records import AdrRecord
from decisis.files.git import git_output

__all__ = ["Source", "git_blob_id", "record_sources"]


@dataclass(frozen=True, slots=True)
class Source:
    """The document a record was read from, with its git ids when there are ones."""

    path: str
    blob: str | None = None
    commit: str | None = None


def git_blob_id(data: bytes, algorithm: str = "sha1") -> str:
    """The id git gives a blob of ``data`` (``git hash-object``)."""
    digest = hashlib.new(algorithm)
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


@dataclass
class _Repository:
    """One work tree: its root, the commit checked out, and the blob ids ``HEAD`` holds."""

    root: Path
    head: str | None
    blobs: dict[str, str]


def _top_level(folder: Path) -> Path | None:
    out = git_output(folder, "rev-parse", "--show-toplevel")
    return Path(os.path.realpath(out.strip())) if out and out.strip() else None


def _repository(root: Path, folders: Iterable[Path]) -> _Repository:
    head = git_output(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    commit = head.strip() if head else None
    blobs: dict[str, str] = {}
    if commit:
        paths = sorted({os.path.relpath(f, root) for f in folders})
        listing = git_output(root, "ls-tree", "-r", "-z", "--full-tree", "HEAD", "--", *paths)
        for entry in (listing or "").split("\0"):
            meta, _, name = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                blobs[name] = parts[2]
    return _Repository(root, commit, blobs)


def record_sources(records: Iterable[AdrRecord]) -> dict[str, Source]:
    """Each record's source by key: its path, and its git ids where it has them."""
    chosen = list(records)
    roots: dict[Path, Path | None] = {}
    for record in chosen:
        folder = Path(os.path.realpath(record.path)).parent
        if folder not in roots:
            roots[folder] = _top_level(folder)
    by_root: dict[Path, list[Path]] = {}
    for folder, root in roots.items():
        if root is not None:
            by_root.setdefault(root, []).append(folder)
    repositories = {root: _repository(root, folders) for root, folders in by_root.items()}
    return {record.key: _source(record, roots, repositories) for record in chosen}


def _source(
    record: AdrRecord, roots: dict[Path, Path | None], repositories: dict[Path, _Repository]
) -> Source:
    real = Path(os.path.realpath(record.path))
    root = roots.get(real.parent)
    if root is None:
        return Source(str(record.path))
    try:
        data = real.read_bytes()
    except OSError:
        return Source(str(record.path))
    if "sha256:" + hashlib.sha256(data).hexdigest() != record.content_hash:
        return Source(str(record.path))  # changed since it was read: no id vouches for it
    repository = repositories[root]
    algorithm = "sha256" if repository.head is not None and len(repository.head) == 64 else "sha1"
    blob = git_blob_id(data, algorithm)
    in_head = repository.blobs.get(real.relative_to(root).as_posix()) == blob
    return Source(str(record.path), blob, repository.head if in_head else None)
