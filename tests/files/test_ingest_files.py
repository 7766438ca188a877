"""ADRs on files: ``affects:`` front matter, tracked paths their text names, and git dates."""

from __future__ import annotations

import shutil
from pathlib import Path

import decisis
from decisis.adr import ingest
from decisis.adr.link.ingest import record_nodes
from tests.files.conftest import Repo

SESSIONS = """---
affects:
  - src/auth/**
  - ../../bad
---
# 1. Use server sessions

Status: Accepted

## Decision

We keep sessions in `src/auth/sessions.py` and the settings in config/auth.toml;
see also [the login flow](../../src/auth/login.py), the README.md, and 0002-use-redis.md.
Words like e.g. and src/missing.py, or a URL http://example.org/a/b, name nothing here.
"""

REDIS = """# 2. Use Redis for sessions

Status: Accepted

## Context
Sessions need a store. The `deploy/` folder holds its chart.
"""


def _project(repo: Repo) -> Path:
    for path in ("src/auth/sessions.py", "src/auth/login.py", "config/auth.toml", "README.md"):
        repo.write(path, "x\n")
    repo.write("deploy/chart.yaml", "x\n")
    repo.write("docs/adr/0001-use-server-sessions.md", SESSIONS)
    repo.commit("code and the first record", when="2019-05-06T07:08:09+00:00")
    repo.write("docs/adr/0002-use-redis.md", REDIS)
    repo.commit("the second record", when="2020-11-12T13:14:15+00:00")
    return repo.root / "docs" / "adr"


def test_front_matter_and_named_tracked_paths_become_affects(repo: Repo) -> None:
    folder = _project(repo)
    with decisis.open() as graph:
        ingest(graph, folder)
        records = record_nodes(graph)
        assert records["adr:0001"].metadata["affects"] == [
            "src/auth/**",  # the front matter first; "../../bad" is no pattern and left out
            "src/auth/sessions.py",
            "config/auth.toml",
            "src/auth/login.py",  # a link, read from the record's folder
            "README.md",
        ]  # not the other record, not a path git does not track, not a URL
        assert records["adr:0002"].metadata["affects"] == ["deploy"]
        [entry] = graph.decisions_for(["src/auth/login.py"])
        assert [d.node.label for d in entry.decisions] == ["Use server sessions"]
        assert entry.decisions[0].pattern == "src/auth/login.py"  # the nearer of two


def test_outside_a_work_tree_only_the_front_matter_counts(repo: Repo, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(_project(repo), copy)
    with decisis.open() as graph:
        ingest(graph, copy)
        records = record_nodes(graph)
        assert records["copy:0001"].metadata["affects"] == ["src/auth/**"]
        assert "affects" not in records["copy:0002"].metadata


def test_git_dates_are_opt_in_and_marked(repo: Repo) -> None:
    folder = _project(repo)
    with decisis.open() as graph:
        ingest(graph, folder)
        plain = record_nodes(graph)["adr:0002"]
        assert plain.metadata["date"] is None and "date_source" not in plain.metadata
        ingest(graph, folder, git_dates=True)
        dated = record_nodes(graph)
        assert dated["adr:0002"].metadata["date"] == "2020-11-12"
        assert dated["adr:0002"].metadata["date_source"] == "git"
        assert dated["adr:0002"].valid_from.isoformat().startswith("2020-11-12")
        assert dated["adr:0001"].metadata["date"] == "2019-05-06"  # no date line either


def test_a_record_with_its_own_date_keeps_it_and_an_unchanged_one_adds_nothing(
    repo: Repo,
) -> None:
    repo.write("adr/0001-x.md", "# 1. X\n\nDate: 2015-01-02\n\nStatus: Accepted\n")
    repo.commit("x", when="2022-02-02T02:02:02+00:00")
    with decisis.open() as graph:
        ingest(graph, repo.root / "adr", git_dates=True)
        node = record_nodes(graph)["adr:0001"]
        assert node.metadata["date"] == "2015-01-02" and "date_source" not in node.metadata
        again = ingest(graph, repo.root / "adr", git_dates=True)
        assert again.unchanged == ["adr:0001"] and not again.updated


def test_a_record_git_never_saw_gets_no_date(repo: Repo) -> None:
    repo.write("adr/0001-x.md", "# 1. X\n\nStatus: Accepted\n")  # not committed
    with decisis.open() as graph:
        ingest(graph, repo.root / "adr", git_dates=True)
        node = record_nodes(graph)["adr:0001"]
        assert node.metadata["date"] is None and "date_source" not in node.metadata
