"""PostgreSQL full-text search: query text is words to find, never syntax to run."""

from __future__ import annotations

import pytest

from decisis.stores.postgres import PostgresStore
from tests.stores.helpers import G, add_node, ids


@pytest.mark.parametrize(
    "text",
    [
        "kafka' OR 1=1 --",
        "kafka & !cluster | (x <-> y):*",
        "kafka'); DROP TABLE nodes; --",
        "kafka\\ %s %(graph)s {columns}",
    ],
)
def test_hostile_text_is_only_words(pg_store: PostgresStore, text: str) -> None:
    wanted = add_node(pg_store, label="Kafka cluster sizing")
    assert ids(pg_store.search(G, text))[:1] == [wanted.id]
    assert len(pg_store.nodes(G)) == 1


def test_words_match_any_and_the_label_weighs_more(pg_store: PostgresStore) -> None:
    in_label = add_node(pg_store, label="Adopt Kubernetes", rationale="ops asked")
    in_rationale = add_node(pg_store, label="Pick a scheduler", rationale="kubernetes has one")
    add_node(pg_store, label="Nothing relevant")
    hits = pg_store.search(G, "kubernetes nomad")
    assert ids(hits) == [in_label.id, in_rationale.id]
    assert hits[0].score > hits[1].score > 0


def test_punctuation_only_finds_nothing(pg_store: PostgresStore) -> None:
    add_node(pg_store, label="Kafka")
    assert pg_store.search(G, "&|!():*") == []
