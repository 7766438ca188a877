"""The agent benchmark's quick mode completes and prints its table (no timing asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_agent.py"


def test_quick_mode_completes() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:] or done.stdout[-2000:]
    assert "| recorder.run (SQLite, WAL)" in done.stdout and "target: added median" in done.stdout
