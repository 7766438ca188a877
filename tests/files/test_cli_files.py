"""The commands as a person runs them, as real subprocesses in a real git repository:
add --affects/--commit, explain, ingest --git-dates, link-commit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import decisis
from tests.files.conftest import Repo


def ok(repo: Repo, *args: str, cwd: Path | None = None) -> Any:
    done = repo.decisis("--json", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr + done.stdout
    return json.loads(done.stdout)


def stored(repo: Repo) -> decisis.Graph:
    return decisis.open(f"sqlite:///{repo.root / '.decisis' / 'decisis.db'}")


def test_add_with_paths_and_commit_then_explain_from_a_subfolder(repo: Repo) -> None:
    repo.write("src/auth/login.py", "x\n")
    first = repo.commit("first")
    repo.write("src/auth/extra.py", "y\n")
    second = repo.commit("second")
    assert repo.decisis("init").returncode == 0
    jwt = ok(repo, "add", "decision", "Use JWT", "--affects", "src/auth/**", "--commit-ref", first)
    assert jwt["metadata"] == {"affects": ["src/auth/**"], "commits": [first]}
    sessions = ok(
        repo, "add", "decision", "Use sessions", "--affects", "src/auth/login.py",
        "--affects", str(repo.root / "src" / "auth"), "--commit", "--rationale", "Revocable",
    )  # fmt: skip
    assert sessions["metadata"] == {
        "affects": ["src/auth/login.py", "src/auth"],  # an absolute path, from the root
        "commits": [second],  # HEAD
    }
    assert repo.decisis("supersede", jwt["id"], sessions["id"]).returncode == 0
    [entry] = ok(repo, "explain", "auth/login.py", cwd=repo.root / "src")
    assert entry["path"] == "src/auth/login.py"
    [item] = entry["decisions"]
    assert item["label"] == "Use sessions" and item["pattern"] == "src/auth/login.py"
    assert item["replaced"] == [{"id": jwt["id"], "label": "Use JWT"}]
    text = repo.decisis("explain", "src/auth/extra.py", "README.md").stdout
    assert "Use sessions" in text and "via src/auth" in text and "replaced:" in text
    assert "README.md: no standing decision governs it" in text


def test_bad_commits_and_patterns_are_refused_and_write_nothing(repo: Repo, tmp_path: Path) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("a")
    assert repo.decisis("init").returncode == 0
    before = ok(repo, "verify")["events"]
    for args, words in (
        (["--commit-ref", "no-such-branch"], "is not a commit of"),
        (["--affects", "../outside"], "leaves the repository"),
        (["--affects", "/etc/passwd"], "outside the work tree"),
    ):
        done = repo.decisis("add", "decision", "X", *args)
        assert done.returncode == 2 and words in done.stderr, done.stderr
    assert ok(repo, "verify")["events"] == before
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    store = f"sqlite:///{repo.root / '.decisis' / 'decisis.db'}"
    done = repo.decisis("--store", store, "add", "decision", "X", "--commit", cwd=elsewhere)
    assert done.returncode == 2 and "is not inside a git work tree" in done.stderr


def test_ingest_git_dates_from_the_command_line(repo: Repo) -> None:
    repo.write("docs/adr/0001-use-x.md", "# 1. Use X\n\nStatus: Accepted\n")
    repo.commit("record", when="2018-08-09T10:11:12+02:00")
    assert repo.decisis("init").returncode == 0
    assert repo.decisis("ingest", "docs/adr", "--git-dates").returncode == 0
    with stored(repo) as graph:
        [node] = graph.nodes(types=["decision"])
        assert node.metadata["date"] == "2018-08-09" and node.metadata["date_source"] == "git"


def test_link_commit_joins_the_latest_decision_taken_for_the_commit(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("base", when="2021-01-01T00:00:00+00:00")
    assert repo.decisis("init").returncode == 0
    older = ok(repo, "add", "decision", "Older", "--agent", "bot")
    newest = ok(repo, "add", "decision", "Newest", "--agent", "bot")
    ok(repo, "add", "decision", "A person's", "--agent", "ada")
    repo.write("b.txt", "b\n")
    sha = repo.commit("work", when="2021-01-02T00:00:00+00:00")
    joined = ok(repo, "link-commit", "--agent", "bot")
    assert joined["commit"] == sha and joined["node"]["id"] == newest["id"]
    assert joined["node"]["metadata"]["commits"] == [sha]
    again = ok(repo, "link-commit", "--agent", "bot")  # the next one by bot, not a second join
    assert again["node"]["id"] == older["id"]
    assert ok(repo, "link-commit", "--agent", "bot")["node"] is None
    # a commit whose parent is newer than every decision gets none of them
    repo.write("c.txt", "c\n")
    repo.commit("future", when="2099-01-01T00:00:00+00:00")
    repo.write("d.txt", "d\n")
    repo.commit("later", when="2099-01-02T00:00:00+00:00")
    assert ok(repo, "link-commit")["node"] is None
    done = repo.decisis("link-commit", "nope")
    assert done.returncode == 2 and "is not a commit" in done.stderr
    assert repo.decisis("link-commit", "nope", "--hook").returncode == 0  # a hook never fails


def test_explain_a_folder_from_the_command_line(repo: Repo) -> None:
    repo.write("src/auth/login.py", "x\n")
    repo.write("docs/index.md", "x\n")
    repo.commit("files")
    assert repo.decisis("init").returncode == 0
    ok(repo, "add", "decision", "Login flow", "--affects", "src/auth/login.py")
    ok(repo, "add", "decision", "Docs pages", "--affects", "docs/*.md")
    [entry] = ok(repo, "explain", "auth", cwd=repo.root / "src")  # a folder, from a subfolder
    assert entry["path"] == "src/auth/"
    assert [d["label"] for d in entry["decisions"]] == ["Login flow"]
    [root] = ok(repo, "explain", ".")
    assert root["path"] == "./" and len(root["decisions"]) == 2
