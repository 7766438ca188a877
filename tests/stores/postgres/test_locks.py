"""One lock per graph: appends to a graph queue behind each other, other graphs go on."""

from __future__ import annotations

import threading
import time

import psycopg

from decisis.stores.postgres import PostgresStore
from decisis.stores.replay import verify
from tests.stores.helpers import add_node


def test_a_locked_graph_waits_while_another_graph_writes(
    pg_store: PostgresStore, pg_url: str
) -> None:
    add_node(pg_store, "busy")
    add_node(pg_store, "free")
    done = threading.Event()
    with psycopg.connect(pg_url, autocommit=True) as holder:
        with holder.transaction():  # another writer, mid-append on graph "busy"
            holder.execute("SELECT 1 FROM heads WHERE graph = 'busy' FOR UPDATE")
            waiting = threading.Thread(target=lambda: (add_node(pg_store, "busy"), done.set()))
            waiting.start()
            add_node(pg_store, "free")  # not held up by the lock on "busy"
            time.sleep(0.3)
            assert not done.is_set()
            assert pg_store.head("busy")[0] == 1
        waiting.join(timeout=10)
    assert done.is_set()
    assert pg_store.head("busy")[0] == 2 and pg_store.head("free")[0] == 2
    assert verify(pg_store, "busy").ok and verify(pg_store, "free").ok


def test_threads_sharing_one_store_never_fork_the_chain(pg_store: PostgresStore) -> None:
    def write() -> None:
        for _ in range(25):
            add_node(pg_store, "shared")

    threads = [threading.Thread(target=write) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    report = verify(pg_store, "shared")
    assert report.ok and report.events == 150
