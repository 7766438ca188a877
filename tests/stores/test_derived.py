"""Derived data in the store, on every backend: bodies round-trip exactly, a stale digest
reads as missing, spaces and graphs stay apart, bad input is refused with nothing written,
and none of it touches the ledger (the head stays, ``verify`` stays green), across reopening
a file store."""

from __future__ import annotations

from pathlib import Path

import pytest

from decisis.errors import InvalidInput
from decisis.stores import Store, open_store
from decisis.stores.replay import verify
from tests.stores.helpers import G, add_node

S = "adr-terms:1"
BODY = '{"tf": [["ci", 3.0], ["github", 1.5]], "é": "ünïcode ✓"}'


def test_bodies_round_trip_by_item_and_digest(store: Store) -> None:
    assert store.get_derived(G, S) == {}
    assert store.put_derived(G, S, {"a": ("d1", BODY), "b": ("d2", "")}) == 2
    assert store.get_derived(G, S) == {"a": BODY, "b": ""}
    assert store.get_derived(G, S, ["b", "missing"]) == {"b": ""}
    assert store.get_derived(G, S, digests={"a": "d1", "b": "old"}) == {"a": BODY}
    assert store.get_derived(G, S, ["a"], digests={"a": "d1", "b": "d2"}) == {"a": BODY}
    assert store.get_derived(G, S, []) == {}


def test_a_put_replaces_the_body_and_digest(store: Store) -> None:
    store.put_derived(G, S, {"a": ("d1", "old body")})
    store.put_derived(G, S, {"a": ("d2", "new body")})
    assert store.get_derived(G, S, digests={"a": "d1"}) == {}
    assert store.get_derived(G, S, digests={"a": "d2"}) == {"a": "new body"}
    assert store.derived_spaces(G) == {S: 1}


def test_spaces_and_graphs_are_apart(store: Store) -> None:
    store.put_derived(G, S, {"a": ("d", "one")})
    store.put_derived(G, "adr-terms:2", {"a": ("d", "two")})
    store.put_derived("other", S, {"a": ("d", "three")})
    assert store.get_derived(G, S) == {"a": "one"}
    assert store.get_derived(G, "adr-terms:2") == {"a": "two"}
    assert store.get_derived("other", S) == {"a": "three"}
    assert store.derived_spaces(G) == {S: 1, "adr-terms:2": 1}


def test_delete_items_or_a_space(store: Store) -> None:
    store.put_derived(G, S, {"a": ("d", "1"), "b": ("d", "2"), "c": ("d", "3")})
    store.put_derived(G, "keep", {"a": ("d", "1")})
    assert store.delete_derived(G, S, ["a", "nope"]) == 1
    assert store.get_derived(G, S) == {"b": "2", "c": "3"}
    assert store.delete_derived(G, S) == 2
    assert store.get_derived(G, S) == {}
    assert store.derived_spaces(G) == {"keep": 1}


def test_many_items_in_one_call(store: Store) -> None:
    items = {f"item-{i}": (f"d{i}", f"body {i}") for i in range(1_200)}  # over one IN chunk
    assert store.put_derived(G, S, items) == 1_200
    asked = [f"item-{i}" for i in range(0, 1_200, 2)]
    found = store.get_derived(G, S, asked, digests={k: v[0] for k, v in items.items()})
    assert found == {k: items[k][1] for k in asked}


@pytest.mark.parametrize(
    ("space", "items", "field"),
    [
        ("", {"a": ("d", "b")}, "space"),
        (S, {"": ("d", "b")}, "item"),
        (S, {"a": ("d",)}, "items['a']"),
        (S, {"a": ("d", 3)}, "body"),
        (S, {"a": (None, "b")}, "digest"),
        (S, {"a": ("d", "nul \x00 here")}, "body"),
        (S, [("a", ("d", "b"))], "items"),
    ],
)
def test_bad_input_is_refused_with_nothing_written(
    store: Store, space: str, items: object, field: str
) -> None:
    good = {"fine": ("d", "kept")}
    with pytest.raises(InvalidInput) as raised:
        store.put_derived(G, space, {**good, **items} if isinstance(items, dict) else items)  # type: ignore[arg-type]
    assert raised.value.field == field
    assert store.get_derived(G, S) == {}


def test_derived_data_is_not_in_the_ledger(store: Store) -> None:
    node = add_node(store)
    head = store.head(G)
    store.put_derived(G, S, {node.id: ("d", BODY)})
    store.delete_derived(G, S, [node.id])
    store.put_derived(G, S, {node.id: ("d", BODY)})
    assert store.head(G) == head
    assert [e.seq for e in store.events(G)] == [head[0]]
    assert verify(store, G).ok


@pytest.mark.parametrize("scheme", ["sqlite", "duckdb"])
def test_bodies_outlive_the_process_that_put_them(tmp_path: Path, scheme: str) -> None:
    url = f"{scheme}:///{tmp_path / 'kept.db'}"
    with open_store(url) as first:
        first.put_derived(G, S, {"a": ("d1", BODY)})
    with open_store(url) as second:
        assert second.get_derived(G, S, digests={"a": "d1"}) == {"a": BODY}
