"""``Store.write_lock`` on every backend: other appends wait for the block, the block's own
appends land in it, a refused one is undone alone."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.errors import NotFound
from decisis.stores import Store, open_store
from decisis.stores.replay import verify
from tests.stores.helpers import BACKENDS, G, make_edge, make_node, node_added
from tests.stores.helpers import edge_added as edge_draft

SHARED = ("memory", "duckdb")  # one store object per process: other threads share it


@pytest.fixture(params=sorted(BACKENDS))
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """A store with one event, and a second handle on the same data for another writer:
    its own connection where the backend has several (SQLite, PostgreSQL)."""
    store = BACKENDS[request.param](tmp_path)
    store.append(G, [node_added(make_node("first"))])
    other = store if request.param in SHARED else open_store(store.url)
    try:
        yield store, other
    finally:
        if other is not store:
            other.close()
        store.close()


def test_another_writer_waits_until_the_block_ends(stores: tuple[Store, Store]) -> None:
    store, other = stores
    done: list[int] = []
    writer = threading.Thread(
        target=lambda: done.append(other.append(G, [node_added(make_node("other"))])[0].seq)
    )
    with store.write_lock(G):
        writer.start()
        writer.join(timeout=0.5)
        assert writer.is_alive() and not done  # held off by the lock
        assert store.head(G)[0] == 1
        (mine,) = store.append(G, [node_added(make_node("mine"))], after_seq=1)
    writer.join(timeout=30)
    assert not writer.is_alive()
    assert mine.seq == 2 and done == [3]
    labels = [e.payload["node"]["label"] for e in store.events(G)]
    assert labels == ["first", "mine", "other"]
    assert verify(store, G).ok


def test_a_refused_append_in_the_block_is_undone_alone(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    ghost = make_node("never added")
    with store.write_lock(G):
        with pytest.raises(NotFound):
            store.append(
                G,
                [
                    node_added(make_node("half")),
                    edge_draft(make_edge(ghost, make_node("nor this"))),
                ],
            )
        with store.write_lock(G):  # the thread that holds it takes it again
            store.append(G, [node_added(make_node("whole"))], after_seq=1)
    assert [n.label for n in store.nodes(G)] == ["first", "whole"]
    assert store.head(G)[0] == 2
    assert verify(store, G).ok


def test_reads_in_the_block_see_the_graph(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    with store.write_lock(G):
        assert [n.label for n in store.nodes(G)] == ["first"]
        assert store.search(G, "first", limit=1)[0].node.label == "first"
        assert store.head(G)[0] == 1
