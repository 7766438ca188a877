"""The version index behind ``at(t)`` on every backend: made by the first view, kept
beside the ledger (not in it), caught up or folded over as the ledger grows, and never
trusted over the ledger: one missing, of another ledger, damaged, or that a read-only
store cannot keep is made again or passed over, and the answer is the full replay's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decisis.errors import IntegrityError, StoreError
from decisis.stores import Store, open_store
from decisis.stores.past_index import HEAD, SPACE, catch_up, read_head
from decisis.stores.past_lazy import LazyRecords
from decisis.stores.past_view import view_at
from decisis.stores.replay import verify
from tests.stores.helpers import BACKENDS, G, at, node_updated
from tests.stores.past_helpers import build, same_as_full_replay
from tests.stores.read_only import read_only_copy

HISTORY = [("node", i, 1) for i in range(12)] + [
    (kind, i, 1)
    for i in range(12)
    for kind in ("edge", "update", "until", "supersede", "judge", "tombstone edge")
]
LATE = at(80)


def _indexed(store: Store, ops: list[tuple[str, int, int]] = HISTORY) -> int:
    """Build the history and view it at ``LATE``: the index is made; the entries it holds."""
    build(store, ops)
    view = view_at(store, G, LATE)
    assert isinstance(view._graph(G).state.nodes, LazyRecords)  # from the index
    same_as_full_replay(store, view, LATE)
    head = read_head(store, G)
    assert head is not None and (head.seq, head.checksum) == store.head(G)
    return head.seq


def test_the_first_view_makes_the_index_outside_the_ledger(store: Store) -> None:
    before = [e.checksum for e in store.events(G)]
    _indexed(store)
    assert store.derived_spaces(G)[SPACE] > 1
    assert verify(store, G).ok
    for minute in (-1, 0, 5, 30, 60, 200):
        same_as_full_replay(store, view_at(store, G, at(minute)), at(minute))
    assert [e.checksum for e in store.events(G)][: len(before)] == before


def test_a_growing_ledger_is_folded_over_then_caught_up(store: Store) -> None:
    seq = _indexed(store)
    more = [("node", 40 + i, 1) for i in range(6)] + [("update", i, 1) for i in range(6)]
    build(store, more)  # 12 entries more, the index 12 behind
    view = view_at(store, G, at(500), tail=100)  # under the tail: folded over, none kept
    same_as_full_replay(store, view, at(500))
    assert read_head(store, G).seq == seq  # type: ignore[union-attr]
    view = view_at(store, G, at(500), tail=5)  # over it: the index caught up first
    same_as_full_replay(store, view, at(500))
    assert (read_head(store, G).seq, read_head(store, G).checksum) == store.head(G)  # type: ignore[union-attr]
    for minute in (20, 60, 85, 500):
        same_as_full_replay(store, view_at(store, G, at(minute)), at(minute))


def test_a_catch_up_from_a_head_another_moved_keeps_nothing(store: Store) -> None:
    _indexed(store)
    old = read_head(store, G)
    build(store, [("node", 90, 1), ("update", 1, 1)])
    moved = catch_up(store, G, old)
    assert moved is not None and moved.seq == store.head(G)[0]
    build(store, [("update", 2, 1)])
    kept = store.get_derived(G, SPACE)
    assert catch_up(store, G, old) is None  # started from ``old``: the index is past it
    assert store.get_derived(G, SPACE) == kept


def test_a_missing_index_is_made_again(store: Store) -> None:
    _indexed(store)
    store.delete_derived(G, SPACE, [HEAD])
    _indexed(store, [])


def test_an_index_of_another_ledger_is_made_again(tmp_path: Path, store: Store) -> None:
    """The same graph name, other records: the index's head entry is not in this ledger."""
    other = BACKENDS["memory"](tmp_path)
    _indexed(other)
    build(store, HISTORY[:-6] + [("node", 77, 1)] * 6)
    copied = {k: ("copied", body) for k, body in other.get_derived(G, SPACE).items()}
    store.put_derived(G, SPACE, copied)
    for moment in (at(10), at(40), LATE):
        same_as_full_replay(store, view_at(store, G, moment), moment)
    head = read_head(store, G)
    assert head is not None and (head.seq, head.checksum) == store.head(G)
    mine = {
        r.id
        for r in [
            *store.nodes(G, include_tombstoned=True),
            *store.edges(G, include_tombstoned=True),
        ]
    }
    assert {k for k in store.get_derived(G, SPACE) if not k.startswith("~")} <= mine


