"""A store written before the Merkle tree existed opens with an empty one and catches it up:
on its first append, or on its first checkpoint (SQLite, DuckDB, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from decisis.graph import Graph, new_key
from decisis.proof import leaf_hash, root_of
from decisis.stores import Store
from decisis.stores.merkle import leaf_data, root_at
from tests.stores.raw_stores import RAW_BACKENDS, rewind

TREE_MIGRATION = {"sqlite": 7, "duckdb": 5, "pg": 7}


def _agrees(store: Store) -> bool:
    leaves = [leaf_hash(leaf_data(e)) for e in store.events("g")]
    size = store.tree_size("g")
    fetch = lambda keys: store.tree_hashes("g", keys)  # noqa: E731
    return size == len(leaves) and root_at(size, fetch) == root_of(leaves)


@pytest.mark.parametrize("name", sorted(RAW_BACKENDS))
@pytest.mark.parametrize("first", ["append", "checkpoint"])
def test_an_old_store_catches_its_tree_up(name: str, first: str, tmp_path: Path) -> None:
    with RAW_BACKENDS[name](tmp_path) as (opener, raw, _):
        store: Any = opener()
        graph = Graph(store, "g")
        for i in range(37):
            graph.add_goal(f"goal {i}")
        store.close()
        rewind(raw, TREE_MIGRATION[name])  # as before the tree's migration
        store = opener()
        try:
            graph = Graph(store, "g")
            assert store.tree_size("g") == 0  # the migration made it, empty
            if first == "append":
                graph.add_goal("the first after the upgrade")
            else:
                private, public, _ = new_key(tmp_path / "k")
                checkpoint = graph.checkpoint(private)
                assert checkpoint["size"] == 37
                assert graph.verify(checkpoint=checkpoint, key=public).ok
            assert _agrees(store)
            graph.add_goal("and on")
            assert _agrees(store)
        finally:
            store.close()
