"""Opening a DuckDB store: URLs, one writing process. Reopening, on every backend, is
``tests/stores/test_open``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from decisis.errors import UnsupportedStore
from decisis.stores import open_store
from decisis.stores.duckdb_store import DuckDBStore
from decisis.stores.replay import verify
from tests.stores.helpers import G, add_chain, add_node


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


def test_the_store_connection_draws_no_progress_bar(duck_store: DuckDBStore) -> None:
    """A long statement must not print to the terminal of the program holding the store."""
    setting = "SELECT current_setting('enable_progress_bar')"
    assert duck_store._read(lambda c: c.execute(setting).fetchone()) == (False,)