@pytest.mark.parametrize("what", ["head", "chunk"])
def test_a_damaged_head_or_chunk_is_passed_over_and_made_again(store: Store, what: str) -> None:
    _indexed(store)
    item = HEAD if what == "head" else "~at:000000000000"
    store.put_derived(G, SPACE, {item: ("edited", "{not json")})
    same_as_full_replay(store, view_at(store, G, LATE), LATE)
    same_as_full_replay(store, view_at(store, G, at(30)), at(30))
    assert read_head(store, G) is not None


def test_a_damaged_record_names_the_index_and_the_next_view_makes_it_again(store: Store) -> None:
    _indexed(store)
    node = store.nodes(G)[0].id
    body = json.loads(store.get_derived(G, SPACE, [node])[node])
    for version in body["v"]:
        version[1] = ["not", "a", "node"]
    store.put_derived(G, SPACE, {node: ("edited", json.dumps(body))})
    view = view_at(store, G, LATE)
    with pytest.raises(IntegrityError, match="version index of at"):
        view.get_node(G, node)
    assert SPACE not in store.derived_spaces(G)  # dropped
    _indexed(store, [])


def test_the_views_records_are_read_from_the_open_source(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/t.db")
    _indexed(store)
    view = view_at(store, G, LATE)
    node = store.nodes(G)[0].id
    assert view.get_node(G, node).id == node
    store.close()
    assert view.get_node(G, node).id == node  # read before: kept in the view
    with pytest.raises(StoreError):
        view.nodes(G)


def test_a_write_to_a_view_reads_every_record_first(store: Store) -> None:
    _indexed(store)
    view = view_at(store, G, LATE)
    full = view_at(store, G, LATE, index=False)
    node = store.nodes(G)[0].id
    for target in (view, full):
        target.append(G, [node_updated(node, at(81), label="later")])
    assert view.nodes(G, include_tombstoned=True) == full.nodes(G, include_tombstoned=True)
    assert view.edges(G, include_tombstoned=True) == full.edges(G, include_tombstoned=True)


def test_a_whole_id_is_resolved_alone_and_a_prefix_reads_every_id(store: Store) -> None:
    _indexed(store)
    view = view_at(store, G, at(5))
    full = view_at(store, G, at(5), index=False)
    known, later = store.nodes(G)[0].id, store.nodes(G)[-1].id
    assert view.resolve_prefix(G, known.upper()) == known == full.resolve_prefix(G, known)
    for target in (view, full):
        with pytest.raises(LookupError):
            target.resolve_prefix(G, later)  # not yet recorded at that moment
    assert view.resolve_prefix(G, known[:20]) == known


def test_a_read_only_file_answers_alike(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with open_store(f"sqlite:///{path}") as writable:
        build(writable, HISTORY)
    with read_only_copy(path, tmp_path) as copy, open_store(f"sqlite:///{copy}") as store:
        same_as_full_replay(store, view_at(store, G, LATE), LATE)
        assert store.derived_spaces(G) == {}


def test_a_read_only_file_with_an_index_behind_folds_over_it(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with open_store(f"sqlite:///{path}") as writable:
        seq = _indexed(writable)
        build(writable, [("node", 50 + i, 1) for i in range(8)])
    with read_only_copy(path, tmp_path) as copy, open_store(f"sqlite:///{copy}") as store:
        for moment in (at(30), at(500)):
            view = view_at(store, G, moment, tail=3)  # behind by more: cannot be caught up
            assert isinstance(view._graph(G).state.nodes, LazyRecords)
            same_as_full_replay(store, view, moment)
        assert read_head(store, G).seq == seq  # type: ignore[union-attr]
