"""Kept snapshots of the fold on every backend: taken when a view replays ``every`` entries
or more, none for a short history, and never trusted over the ledger: one from another
ledger, one whose body or mark was edited, one that does not decode, and a missing one
are each passed over for the ledger, and the answer is the full replay's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from decisis.errors import StoreError
from decisis.stores import Store, open_store
from decisis.stores.fold_snapshots import (
    INDEX_SPACE,
    STATE_SPACE,
    Mark,
    crowded,
    forget_decoded,
    marks,
)
from decisis.stores.past_view import view_at
from decisis.stores.replay import verify
from tests.stores.helpers import BACKENDS, G, at
from tests.stores.past_helpers import build, same_as_full_replay
from tests.stores.read_only import read_only_copy

EVERY = 10
HISTORY = [("node", i, 1) for i in range(12)] + [
    (kind, i, 1) for i in range(12) for kind in ("edge", "update", "until")
]  # 48 entries over 48 minutes
LATE = at(45)  # in the last tenth of the history


def _kept(store: Store) -> dict[str, str]:
    return store.get_derived(G, STATE_SPACE)


def _snapshot_taken(store: Store) -> int:
    """Build the history and view it at ``LATE``: a snapshot is kept at the last multiple
    of ``EVERY`` the replay passed; its seq."""
    build(store, HISTORY)
    same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
    seq = len(list(store.events(G, until=LATE))) // EVERY * EVERY
    assert seq >= 2 * EVERY
    assert [m.seq for m in marks(store, G)] == [seq]
    forget_decoded()  # what follows reads the kept bodies, as a new process would
    return seq


def test_a_long_replay_keeps_a_snapshot_and_the_next_view_starts_from_it(store: Store) -> None:
    seq = _snapshot_taken(store)
    head = store.head(G)
    for minute in (41, 45, 48):  # from the snapshot: nothing new to keep
        same_as_full_replay(
            store, view_at(store, G, at(minute), every=EVERY, index=False), at(minute)
        )
    assert [m.seq for m in marks(store, G)] == [seq]
    assert store.head(G) == head and verify(store, G).ok  # derived data: the ledger is as it was


def test_a_short_history_keeps_no_snapshot(store: Store) -> None:
    build(store, HISTORY[: EVERY - 1])
    same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
    assert store.derived_spaces(G) == {}


def test_a_moment_before_the_snapshot_replays_from_the_start(store: Store) -> None:
    _snapshot_taken(store)
    same_as_full_replay(store, view_at(store, G, at(30), every=EVERY, index=False), at(30))


def test_a_snapshot_of_another_ledger_is_passed_over(tmp_path: Path, store: Store) -> None:
    """The same graph name and length, other records: the entry at the snapshot's seq has
    another checksum, so the ledger answers, and the stale snapshot is dropped."""
    other = BACKENDS["memory"](tmp_path)
    seq = _snapshot_taken(other)
    build(store, HISTORY)
    index = _index(other)
    ((item, state),) = _kept(other).items()
    store.put_derived(G, STATE_SPACE, {item: (json.loads(index)["sha"], state)})
    store.put_derived(G, INDEX_SPACE, {item: ("copied", index)})
    assert [m.seq for m in marks(store, G)] == [seq]
    view = view_at(
        store, G, LATE, every=EVERY * 100, index=False
    )  # too few entries to keep a new one
    same_as_full_replay(store, view, LATE)
    assert marks(store, G) == []


def _index(store: Store) -> str:
    (body,) = store.get_derived(G, INDEX_SPACE).values()
    return body


def _edit_state(store: Store, edit: str, *, rehash: bool) -> None:
    """Replace the kept state with ``edit`` of it, under the old digest or (``rehash``) with
    the mark and digest made to agree with the edited body."""
    ((item, body),) = _kept(store).items()
    mark = json.loads(_index(store))
    new_body = body.replace(edit, edit.upper()) if edit else "{not json"
    assert new_body != body
    sha = hashlib.sha256(new_body.encode()).hexdigest() if rehash else mark["sha"]
    store.put_derived(G, STATE_SPACE, {item: (sha, new_body)})
    if rehash:
        store.put_derived(G, INDEX_SPACE, {item: ("edited", json.dumps(mark | {"sha": sha}))})


def test_an_edited_state_body_is_passed_over(store: Store) -> None:
    seq = _snapshot_taken(store)
    _edit_state(store, "renamed", rehash=False)
    same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
    assert [m.seq for m in marks(store, G)] == [seq]  # the replay kept a good one again
    assert "RENAMED" not in next(iter(_kept(store).values()))


def test_a_body_that_does_not_decode_is_passed_over(store: Store) -> None:
    seq = _snapshot_taken(store)
    _edit_state(store, "", rehash=True)  # hashes right, is no state
    same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
    assert [m.seq for m in marks(store, G)] == [seq]


@pytest.mark.parametrize(
    "edit",
    [
        {"checksum": "sha256:" + "0" * 64},  # names another entry
        {"reach": "2027-01-01T00:00:00.000000Z"},  # later than any moment asked: not used
        {"sha": "0" * 64},  # the body does not hash to it
        {"seq": "forty"},  # not a mark at all
    ],
)
def test_an_edited_mark_is_passed_over(store: Store, edit: dict[str, str]) -> None:
    _snapshot_taken(store)
    ((item, body),) = store.get_derived(G, INDEX_SPACE).items()
    store.put_derived(G, INDEX_SPACE, {item: ("edited", json.dumps(json.loads(body) | edit))})
    same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)


def test_a_missing_state_body_is_passed_over(store: Store) -> None:
    seq = _snapshot_taken(store)
    store.delete_derived(G, STATE_SPACE)
    same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
    assert [m.seq for m in marks(store, G)] == [seq]


def test_a_state_remembered_in_the_process_is_used_only_for_its_mark(store: Store) -> None:
    """Reading the snapshot again in the same process copies the state decoded before,
    folding on the copy; a mark that names another body (edited) reads the store again."""
    seq = _snapshot_taken(store)
    for _ in range(2):  # decoded, then remembered: the same answer, the copy untouched
        same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
    _edit_state(store, "renamed", rehash=True)  # a mark and body that agree, but edited
    view = view_at(store, G, LATE, every=EVERY, index=False)
    assert any("RENAMED" in n.label for n in view.nodes(G, include_tombstoned=True))
    assert [m.seq for m in marks(store, G)] == [seq]


def test_the_views_ledger_is_read_from_the_open_source(store: Store) -> None:
    """A view answers from its tables alone; its ledger is read from the store when first
    asked for, so that needs the store still open."""
    _snapshot_taken(store)
    view = view_at(store, G, LATE, every=EVERY, index=False)
    nodes = view.nodes(G)
    store.close()
    assert view.nodes(G) == nodes
    with pytest.raises(StoreError):
        list(view.events(G))


def test_a_read_only_file_answers_alike_and_keeps_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with open_store(f"sqlite:///{path}") as writable:
        build(writable, HISTORY)
    with read_only_copy(path, tmp_path) as copy, open_store(f"sqlite:///{copy}") as store:
        same_as_full_replay(store, view_at(store, G, LATE, every=EVERY, index=False), LATE)
        assert store.derived_spaces(G) == {}


def test_the_snapshots_kept_stay_spread_over_the_history() -> None:
    def mark(seq: int) -> Mark:
        return Mark(seq, "c", at(0), "s")

    kept = [mark(s) for s in (1000, 2000, 3000, 4000)]
    assert crowded(kept, keeping=4000) == []
    assert [m.seq for m in crowded([*kept, mark(5000)], keeping=5000)] == [1000]
    # one kept far back, where a reader looked: the bunch at the end thins instead
    bunch = [mark(s) for s in (90_000, 91_000, 92_000, 93_000)]
    assert [m.seq for m in crowded([mark(10_000), *bunch], keeping=10_000)] == [91_000]
