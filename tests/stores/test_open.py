"""Opening a store again, on every SQL backend: what was written reads back the same, to
the last field; a closed store refuses work; threads share one store; a file that is not
a database, or a folder that is not there, is a clear ``StoreError``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.errors import StoreError
from decisis.model import EdgeType, LinkState
from decisis.stores import Store
from decisis.stores.duckdb_store import DuckDBStore
from decisis.stores.replay import verify
from decisis.stores.sqlite import SQLiteStore
from tests.stores.helpers import G, add_chain, add_edge, add_node, at, event_key, tombstoned
from tests.stores.raw_stores import RAW_BACKENDS, Opener

# Threads x writes each: SQLite's single connection is cheap to share, so it is shared more.
_THREADS = {"sqlite": (8, 25)}
_FILES = {"sqlite": (SQLiteStore, ".db"), "duckdb": (DuckDBStore, ".duckdb")}


@pytest.fixture(params=sorted(RAW_BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Opener]]:
    with RAW_BACKENDS[request.param](tmp_path) as (opener, _, _):
        yield request.param, opener


def _state(store: Store, start: str) -> tuple[object, ...]:
    return (
        store.nodes(G, include_tombstoned=True),
        store.edges(G, include_tombstoned=True),
        [event_key(e) for e in store.events(G)],
        store.head(G),
        store.traverse(G, start, direction="out"),
    )


def test_data_persists_across_reopen(backend: tuple[str, Opener]) -> None:
    _, opener = backend
    with opener() as store:
        nodes = add_chain(store, 5)
        store.append(G, [tombstoned(nodes[4])])
        before = _state(store, nodes[0].id)
    with opener() as store:
        assert _state(store, nodes[0].id) == before
        assert store.graphs() == [G]
        assert store.search(G, "step")[0].node.id in {n.id for n in nodes[:4]}
        assert verify(store, G).ok


def test_every_field_round_trips(backend: tuple[str, Opener]) -> None:
    _, opener = backend
    meta = {"k": [1, 2.5, "x", None, True], "nested": {"é": "ü"}}
    with opener() as store:
        a = add_node(
            store,
            label="Use JWT — tokens",
            confidence=0.1,
            rationale="stateless",
            metadata=meta,
            agent="claude",
            when=at(1.000001),
            valid_until=at(90),
        )
        b = add_node(store)
        edge = add_edge(
            store, a, b, EdgeType.PRECEDENT_FOR, state=LinkState.CANDIDATE, confidence=1.0
        )
        store.append(G, [tombstoned(b, reason="mistake")])
    with opener() as store:
        assert store.get_node(G, a.id) == a
        assert store.get_edge(G, edge.id) == edge
        stored_b = store.get_node(G, b.id)
        assert stored_b.tombstoned and stored_b.tombstone_reason == "mistake"


def test_a_closed_store_refuses_work(backend: tuple[str, Opener]) -> None:
    _, opener = backend
    store = opener()
    store.close()
    with pytest.raises(StoreError):
        store.nodes(G)
    store.close()  # closing twice is harmless


def test_threads_share_one_store(backend: tuple[str, Opener]) -> None:
    """Threads take turns on the store; every write lands and the chain holds."""
    name, opener = backend
    threads_count, writes = _THREADS.get(name, (4, 10))
    errors: list[BaseException] = []
    with opener() as store:

        def work() -> None:
            try:
                for _ in range(writes):
                    add_node(store)
                    store.nodes(G, limit=5, newest_first=True)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work) for _ in range(threads_count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(store.nodes(G)) == threads_count * writes
        assert store.head(G)[0] == threads_count * writes
        assert verify(store, G).ok


@pytest.mark.parametrize("name", sorted(_FILES))
def test_not_a_database_is_a_store_error(tmp_path: Path, name: str) -> None:
    cls, _ = _FILES[name]
    path = tmp_path / "notes.txt"
    path.write_text("this is not a database, " * 100)
    with pytest.raises(StoreError, match=r"notes\.txt"):
        cls(path)


@pytest.mark.parametrize("name", sorted(_FILES))
def test_missing_directory_is_a_store_error(tmp_path: Path, name: str) -> None:
    cls, suffix = _FILES[name]
    with pytest.raises(StoreError, match="cannot open"):
        cls(tmp_path / "no" / "such" / f"dir{suffix}")
