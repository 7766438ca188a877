"""The agent hooks, run as their clients run them: the command Claude Code's settings name,
fed the JSON a PreToolUse call sends; git's post-commit hook, run by a real commit."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import decisis
from tests.files.conftest import Repo


def edit_call(repo: Repo, file: str, tool: str = "Edit") -> str:
    """What Claude Code sends a PreToolUse hook for an edit (file paths are absolute)."""
    return json.dumps(
        {
            "session_id": "abc123",
            "transcript_path": str(repo.root.parent / "transcript.jsonl"),
            "cwd": str(repo.root),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": {
                "file_path": str(repo.root / file),
                "old_string": "x = 1",
                "new_string": "x = 2",
            },
            "tool_use_id": "toolu_01",
        }
    )


def run_hook(repo: Repo, command: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """The hook's command as Claude Code runs it: through the shell, in the project."""
    return subprocess.run(
        ["sh", "-c", command],
        cwd=repo.root,
        env=repo.env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def installed_command(repo: Repo) -> str:
    settings = json.loads((repo.root / ".claude" / "settings.json").read_text())
    [group] = [g for g in settings["hooks"]["PreToolUse"] if "decisis" in json.dumps(g["hooks"])]
    assert group["matcher"] == "Edit|Write|MultiEdit|NotebookEdit"
    [hook] = group["hooks"]
    assert hook["type"] == "command"
    return str(hook["command"])


def graph_of(repo: Repo) -> decisis.Graph:
    return decisis.open(f"sqlite:///{repo.root / '.decisis' / 'decisis.db'}")


def test_install_merges_into_the_settings_there_and_is_idempotent(repo: Repo) -> None:
    theirs: dict[str, Any] = {
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}],
            "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}],
        },
    }
    repo.write(".claude/settings.json", json.dumps(theirs))
    (repo.root / "sub").mkdir()
    done = repo.decisis("hooks", "install", "--claude-code", cwd=repo.root / "sub")
    assert done.returncode == 0, done.stderr
    assert "installed in" in done.stdout
    merged = json.loads((repo.root / ".claude" / "settings.json").read_text())
    assert merged["permissions"] == theirs["permissions"]
    assert merged["hooks"]["PostToolUse"] == theirs["hooks"]["PostToolUse"]
    assert merged["hooks"]["PreToolUse"][0] == theirs["hooks"]["PreToolUse"][0]
    assert installed_command(repo) == "decisis explain --hook"
    again = repo.decisis("hooks", "install", "--claude-code")
    assert "already in" in again.stdout
    assert json.loads((repo.root / ".claude" / "settings.json").read_text()) == merged


def test_install_refuses_settings_it_cannot_read_and_leaves_them(repo: Repo) -> None:
    broken = '{"hooks": {"PreToolUse": [ oops'
    repo.write(".claude/settings.json", broken)
    done = repo.decisis("hooks", "install", "--claude-code")
    assert done.returncode == 2 and "cannot be read as JSON" in done.stderr
    assert (repo.root / ".claude" / "settings.json").read_text() == broken
    done = repo.decisis("hooks", "install")
    assert done.returncode == 2 and "--claude-code" in done.stderr


def test_the_pre_tool_use_hook_gives_the_governing_decisions(repo: Repo) -> None:
    repo.write("src/auth/login.py", "x = 1\n")
    repo.commit("code")
    assert repo.decisis("init").returncode == 0
    assert repo.decisis("hooks", "install", "--claude-code").returncode == 0
    with graph_of(repo) as graph:
        jwt = graph.record_decision("Use JWT tokens", metadata={"affects": ["src/auth/**"]})
        sessions = graph.record_decision("Use server sessions", rationale="They can be revoked")
        graph.supersede(jwt.id, sessions.id)
        graph.record_decision("Billing rules", metadata={"affects": ["src/billing"]})
    command = installed_command(repo)
    for tool in ("Edit", "Write", "MultiEdit"):
        done = run_hook(repo, command, edit_call(repo, "src/auth/login.py", tool))
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)["hookSpecificOutput"]
        assert answer["hookEventName"] == "PreToolUse"
        assert "permissionDecision" not in answer  # context only: the edit is never blocked
        context = answer["additionalContext"]
        assert "src/auth/login.py" in context and "Use server sessions" in context
        assert "replaced: Use JWT tokens" in context and "They can be revoked" in context
        assert "Billing rules" not in context
    repo.write("docs/adr/0001-keep-login-small.md", KEEP_SMALL)
    assert repo.decisis("ingest", "docs/adr").returncode == 0
    done = run_hook(repo, command, edit_call(repo, "src/auth/login.py"))
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    first, second = context.splitlines()[1:3]  # the nearest pattern first: the record's file
    assert first == "- Keep login small (ADR adr:0001, via src/auth/login.py)", context
    assert second.startswith("  why: ")


