"""``decisis checkpoint --git``: each checkpoint a commit on ``refs/decisis/checkpoints`` of
the repository the store sits in, the work tree, index and branches left alone (real git,
real processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DECISIS_", "GIT_"))}
    return env | {"COLUMNS": "250", "NO_COLOR": "1", "HOME": os.environ.get("HOME", "/tmp")}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=_env()
    )
    return done.stdout.strip()


def run(cwd: Path, store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "decisis", "--store", f"sqlite:///{store}", *args],
        cwd=cwd, env=_env(), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_checkpoints_are_committed_on_their_own_ref(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".decisis").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "README").write_text("hello\n")
    git(repo, "add", "README")
    git(repo, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-qm", "start")
    head_before = git(repo, "rev-parse", "HEAD")
    store = repo / ".decisis" / "d.db"
    key = tmp_path / "k"
    assert run(tmp_path, store, "key", "new", str(key)).returncode == 0
    assert run(tmp_path, store, "add", "goal", "Witness me").returncode == 0
    first = run(tmp_path, store, "checkpoint", "--key", str(key), "--git")
    assert first.returncode == 0, first.stderr
    assert "refs/decisis/checkpoints" in first.stderr
    assert run(tmp_path, store, "add", "goal", "Again").returncode == 0
    second = run(tmp_path, store, "checkpoint", "--key", str(key), "--git")
    assert second.returncode == 0, second.stderr
    commits = git(repo, "rev-list", "refs/decisis/checkpoints").splitlines()
    assert len(commits) == 2  # one per checkpoint, the second on top of the first
    kept = json.loads(git(repo, "show", "refs/decisis/checkpoints:default.json"))
    assert kept == json.loads(second.stdout)
    earlier = json.loads(git(repo, "show", "refs/decisis/checkpoints~1:default.json"))
    assert earlier == json.loads(first.stdout)
    (tmp_path / "from-git.json").write_text(json.dumps(earlier))
    verified = run(
        tmp_path, store, "verify", "--checkpoint", str(tmp_path / "from-git.json"),
        "--key", f"{key}.pub",
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout
    assert git(repo, "rev-parse", "HEAD") == head_before  # branches, index, work tree alone
    assert git(repo, "status", "--short") == "?? .decisis/"  # only the store itself


def test_outside_a_repository_nothing_is_signed(tmp_path: Path) -> None:
    store = tmp_path / "d.db"
    assert run(tmp_path, store, "key", "new", str(tmp_path / "k")).returncode == 0
    assert run(tmp_path, store, "add", "goal", "No git here").returncode == 0
    done = run(tmp_path, store, "checkpoint", "--key", str(tmp_path / "k"), "--git")
    assert done.returncode == 2 and "not inside a git repository" in done.stderr
    listed = run(tmp_path, store, "--json", "verify")
    assert listed.returncode == 0
    none = subprocess.run(
        [sys.executable, "-c", "import decisis, sys; "
         f"print(len(decisis.open('sqlite:///{store}').checkpoints()))"],
        capture_output=True, text=True, env=_env(), check=True,
    )  # fmt: skip
    assert none.stdout.strip() == "0"
