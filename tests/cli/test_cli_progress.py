"""Progress on a terminal: ``ingest``, ``import`` and ``copy`` say what is under way on
stderr when it is a terminal (a real pseudo-terminal here), and nothing when it is not."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "adr-corpus" / "govuk-aws"
ENV = {**os.environ, "COLUMNS": "120", "DECISIS_STORE": "", "DECISIS_GRAPH": ""}


def _on_a_terminal(*args: str) -> str:
    """What ``decisis ARGS`` writes to a pseudo-terminal (stdout and stderr both)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "decisis", *args],
        stdin=follower, stdout=follower, stderr=follower, env=ENV,
    )  # fmt: skip
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed: the process is done
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert proc.wait(timeout=300) == 0, out.decode(errors="replace")
    return out.decode(errors="replace")


def test_ingest_import_and_copy_show_progress_on_a_terminal(tmp_path: Path) -> None:
    store, other = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    shown = _on_a_terminal("--store", store, "ingest", str(DATA))
    assert "reading and linking the records" in shown and "added" in shown
    exported = tmp_path / "export.json"
    done = subprocess.run(
        [sys.executable, "-m", "decisis", "--store", store, "export"],
        capture_output=True, text=True, env=ENV, check=True,
    )  # fmt: skip
    exported.write_text(done.stdout, encoding="utf-8")
    shown = _on_a_terminal("--store", other, "--graph", "copy", "import", str(exported))
    assert "checking and importing export.json" in shown
    shown = _on_a_terminal("copy", store, f"sqlite:///{tmp_path / 'c.db'}")
    assert "copying graphs" in shown


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "decisis", "--store", f"sqlite:///{tmp_path / 'a.db'}",
         "ingest", str(DATA)],
        capture_output=True, text=True, env=ENV, check=True,
    )  # fmt: skip
    assert "reading and linking" not in done.stderr + done.stdout
