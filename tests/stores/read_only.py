"""A database file in a folder the tests' process cannot write, as a user meets one."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["read_only_copy"]


@contextmanager
def read_only_copy(source: Path, tmp_path: Path) -> Iterator[Path]:
    """``source`` copied into a folder this process cannot write: a tmpfs mounted read-only
    when running as root (root ignores permission bits), else a folder without write bits.
    The copy has no ``-wal``/``-shm`` beside it, as a file checkpointed and closed."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)], check=True)
        try:
            shutil.copy(source, folder / source.name)
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            yield folder / source.name
        finally:
            subprocess.run(["umount", str(folder)], check=True)
    else:
        shutil.copy(source, folder / source.name)
        folder.chmod(0o555)
        try:
            yield folder / source.name
        finally:
            folder.chmod(0o755)
