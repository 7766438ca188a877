"""Ingest writes one provenance entry per record it adds or changes: the file it read and,
in a git work tree, the blob id of those bytes (as ``git hash-object`` gives it) and the
commit holding that blob; none for an unchanged record, so re-ingesting piles nothing up."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import decisis
from decisis import AgentType
from decisis.adr.link.ingest import ingest, record_nodes
from decisis.adr.link.sources import git_blob_id
from decisis.stores import Store
from tests.stores.helpers import store  # every backend

__all__ = ["store"]

RECORD = """# {n}. {title}

Date: 2020-01-0{n}

## Status

Accepted

## Decision

{decision}
"""


def _write(folder: Path, n: int, title: str, decision: str) -> Path:
    path = folder / f"{n:03d}-{title.lower().replace(' ', '-')}.md"
    path.write_text(RECORD.format(n=n, title=title, decision=decision), encoding="utf-8")
    return path


def _git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


@pytest.fixture
def graph(store: Store) -> decisis.Graph:
    return decisis.Graph(store, "adr")


def test_records_in_a_git_tree_name_their_blob_and_commit(
    graph: decisis.Graph, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    folder = repo / "docs" / "adr"
    folder.mkdir(parents=True)
    _git(repo, "init", "-q")
    first = _write(folder, 1, "Use Postgres", "We will use Postgres.")
    second = _write(folder, 2, "Use Redis", "We will use Redis for caching.")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "records")
    head = _git(repo, "rev-parse", "HEAD")
    ingest(graph, folder)
    nodes = record_nodes(graph)
    for key, path in (("adr:001", first), ("adr:002", second)):
        [entry] = graph.provenance(nodes[key].id)
        assert entry.source == str(path) and entry.outcome == "added"
        assert entry.source_blob == _git(repo, "hash-object", str(path))
        assert entry.source_commit == head
        assert (entry.activity, entry.agent, entry.role) == ("adr.ingest", "decisis", "reader")
        assert entry.agent_type is AgentType.SOFTWARE_AGENT

    seq = graph.store.head(graph.name)[0]
    again = ingest(graph, folder)  # nothing changed: no entry, no event
    assert len(again.unchanged) == 2 and graph.store.head(graph.name)[0] == seq

    second.write_text(second.read_text().replace("caching", "sessions"), encoding="utf-8")
    changed = ingest(graph, folder)
    assert changed.updated == ["adr:002"]
    entries = graph.provenance(nodes["adr:002"].id)
    assert [e.outcome for e in entries] == ["added", "updated"]
    # the bytes read are in no commit yet: a blob, and no commit vouching for it
    assert entries[1].source_blob == _git(repo, "hash-object", str(second))
    assert entries[1].source_commit is None
    assert len(graph.provenance(nodes["adr:001"].id)) == 1
    assert graph.verify().ok


def test_a_git_hooks_environment_does_not_point_ingest_at_another_repository(
    graph: decisis.Graph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hook sets GIT_DIR to the repository running it; the records' own one still answers."""
    other = tmp_path / "other"
    other.mkdir()
    _git(other, "init", "-q")
    repo = tmp_path / "repo"
    folder = repo / "adr"
    folder.mkdir(parents=True)
    _git(repo, "init", "-q")
    path = _write(folder, 1, "Use Postgres", "We will use Postgres.")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "records")
    head = _git(repo, "rev-parse", "HEAD")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    ingest(graph, folder)
    [entry] = graph.provenance(record_nodes(graph)["adr:001"].id)
    assert entry.source_commit == head
    assert entry.source_blob is not None and entry.source == str(path)


def test_records_outside_a_git_tree_have_no_git_ids(graph: decisis.Graph, tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    assert subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True, check=False
    ).returncode, "the test folder must not be inside a git work tree"
    path = _write(folder, 1, "Use Postgres", "We will use Postgres.")
    ingest(graph, folder)
    [entry] = graph.provenance(record_nodes(graph)["plain:001"].id)
    assert entry.source == str(path)
    assert entry.source_blob is None and entry.source_commit is None
    assert "source_blob" not in graph.history(entry.entity)[-1].payload  # absent, not null


def test_the_blob_id_is_the_one_git_computes(tmp_path: Path) -> None:
    data = "héllo\n".encode()
    path = tmp_path / "f"
    path.write_bytes(data)
    done = subprocess.run(
        ["git", "hash-object", str(path)], capture_output=True, text=True, check=True
    )
    assert git_blob_id(data) == done.stdout.strip()
    assert git_blob_id(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
