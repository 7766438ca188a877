"""The README's command-line tour runs as written, in a fresh folder, with bash."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def _tour() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## From the command line", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, "the README has no command-line tour"
    return match.group(1)


def test_the_readme_tour_runs_as_written(tmp_path: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)  # where the installed ``decisis`` is
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}"}
    env.pop("DECISIS_STORE", None)
    env.pop("DECISIS_GRAPH", None)
    script = "set -euo pipefail\n" + _tour()
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    assert "Use server sessions (stands)" in done.stdout
    assert "ok: ledger intact" in done.stdout and (tmp_path / "graph.json").is_file()
