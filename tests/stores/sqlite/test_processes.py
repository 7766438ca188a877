"""Several processes on one file: nothing lost while they write, nothing half-written when
one is killed. The writers are real processes running ``tests.stores.sqlite.writer``."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from decisis.model import EdgeType, EventKind, NodeType
from decisis.stores.replay import verify
from decisis.stores.sqlite import SQLiteStore
from tests.stores.helpers import G
from tests.stores.sqlite.writer import OPTIONS

REPO = Path(__file__).resolve().parents[3]
WRITERS = 4
ROUNDS = 100


def _writer(path: Path, name: str, rounds: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.stores.sqlite.writer", str(path), name, str(rounds)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )


def _check_whole(store: SQLiteStore) -> int:
    """Every batch landed whole, and tables and ledger hold exactly the same records.
    Returns the number of decisions."""
    report = verify(store, G)
    assert report.ok, report
    events = list(store.events(G))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    nodes = store.nodes(G, include_tombstoned=True)
    added = {e.entity for e in events if e.kind is EventKind.NODE_ADDED}
    assert {n.id for n in nodes} == added
    edges = store.edges(G, include_tombstoned=True)
    assert {e.id for e in edges} == {e.entity for e in events if e.kind is EventKind.EDGE_ADDED}
    options_of = Counter(e.source for e in edges if e.type is EdgeType.CHOSEN)
    decisions = [n for n in nodes if n.type is NodeType.DECISION]
    assert all(options_of[d.id] == OPTIONS for d in decisions)
    assert len(nodes) == len(decisions) * (OPTIONS + 1)
    return len(decisions)


@pytest.mark.slow
def test_concurrent_writers_lose_nothing(db_path: Path) -> None:
    SQLiteStore(db_path).close()  # create the file first so the writers only write
    writers = [_writer(db_path, f"w{i}", ROUNDS) for i in range(WRITERS)]
    for proc in writers:
        proc.communicate(timeout=120)
        assert proc.returncode == 0
    with SQLiteStore(db_path) as store:
        assert _check_whole(store) == WRITERS * ROUNDS
        per_writer = Counter(n.label.split()[0] for n in store.nodes(G, types=[NodeType.DECISION]))
        assert per_writer == {f"w{i}": ROUNDS for i in range(WRITERS)}


@pytest.mark.slow
def test_a_writer_killed_at_any_moment_leaves_only_whole_changes(db_path: Path) -> None:
    rng = random.Random(os.getpid())
    SQLiteStore(db_path).close()
    previous = 0
    for attempt in range(8):
        proc = _writer(db_path, f"k{attempt}", -1)  # writes until killed
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.01, 0.4))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        assert proc.returncode == -signal.SIGKILL
        with SQLiteStore(db_path) as store:
            decisions = _check_whole(store)
        assert decisions >= previous
        previous = decisions
    assert previous > 0
