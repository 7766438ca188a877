"""Short ids, as with git: a unique prefix (any case) names a node or an edge."""

from __future__ import annotations

import pytest

from decisis.errors import AmbiguousId, NotFound
from decisis.stores import Store
from tests.stores.helpers import G, add_edge, add_node, make_node, tombstoned

# Hand-made ids sharing long prefixes: 26 characters of Crockford base32.
ALPHA = "01abcdefgh" + "000000" + "0000000001"
ALPHA_TWIN = "01abcdefgh" + "000000" + "0000000002"
BETA = "01abcdefgh" + "zzzzzz" + "0000000003"
EDGE = "01abcdefgj" + "000000" + "0000000004"


@pytest.fixture
def known(store: Store) -> Store:
    add_node(store, id=ALPHA)
    add_node(store, id=ALPHA_TWIN)
    add_node(store, id=BETA)
    add_edge(store, ALPHA, BETA, id=EDGE)
    return store


def test_resolve_a_unique_prefix_any_case(known: Store) -> None:
    assert known.resolve_prefix(G, ALPHA) == ALPHA
    assert known.resolve_prefix(G, "01abcdefghz") == BETA
    assert known.resolve_prefix(G, "01ABCDEFGHZ") == BETA
    assert known.resolve_prefix(G, "01abcdefgj") == EDGE  # edges resolve too
    assert known.resolve_prefix(G, ALPHA_TWIN.upper()) == ALPHA_TWIN


def test_resolve_an_ambiguous_prefix(known: Store) -> None:
    with pytest.raises(AmbiguousId) as caught:
        known.resolve_prefix(G, "01abcdefgh0")
    assert caught.value.matches == [ALPHA, ALPHA_TWIN]
    with pytest.raises(AmbiguousId):
        known.resolve_prefix(G, "01ABCDEFG")  # two nodes and the edge


@pytest.mark.parametrize("prefix", ["01abcdefgk", "7zz", "not an id!", "", ALPHA + "0"])
def test_resolve_an_unknown_prefix(known: Store, prefix: str) -> None:
    with pytest.raises(NotFound) as caught:
        known.resolve_prefix(G, prefix)
    assert type(caught.value) is NotFound


def test_resolve_looks_only_in_its_graph(known: Store) -> None:
    with pytest.raises(NotFound):
        known.resolve_prefix("other", "01abcdefghz")


def test_resolve_finds_tombstoned_records(known: Store) -> None:
    known.append(G, [tombstoned(BETA)])
    assert known.resolve_prefix(G, "01abcdefghz") == BETA


def test_short_ids_are_unique_prefixes_of_at_least_min_length(known: Store) -> None:
    short = known.short_ids(G, [ALPHA, ALPHA_TWIN, BETA, EDGE])
    assert short == {
        ALPHA: ALPHA,  # shares 25 characters with its twin
        ALPHA_TWIN: ALPHA_TWIN,
        BETA: "01abcdefghz",
        EDGE: "01abcdefgj",
    }
    for full, prefix in short.items():
        assert known.resolve_prefix(G, prefix) == full


def test_short_ids_honour_min_length(store: Store) -> None:
    lone = add_node(store)
    assert store.short_ids(G, [lone.id]) == {lone.id: lone.id[:8]}
    assert store.short_ids(G, [lone.id], min_length=4) == {lone.id: lone.id[:4]}
    assert store.short_ids(G, [lone.id], min_length=40) == {lone.id: lone.id}
    assert store.short_ids(G, []) == {}


def test_short_ids_of_ids_not_in_the_graph_avoid_the_graphs_ids(known: Store) -> None:
    stranger = "01abcdefgh" + "zzzzzz" + "9999999999"
    assert known.short_ids(G, [stranger]) == {stranger: stranger[:17]}
    fresh = make_node().id
    assert known.short_ids(G, [fresh]) == {fresh: fresh[:8]}
