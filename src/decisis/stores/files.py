"""Whether a database file can be written: what the embedded backends ask before they
fall back to opening a file read-only (a read-only folder or medium, a full disk)."""

from __future__ import annotations

import os

__all__ = ["unwritable"]


def unwritable(path: str) -> str | None:
    """Why ``path`` (an existing database file) cannot be written, or ``None`` when it can
    as far as the file system says (then a failure to open is not fixed by reading only)."""
    if not os.path.isfile(path):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        stats = os.statvfs(folder)
    except OSError:
        return None
    if stats.f_flag & os.ST_RDONLY:
        return "its file system is mounted read-only"
    if not os.access(path, os.W_OK) or not os.access(folder, os.W_OK):
        return "the file or its folder cannot be written"
    if stats.f_bavail == 0:
        return "the disk is full"
    return None
