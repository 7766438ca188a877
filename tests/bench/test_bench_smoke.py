"""Smoke runs of the core benchmarks: each script's quick mode at its smallest size.

Only that it completes and prints its table; benchmarks carry no timing
assertions (see docs/benchmarks.md for the numbers).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.parametrize(
    ("script", "args", "header"),
    [
        ("bench_core_record.py", ["--quick"], "| subject"),
        ("bench_core_traverse.py", ["--quick", "--sizes", "2000", "--rounds", "1"], "| edges"),
        ("bench_core_startup.py", ["--quick", "--runs", "1"], "| command"),
        ("bench_cold_ask.py", ["--runs", "1"], "| decisis ask (cold process)"),
        ("bench_mcp_start.py", ["--runs", "1"], "| decisis mcp: initialize answered"),
        ("bench_web.py", ["--quick"], "| POST /api/ask"),
        ("bench_rules.py", ["--records", "300"], "| title-replaces"),
        ("reader_linear.py", ["--quick"], "| line"),
        ("bench_provenance.py", ["--quick", "--records", "40"], "| subject"),
        ("writers_corrections.py", ["--quick"], "| store"),
        ("soak.py", ["--seconds", "3"], "| writer"),
        ("bench_files.py", ["--quick", "--rounds", "1"], "| decisions"),
        ("bench_at.py", ["--quick", "--sizes", "1500", "--rounds", "1"], "| entries"),
    ],
)
def test_quick_mode_completes(script: str, args: list[str], header: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:] or done.stdout[-2000:]
    assert header in done.stdout
    assert "machine: nproc=" in done.stdout
