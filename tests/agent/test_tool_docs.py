"""The tool reference cannot drift: docs/tools.md is generated from the specs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from decisis.agent.tools import TOOLS

ROOT = Path(__file__).resolve().parents[2]


def test_tool_docs_are_current_and_every_tool_has_a_description() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_tool_docs.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    for spec in TOOLS:
        assert spec.description.strip(), spec.name
        assert f"## `{spec.name}`" in text
