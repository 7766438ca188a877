"""What only the memory store promises: its URL, closing, and many threads on one lock."""

from __future__ import annotations

import threading

import pytest

from decisis.errors import StoreError, UnsupportedStore
from decisis.ledger import check_chain
from decisis.stores import Store, open_store
from decisis.stores.memory import MemoryStore
from decisis.stores.replay import verify
from tests.stores.helpers import G, add_node, make_node, node_added


def test_memory_store_is_a_store_opened_by_url() -> None:
    store = open_store("memory://")
    assert isinstance(store, MemoryStore)
    assert isinstance(store, Store)
    assert store.url == "memory://"
    assert open_store("memory://").graphs() == []  # every store is its own
    with pytest.raises(UnsupportedStore):
        MemoryStore("sqlite:///x.db")


def test_memory_store_refuses_use_after_close() -> None:
    store = MemoryStore()
    add_node(store)
    store.close()
    store.close()  # closing twice is fine
    with pytest.raises(StoreError):
        store.nodes(G)
    with pytest.raises(StoreError):
        store.append(G, [node_added(make_node())])
    with pytest.raises(StoreError):
        store.graphs()


def test_memory_store_threads_lose_nothing() -> None:
    store = MemoryStore()
    errors: list[BaseException] = []

    def writer(graph: str) -> None:
        try:
            for _ in range(25):
                store.append(graph, [node_added(make_node()), node_added(make_node())])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"g{i % 2}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for graph in ("g0", "g1"):
        events = list(store.events(graph))
        assert check_chain(events) == (200, None)
        assert len(store.nodes(graph)) == 200
        assert verify(store, graph).ok
