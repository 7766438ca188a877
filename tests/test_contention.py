"""``written_once`` beside a writer that never stops, on every backend: the optimistic tries
meet a moved head, the try under the graph's write lock lands, and a policy without the
lock gives up with ``HeadMoved`` having written nothing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from decisis.contention import DEFAULT_WRITES, NO_WAIT, WritePolicy, written_once
from decisis.errors import HeadMoved, InvalidInput
from decisis.graph import Graph
from decisis.model import Event
from decisis.stores import Store, open_store
from tests.stores.helpers import BACKENDS, G, make_node, node_added

SHARED = ("memory", "duckdb")  # one store object per process: the writer thread shares it
QUICK = WritePolicy(tries=2, first_wait=0.001, max_wait=0.001)


@dataclass
class Steady:
    """A thread appending goals to ``G`` as fast as it can, through its own connection
    where the backend has several (SQLite, PostgreSQL), else through the same store."""

    store: Store
    stop: threading.Event
    thread: threading.Thread
    written: list[int]  # the seq of each goal it wrote
    errors: list[BaseException]


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = BACKENDS[request.param](tmp_path)
    opened.append(G, [node_added(make_node("first"))])
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def steady(store: Store, request: pytest.FixtureRequest) -> Iterator[Steady]:
    backend = request.node.callspec.params["store"]
    other = store if backend in SHARED else open_store(store.url)
    stop, written, errors = threading.Event(), [], []

    def keep_writing() -> None:
        graph = Graph(other, G)
        try:
            while not stop.is_set():
                graph.add_goal("steady")
                written.append(other.head(G)[0])
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)

    thread = threading.Thread(target=keep_writing, daemon=True)
    thread.start()
    _until(lambda: len(written) >= 3)
    yield Steady(other, stop, thread, written, errors)
    stop.set()
    thread.join(timeout=60)
    if other is not store:
        other.close()


def _until(done: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Poll ``done`` until it is true or ``seconds`` pass; whether it became true."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def _read_then_append(store: Store, heads: list[int]) -> Callable[[], list[Event]]:
    """A read-modify-write that reads the head, lets the steady writer move it (it waits
    until the head moved, or up to a second when nobody can write), then appends on it."""

    def work() -> list[Event]:
        head = store.head(G)[0]
        heads.append(head)
        _until(lambda: store.head(G)[0] != head, seconds=1.0)
        return store.append(G, [node_added(make_node("mine"))], after_seq=head)

    return work


def test_a_read_modify_write_lands_under_the_lock_while_another_writer_keeps_writing(
    store: Store, steady: Steady
) -> None:
    heads: list[int] = []
    graph = Graph(store, G, writes=QUICK)
    (mine,) = written_once(_read_then_append(store, heads), graph)
    assert len(heads) == QUICK.tries + 1  # every optimistic try met a moved head
    assert mine.seq == heads[-1] + 1  # landed on the head it read, under the lock
    assert _until(lambda: any(seq > mine.seq for seq in steady.written))  # writing resumed
    steady.stop.set()
    steady.thread.join(timeout=60)
    assert steady.errors == []
    assert [n.label for n in store.nodes(G)].count("mine") == 1
    assert graph.verify().ok


def test_without_the_lock_it_gives_up_with_head_moved_and_writes_nothing(
    store: Store, steady: Steady
) -> None:
    heads: list[int] = []
    policy = WritePolicy(tries=3, first_wait=0.001, max_wait=0.001, lock=False)
    graph = Graph(store, G, writes=policy)
    with pytest.raises(HeadMoved, match=r"kept moving it through 3 tries") as caught:
        written_once(_read_then_append(store, heads), graph)
    assert len(heads) == 3 and caught.value.tries == 3 and caught.value.graph == G
    assert caught.value.found > caught.value.expected
    assert "mine" not in [n.label for n in store.nodes(G)]


def test_the_old_no_wait_policy_is_five_tries_without_a_lock(store: Store) -> None:
    calls: list[int] = []

    def always_moved() -> None:
        calls.append(1)
        raise HeadMoved(G, 1, 2)

    with pytest.raises(HeadMoved, match="5 tries"):
        written_once(always_moved, Graph(store, G), policy=NO_WAIT)
    assert len(calls) == 5


def test_a_spent_budget_goes_to_the_lock_at_once(store: Store) -> None:
    calls: list[int] = []

    def always_moved() -> None:
        calls.append(1)
        raise HeadMoved(G, 1, 2)

    spent = WritePolicy(tries=50, budget=0.0)
    with pytest.raises(HeadMoved, match="2 tries"):
        written_once(always_moved, Graph(store, G), policy=spent)
    assert len(calls) == 2  # one optimistic try, then the one under the lock


def test_waits_are_full_jitter_under_a_doubling_cap() -> None:
    policy = WritePolicy(first_wait=0.01, max_wait=0.05)
    for tried, cap in ((1, 0.01), (2, 0.02), (3, 0.04), (4, 0.05), (40, 0.05), (10_000, 0.05)):
        waits = [policy.wait(tried) for _ in range(200)]
        assert all(0.0 <= w <= cap for w in waits)
        assert max(waits) > cap / 2  # spread over the range, not pinned to zero


@pytest.mark.parametrize(
    "fields",
    [{"tries": 0}, {"tries": True}, {"first_wait": -1}, {"budget": float("nan")}],
    ids=["no-tries", "bool-tries", "negative-wait", "nan-budget"],
)
def test_a_policy_that_cannot_work_is_refused(fields: dict[str, object]) -> None:
    with pytest.raises(InvalidInput) as caught:
        WritePolicy(**fields)  # type: ignore[arg-type]
    assert caught.value.field in fields


def test_the_default_policy_is_the_graphs() -> None:
    assert Graph(open_store("memory://"), G).writes == DEFAULT_WRITES
    assert DEFAULT_WRITES.lock and DEFAULT_WRITES.tries >= 2
