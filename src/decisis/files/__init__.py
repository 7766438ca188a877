"""Decisions where the work happens: the paths a node governs, the commits it is joined to,
and the hooks that hand them to an agent before it edits (docs/files.md)."""

from __future__ import annotations

from decisis.files.affects import (
    AFFECTS_KEY,
    COMMITS_KEY,
    DATE_SOURCE_KEY,
    affects_of,
    commits_of,
    module_path,
    with_affects,
    with_commit,
)
from decisis.files.governs import Governing, PathDecisions, decisions_for, repo_path
from decisis.files.patterns import governs, normalise_pattern, specificity

__all__ = [
    "AFFECTS_KEY",
    "COMMITS_KEY",
    "DATE_SOURCE_KEY",
    "Governing",
    "PathDecisions",
    "affects_of",
    "commits_of",
    "decisions_for",
    "governs",
    "module_path",
    "normalise_pattern",
    "repo_path",
    "specificity",
    "with_affects",
    "with_commit",
]
