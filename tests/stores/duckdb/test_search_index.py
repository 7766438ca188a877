"""DuckDB's own search index (``node_terms``): kept in step with every change to a node's
text, in the same transaction, and queried with bound words only."""

from __future__ import annotations

from pathlib import Path

import pytest

from decisis.errors import NotFound
from decisis.model import new_id
from decisis.stores.duckdb_store import DuckDBStore
from tests.stores.duckdb.raw import query
from tests.stores.helpers import G, add_node, ids, make_node, node_added, node_updated


def test_renaming_a_node_moves_it_in_the_index(duck_store: DuckDBStore) -> None:
    node = add_node(duck_store, label="Adopt Kafka", rationale="ordered events")
    duck_store.append(G, [node_updated(node, label="Adopt Pulsar")])
    assert duck_store.search(G, "kafka") == []
    assert ids(duck_store.search(G, "pulsar")) == [node.id]
    assert ids(duck_store.search(G, "ordered")) == [node.id]
    duck_store.append(G, [node_updated(node, rationale="geo replication")])
    assert duck_store.search(G, "ordered") == []
    assert ids(duck_store.search(G, "replication")) == [node.id]


def test_a_refused_batch_leaves_the_index_as_it_was(duck_store: DuckDBStore) -> None:
    kept = add_node(duck_store, label="Keep Redis")
    fresh = make_node("Try Memcached")
    refused = [
        node_added(fresh),
        node_updated(kept, label="Drop Redis"),
        node_updated(new_id(), label="no such node"),
    ]
    with pytest.raises(NotFound):
        duck_store.append(G, refused)
    assert duck_store.search(G, "memcached") == []
    assert duck_store.search(G, "drop") == []
    assert ids(duck_store.search(G, "keep")) == [kept.id]


def test_words_are_letters_and_digits_lower_cased(duck_store: DuckDBStore) -> None:
    node = add_node(duck_store, label="Café_Menü v2 — HTTP/3")
    for word in ("café", "CAFÉ", "menü", "v2", "http", "3"):
        assert ids(duck_store.search(G, word)) == [node.id], word
    assert duck_store.search(G, "cafe") == []  # accents are kept, as the memory store keeps them


def test_query_text_is_never_sql(duck_store: DuckDBStore) -> None:
    node = add_node(duck_store, label="Drop the legacy tables")
    hits = duck_store.search(G, "'; DROP TABLE nodes; -- drop")
    assert ids(hits) == [node.id]
    assert len(duck_store.nodes(G)) == 1


def test_label_words_weigh_more_than_rationale_words(duck_store: DuckDBStore) -> None:
    in_rationale = add_node(duck_store, label="Pick a broker", rationale="maybe kafka")
    in_label = add_node(duck_store, label="Kafka everywhere", rationale="one broker")
    assert ids(duck_store.search(G, "kafka")) == [in_label.id, in_rationale.id]


def test_index_rows_follow_the_nodes(db_path: Path) -> None:
    with DuckDBStore(db_path) as store:
        node = add_node(store, label="Use Terraform Terraform", rationale="modules")
    rows = query(
        db_path, "SELECT term, tf, dl FROM node_terms WHERE id = ? ORDER BY term", (node.id,)
    )
    assert rows == [("modules", 1.0, 7.0), ("terraform", 4.0, 7.0), ("use", 2.0, 7.0)]
