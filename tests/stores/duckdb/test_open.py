"""Opening a DuckDB store: URLs, persistence, failing clearly, sharing between threads."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from decisis.errors import StoreError, UnsupportedStore
from decisis.model import EdgeType, LinkState
from decisis.stores import open_store
from decisis.stores.duckdb_store import DuckDBStore
from decisis.stores.replay import verify
from tests.stores.helpers import G, add_chain, add_edge, add_node, at, event_key, tombstoned


def test_relative_url_opens_a_file_under_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    with DuckDBStore.from_url("duckdb:///data/rel.duckdb") as store:
        add_node(store)
        assert store.url == "duckdb:///data/rel.duckdb"
    assert (tmp_path / "data" / "rel.duckdb").is_file()


def test_absolute_url_and_open_store(tmp_path: Path) -> None:
    url = f"duckdb:///{tmp_path}/abs.duckdb"
    assert url.startswith("duckdb:////")
    store = open_store(url)
    try:
        assert isinstance(store, DuckDBStore)
        add_node(store)
    finally:
        store.close()
    assert (tmp_path / "abs.duckdb").is_file()


@pytest.mark.parametrize("url", ["duckdb://", "duckdb://:memory:", "duckdb:///:memory:"])
def test_in_memory_database(url: str) -> None:
    with DuckDBStore.from_url(url) as store:
        nodes = add_chain(store, 3)
        reached = store.traverse(G, nodes[0].id, direction="out")
        assert [r.node.id for r in reached] == [n.id for n in nodes[1:]]


@pytest.mark.parametrize("url", ["duckdb:/x.duckdb", "duckdb://relative.duckdb", "duckdb:///"])
def test_malformed_urls_are_refused(url: str) -> None:
    with pytest.raises(UnsupportedStore):
        DuckDBStore.from_url(url)


def test_data_persists_across_reopen(db_path: Path) -> None:
    with DuckDBStore(db_path) as store:
        nodes = add_chain(store, 5)
        store.append(G, [tombstoned(nodes[4])])
        before = (
            store.nodes(G, include_tombstoned=True),
            store.edges(G, include_tombstoned=True),
            [event_key(e) for e in store.events(G)],
            store.head(G),
            store.traverse(G, nodes[0].id, direction="out"),
        )
    with DuckDBStore(db_path) as store:
        after = (
            store.nodes(G, include_tombstoned=True),
            store.edges(G, include_tombstoned=True),
            [event_key(e) for e in store.events(G)],
            store.head(G),
            store.traverse(G, nodes[0].id, direction="out"),
        )
        assert after == before
        assert store.graphs() == [G]
        assert store.search(G, "step")[0].node.id in {n.id for n in nodes[:4]}
        assert verify(store, G).ok


def test_every_field_round_trips_through_the_file(db_path: Path) -> None:
    meta = {"k": [1, 2.5, "x", None, True], "nested": {"é": "ü"}}
    with DuckDBStore(db_path) as store:
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
    with DuckDBStore(db_path) as store:
        assert store.get_node(G, a.id) == a
        assert store.get_edge(G, edge.id) == edge
        stored_b = store.get_node(G, b.id)
        assert stored_b.tombstoned and stored_b.tombstone_reason == "mistake"


def test_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("this is not a database, " * 100)
    with pytest.raises(StoreError, match=r"notes\.txt"):
        DuckDBStore(path)


def test_missing_directory_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        DuckDBStore(tmp_path / "no" / "such" / "dir.duckdb")


def test_a_second_process_is_refused_while_the_file_is_open(
    duck_store: DuckDBStore, db_path: Path
) -> None:
    """DuckDB lets one process write a file; another gets a StoreError, not a corrupt file."""
    add_node(duck_store)
    code = (
        "import sys\n"
        "from decisis.errors import StoreError\n"
        "from decisis.stores.duckdb_store import DuckDBStore\n"
        "try:\n    DuckDBStore(sys.argv[1])\n"
        "except StoreError as exc:\n    print(exc); sys.exit(3)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db_path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3, done.stderr
    assert "cannot open DuckDB database" in done.stdout
    assert verify(duck_store, G).ok


def test_a_closed_store_refuses_work(db_path: Path) -> None:
    store = DuckDBStore(db_path)
    store.close()
    with pytest.raises(StoreError):
        store.nodes(G)
    store.close()  # closing twice is harmless


def test_threads_share_one_store(duck_store: DuckDBStore) -> None:
    """Threads take turns on the one connection; every write lands and the chain holds."""
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(10):
                add_node(duck_store)
                duck_store.nodes(G, limit=5, newest_first=True)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(duck_store.nodes(G)) == 40
    assert duck_store.head(G)[0] == 40
    assert verify(duck_store, G).ok


def test_the_store_connection_draws_no_progress_bar(duck_store: DuckDBStore) -> None:
    """A long statement must not print to the terminal of the program holding the store."""
    setting = "SELECT current_setting('enable_progress_bar')"
    assert duck_store._read(lambda c: c.execute(setting).fetchone()) == (False,)
