"""Search: only what every backend's ranking agrees on (the memory store matches words,
SQLite uses FTS5), so the tests ask for robust things, not exact scores."""

from __future__ import annotations

import pytest

from decisis.errors import InvalidInput
from decisis.stores import Store
from tests.stores.helpers import G, add_node, at, ids, tombstoned


def test_a_distinctive_word_in_a_label_is_found(store: Store) -> None:
    add_node(store, label="Use PostgreSQL for the billing service")
    wanted = add_node(store, label="Adopt Kubernetes for deployments")
    add_node(store, label="Write the runbook")
    hits = store.search(G, "kubernetes")
    assert ids(hits) == [wanted.id]
    assert hits[0].score > 0
    assert ids(store.search(G, "KUBERNETES")) == [wanted.id]


def test_rationale_is_searched_too(store: Store) -> None:
    wanted = add_node(store, label="Pick a queue", rationale="RabbitMQ is already deployed")
    add_node(store, label="Pick a cache")
    assert ids(store.search(G, "rabbitmq")) == [wanted.id]


def test_a_node_matching_more_words_ranks_first(store: Store) -> None:
    both = add_node(store, label="Kafka cluster sizing")
    add_node(store, label="Kafka topic naming")
    hits = store.search(G, "kafka cluster")
    assert ids(hits)[0] == both.id


def test_no_match_is_an_empty_list(store: Store) -> None:
    add_node(store, label="Use PostgreSQL")
    assert store.search(G, "zeppelin") == []
    assert store.search("other graph", "postgresql") == []


def test_limit_is_respected(store: Store) -> None:
    made = {add_node(store, label=f"Observability item {i}").id for i in range(5)}
    hits = store.search(G, "observability", limit=3)
    assert len(hits) == 3
    assert set(ids(hits)) <= made
    assert len(store.search(G, "observability")) == 5
    with pytest.raises(InvalidInput):
        store.search(G, "observability", limit=-1)


def test_search_leaves_out_tombstoned_and_not_yet_valid_nodes(store: Store) -> None:
    gone = add_node(store, label="Terraform everything")
    late = add_node(store, label="Terraform modules", when=at(10))
    store.append(G, [tombstoned(gone)])
    assert ids(store.search(G, "terraform")) == [late.id]
    assert store.search(G, "terraform", as_of=at(5)) == []
