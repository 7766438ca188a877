"""Eight processes append 500 batches each into one graph, on PostgreSQL and on SQLite:
no write lost, none duplicated, the counts exact, the chain unforked and verified."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.model import EdgeType, EventKind, NodeType
from decisis.stores import open_store
from decisis.stores.replay import verify
from tests.stores.helpers import G
from tests.stores.postgres.server import drop_schema, new_schema, schema_url

REPO = Path(__file__).resolve().parents[3]
WRITERS = 8
ROUNDS = 500


@pytest.fixture(params=["postgres", "sqlite"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/many.db"
        return
    schema = new_schema()
    try:
        yield schema_url(schema)
    finally:
        drop_schema(schema)


def _writer(url: str, name: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.stores.postgres.writer", url, name, str(ROUNDS)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        text=True,
    )


@pytest.mark.slow
def test_eight_writers_lose_nothing_and_never_fork_the_chain(url: str) -> None:
    open_store(url).close()  # create the schema first, so the writers only write
    writers = [_writer(url, f"w{i}") for i in range(WRITERS)]
    for proc in writers:
        assert proc.wait(timeout=300) == 0
    store = open_store(url)
    try:
        report = verify(store, G)
        assert report.ok, report
        events = list(store.events(G))
        per_batch = 3  # a decision, its option, the edge between them
        assert [e.seq for e in events] == list(range(1, WRITERS * ROUNDS * per_batch + 1))
        assert store.head(G) == (events[-1].seq, events[-1].checksum)
        decisions = store.nodes(G, types=[NodeType.DECISION])
        labels = Counter(n.label for n in decisions)
        assert len(labels) == WRITERS * ROUNDS and max(labels.values()) == 1  # no duplicate
        assert Counter(label.split()[0] for label in labels) == dict.fromkeys(
            (f"w{i}" for i in range(WRITERS)), ROUNDS
        )
        assert len(store.nodes(G, types=[NodeType.OPTION])) == WRITERS * ROUNDS
        chosen = Counter(e.source for e in store.edges(G, types=[EdgeType.CHOSEN]))
        assert set(chosen.values()) == {1} and len(chosen) == WRITERS * ROUNDS
        # each batch sits whole in the chain: a decision's entries are consecutive
        first = {e.entity: e.seq for e in events if e.kind is EventKind.NODE_ADDED}
        assert all(first[d.id] % per_batch == 1 for d in decisions)
    finally:
        store.close()
