"""Full-text search on FTS5: hostile text never reaches the query syntax, the index follows
every change, and bm25 ranks labels above rationale."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import pytest

from decisis.model import format_time, new_id
from decisis.stores.sqlite import SQLiteStore
from decisis.stores.sqlite.queries import fts_query
from tests.stores.helpers import G, add_node, at, ids, node_updated, tombstoned

HOSTILE = [
    '"',
    '""',
    "'",
    'jwt"',
    '"jwt',
    'a"b"c',
    "NEAR(jwt tokens)",
    "NEAR(jwt tokens, 2)",
    "jwt NEAR tokens",
    "*",
    "jwt*",
    "^jwt",
    "(",
    ")",
    "(jwt OR",
    "AND",
    "OR",
    "NOT",
    "jwt AND NOT tokens",
    "-jwt",
    "label:jwt",
    "{label rationale}: jwt",
    "rationale : *",
    "+",
    "\\",
    "'; DROP TABLE nodes; --",
    "\x00",
    "🔑 tokens",
    "jwt " * 2000,
    "",
    "   ",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_do_not_raise(sqlite_store: SQLiteStore, query: str) -> None:
    add_node(sqlite_store, label="Use JWT tokens", rationale="stateless (and simple)")
    hits = sqlite_store.search(G, query)
    assert isinstance(hits, list)
    assert len(sqlite_store.nodes(G)) == 1  # and nothing was harmed


def test_operators_are_read_as_words(sqlite_store: SQLiteStore) -> None:
    near = add_node(sqlite_store, label="Stay near the data centre")
    add_node(sqlite_store, label="Use JWT tokens")
    assert ids(sqlite_store.search(G, "NEAR")) == [near.id]
    assert ids(sqlite_store.search(G, "near(")) == [near.id]


def test_free_text_becomes_quoted_words_or_ed() -> None:
    assert fts_query('Use "JWT" tokens') == '"use" OR "jwt" OR "tokens"'
    assert fts_query("label:jwt NEAR(x)") == '"label" OR "jwt" OR "near" OR "x"'
    assert fts_query("jwt jwt JWT") == '"jwt"'
    assert fts_query("*** ()") is None


def test_label_outranks_rationale(sqlite_store: SQLiteStore) -> None:
    in_rationale = add_node(sqlite_store, label="Pick a queue", rationale="Kafka is there")
    in_label = add_node(sqlite_store, label="Kafka for events", rationale="Pick a queue")
    hits = sqlite_store.search(G, "kafka")
    assert ids(hits) == [in_label.id, in_rationale.id]
    assert hits[0].score > hits[1].score > 0


def test_the_index_follows_updates(sqlite_store: SQLiteStore) -> None:
    node = add_node(sqlite_store, label="Use Redis", rationale="fast")
    sqlite_store.append(G, [node_updated(node, label="Use Memcached", rationale="simpler")])
    assert sqlite_store.search(G, "redis") == []
    assert sqlite_store.search(G, "fast") == []
    assert ids(sqlite_store.search(G, "memcached simpler")) == [node.id]


def test_the_index_keeps_tombstoned_nodes_out(sqlite_store: SQLiteStore) -> None:
    node = add_node(sqlite_store, label="Use Redis")
    sqlite_store.append(G, [tombstoned(node)])
    assert sqlite_store.search(G, "redis") == []


def test_graphs_do_not_see_each_other(sqlite_store: SQLiteStore) -> None:
    mine = add_node(sqlite_store, label="Use Redis")
    add_node(sqlite_store, graph="other", label="Use Redis too")
    assert ids(sqlite_store.search(G, "redis")) == [mine.id]


def test_the_index_matches_the_table(sqlite_store: SQLiteStore, raw: sqlite3.Connection) -> None:
    """FTS5's own integrity check compares the index with its content table."""
    nodes = [add_node(sqlite_store, label=f"Decision {i}", rationale="why") for i in range(5)]
    sqlite_store.append(G, [node_updated(nodes[0], label="Changed", rationale=None)])
    sqlite_store.append(G, [tombstoned(nodes[1])])
    raw.execute("INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('integrity-check', 1)")


# -- ranking inside FTS5 first gives what ranking every match gives -------------------------

# The query that joins every match to its node: the answer the store's search must equal.
EVERY_MATCH = """
    SELECT n.id, -bm25(nodes_fts, 2.0, 1.0) AS score
    FROM nodes_fts JOIN nodes n ON n.pk = nodes_fts.rowid
    WHERE nodes_fts MATCH :query AND n.graph = :graph AND n.tombstoned_at IS NULL
      AND (:as_of IS NULL OR (n.recorded_at <= :as_of AND n.valid_from <= :as_of
           AND (n.valid_until IS NULL OR :as_of < n.valid_until)))
    ORDER BY score DESC, n.id LIMIT :limit
"""


def _agrees(
    store: SQLiteStore, raw: sqlite3.Connection, text: str, as_of: datetime | None = None
) -> None:
    for limit in (1, 2, 3, 5, 8, 13, 40, 100):
        hits = store.search(G, text, limit=limit, as_of=as_of)
        params = {
            "query": fts_query(text),
            "graph": G,
            "limit": limit,
            "as_of": None if as_of is None else format_time(as_of),
        }
        expected = raw.execute(EVERY_MATCH, params).fetchall()
        assert [(h.node.id, h.score) for h in hits] == expected, limit


def test_better_matches_in_another_graph_do_not_crowd_this_one_out(
    sqlite_store: SQLiteStore, raw: sqlite3.Connection
) -> None:
    for i in range(60):
        add_node(sqlite_store, graph="other", label=f"cache cache cache {i}")
    for i in range(7):
        add_node(sqlite_store, label=f"cache for the reports of week {i}", rationale="x " * i)
    _agrees(sqlite_store, raw, "cache")


def test_tombstoned_best_matches_are_skipped(
    sqlite_store: SQLiteStore, raw: sqlite3.Connection
) -> None:
    best = [add_node(sqlite_store, label=f"queue billing {i}") for i in range(40)]
    for i in range(9):
        add_node(sqlite_store, label=f"a queue for the billing run {i}", rationale="y " * i)
    sqlite_store.append(G, [tombstoned(node) for node in best])
    _agrees(sqlite_store, raw, "queue billing")


def test_ties_at_the_cut_are_broken_by_id_as_before(
    sqlite_store: SQLiteStore, raw: sqlite3.Connection
) -> None:
    for node_id in sorted((new_id() for _ in range(50)), reverse=True):  # ids against rowids
        add_node(sqlite_store, label="Use Kafka for events", id=node_id)
    add_node(sqlite_store, label="Kafka Kafka")
    _agrees(sqlite_store, raw, "kafka events")


def test_as_of_leaves_out_matches_recorded_later(
    sqlite_store: SQLiteStore, raw: sqlite3.Connection
) -> None:
    for i in range(40):
        add_node(sqlite_store, label=f"auth sessions {i}", when=at(100 + i))
    for i in range(6):
        add_node(sqlite_store, label=f"auth with sessions {i}", rationale="z " * i, when=at(i))
    for minute in (3, 50, 120, 200):
        _agrees(sqlite_store, raw, "auth sessions", as_of=at(minute))
    _agrees(sqlite_store, raw, "auth sessions")
