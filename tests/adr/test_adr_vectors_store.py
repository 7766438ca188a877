"""Record vectors live in the store: written on first use, read back by a later process
(here: after the process cache is dropped), recomputed when a record changes, and never
written through a read-only view."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import numpy as np

import decisis
from decisis.adr.answer import vectors
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import build_view
from decisis.graph import Graph
from decisis.model import utc_now
from decisis.search.embedding import get_embedder

QUESTION = "Which queue do the payment services use?"


def _record(folder: Path, name: str, title: str, decision: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(
        f"# {title}\n\nDate: 2022-03-01\n\n## Status\n\nAccepted\n\n## Decision\n\n{decision}\n",
        encoding="utf-8",
    )


def _graph(tmp_path: Path) -> Graph:
    team = tmp_path / "adrs" / "team"
    _record(team, "001-queues.md", "1. Use SQS queues", "Payment services use SQS queues.")
    _record(team, "002-ledger.md", "2. Payments ledger", "The payments hub keeps one ledger.")
    _record(team, "003-index.md", "3. Index nightly", "The search index is rebuilt nightly.")
    g = decisis.open(f"sqlite:///{tmp_path}/d.db", graph="adr")
    ingest(g, tmp_path / "adrs")
    return g


def _scores(g: Graph, *, forget: bool = True) -> dict[str, float]:
    """Similarities from a new view, after dropping the process cache when ``forget``."""
    if forget:
        vectors._KEPT.clear()
    return vectors.similarities(build_view(g), QUESTION, 10, graph=g)


def test_vectors_are_written_once_and_read_back(tmp_path: Path) -> None:
    space = vectors.record_space(get_embedder())
    with _graph(tmp_path) as g:
        computed = _scores(g)
        stored = g.store.get_vectors(g.name, space)
        first = build_view(g).records["team:001"].id
        assert g.store.vector_spaces(g.name) == {space: get_embedder().dim}
        assert sorted(stored) == sorted(n.id for n in build_view(g).records.values())
        # Flip one stored vector under the store's feet: the next view must read it.
        with closing(sqlite3.connect(tmp_path / "d.db")) as raw, raw:
            blob = (-stored[first]).astype("<f4").tobytes()
            raw.execute("UPDATE vectors SET vector = ? WHERE id = ?", (blob, first))
        assert _scores(g)["team:001"] == -computed["team:001"]
        assert _scores(g, forget=False)["team:001"] == -computed["team:001"]


def test_a_changed_record_is_embedded_again(tmp_path: Path) -> None:
    space = vectors.record_space(get_embedder())
    with _graph(tmp_path) as g:
        _scores(g)
        node = build_view(g).records["team:002"]
        before = g.store.get_vectors(g.name, space, [node.id])[node.id]
        g.update(node.id, rationale="Payment services now use Kafka queues.")
        after = _scores(g)
        stored = g.store.get_vectors(g.name, space, [node.id])[node.id]
        assert not np.array_equal(before, stored)
        assert after["team:002"] > 0


def test_a_read_only_view_computes_but_writes_nothing(tmp_path: Path) -> None:
    with _graph(tmp_path) as g:
        past = g.at(utc_now())
        scores = _scores(past)
        assert set(scores) == {"team:001", "team:002", "team:003"}
        assert past.store.vector_spaces(past.name) == {}
        assert g.store.vector_spaces(g.name) == {}
        assert scores == vectors.similarities(build_view(g), QUESTION, 10)  # same, unkept
