"""Fixtures for the files, commits and hooks tests: a real git repository in tmp_path whose
commits carry fixed dates, and the graph over every backend."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import decisis
from decisis.stores import Store
from tests.stores.helpers import store  # every backend, for the tests that need them all

__all__ = ["Repo", "graph", "repo", "store"]

DECISIS = [sys.executable, "-m", "decisis"]


@dataclass
class Repo:
    """A git work tree in tmp_path: write files, commit them on a given date."""

    root: Path

    def env(self, when: str | None = None) -> dict[str, str]:
        env = {
            **os.environ,
            "GIT_CONFIG_NOSYSTEM": "1",
            "HOME": str(self.root.parent),  # no user's git settings leak in
            "GIT_AUTHOR_NAME": "Ada",
            "GIT_AUTHOR_EMAIL": "ada@example.org",
            "GIT_COMMITTER_NAME": "Ada",
            "GIT_COMMITTER_EMAIL": "ada@example.org",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "DECISIS_STORE": "",
        }
        env.pop("DECISIS_STORE")
        if when is not None:
            env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when
        return env

    def git(self, *args: str, when: str | None = None) -> str:
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env=self.env(when),
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        return done.stdout

    def write(self, path: str, text: str) -> Path:
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
        return file

    def commit(self, message: str, when: str = "2021-03-04T05:06:07+00:00") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message, when=when)
        return self.git("rev-parse", "HEAD").strip()

    def decisis(
        self, *args: str, stdin: str = "", cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """``decisis ARGS`` as a real subprocess in the work tree."""
        return subprocess.run(
            [*DECISIS, *args],
            cwd=cwd or self.root,
            env=self.env(),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    root = tmp_path / "project"
    root.mkdir()
    made = Repo(root)
    made.git("init", "-q", "-b", "main")
    return made


@pytest.fixture
def graph(store: Store) -> Iterator[decisis.Graph]:
    yield decisis.Graph(store, "files")