KEEP_SMALL = """# 1. Keep login small

Status: Accepted

## Decision
Nothing but the form lives in `src/auth/login.py`.
"""


def test_outside_a_work_tree_paths_are_read_from_the_session_folder(tmp_path: Path) -> None:
    project = Repo(tmp_path / "plain")  # no git init: a folder, not a repository
    project.root.mkdir()
    project.write("src/app.py", "x = 1\n")
    assert project.decisis("init").returncode == 0
    with graph_of(project) as graph:
        graph.record_decision("App rules", metadata={"affects": ["src/app.py"]})
    done = run_hook(project, "decisis explain --hook", edit_call(project, "src/app.py", "Write"))
    assert done.returncode == 0, done.stderr
    assert "App rules" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_the_hook_is_silent_and_exits_0_when_nothing_applies(repo: Repo) -> None:
    repo.write("README.md", "hi\n")
    repo.commit("readme")
    command = "decisis explain --hook"
    no_store = run_hook(repo, command, edit_call(repo, "README.md"))
    assert (no_store.returncode, no_store.stdout) == (0, "")
    assert not (repo.root / ".decisis").exists()  # asking made no store
    assert repo.decisis("init").returncode == 0
    for stdin in (
        edit_call(repo, "README.md"),  # no decision governs it
        json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}),
        "not json at all",
        "",
    ):
        done = run_hook(repo, command, stdin)
        assert (done.returncode, done.stdout) == (0, ""), (stdin, done.stderr)
    broken = repo.root / ".decisis" / "decisis.db"
    broken.write_bytes(b"not a database")
    with left_as_it_was(broken):
        done = run_hook(repo, command, edit_call(repo, "README.md"))
    assert done.returncode == 0 and done.stdout == "" and "decisis hook:" in done.stderr


@contextmanager
def left_as_it_was(path: Path) -> Iterator[None]:
    """The file holds the same bytes after the block (the hook must not repair or replace it)."""
    before = path.read_bytes()
    yield
    assert path.read_bytes() == before


def test_the_post_commit_hook_joins_the_decision_to_the_commit(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("base", when="2021-01-01T00:00:00+00:00")
    assert repo.decisis("init").returncode == 0
    done = repo.decisis("hooks", "install", "--git")
    assert done.returncode == 0, done.stderr
    hook = repo.root / ".git" / "hooks" / "post-commit"
    assert os.access(hook, os.X_OK) and "decisis link-commit --hook" in hook.read_text()
    with graph_of(repo) as graph:
        decision = graph.record_decision("Split the auth module", agent="claude")
    repo.write("b.txt", "b\n")
    sha = repo.commit("split auth", when="2021-01-02T00:00:00+00:00")  # git runs the hook
    with graph_of(repo) as graph:
        assert graph.get(decision.id).metadata["commits"] == [sha]
    repo.write("c.txt", "c\n")
    repo.commit("no decision this time", when="2021-01-03T00:00:00+00:00")  # nothing to join
    with graph_of(repo) as graph:
        assert graph.get(decision.id).metadata["commits"] == [sha]


def test_git_hook_install_keeps_a_shell_hook_and_refuses_another_language(repo: Repo) -> None:
    hook = repo.root / ".git" / "hooks" / "post-commit"
    hook.write_text("#!/bin/sh\necho theirs\n")
    assert repo.decisis("hooks", "install", "--git").returncode == 0
    text = hook.read_text()
    assert text.startswith("#!/bin/sh\necho theirs\n") and "decisis link-commit --hook" in text
    assert "already in" in repo.decisis("hooks", "install", "--git").stdout
    assert hook.read_text() == text
    hook.write_text("#!/usr/bin/env python3\nprint('theirs')\n")
    done = repo.decisis("hooks", "install", "--git")
    assert done.returncode == 2 and "python3 script" in done.stderr
    assert hook.read_text() == "#!/usr/bin/env python3\nprint('theirs')\n"


def test_git_hook_install_outside_a_work_tree_is_refused(tmp_path: Path, repo: Repo) -> None:
    elsewhere = tmp_path / "plain"
    elsewhere.mkdir()
    done = repo.decisis("hooks", "install", "--git", cwd=elsewhere)
    assert done.returncode == 2 and "is not inside a git work tree" in done.stderr
