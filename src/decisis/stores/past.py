"""The tables as they stood at a moment: the nearest kept snapshot (``fold_snapshots``)
folded forward with the ledger entries after it, or the whole prefix when none serves.

The prefix of a moment is the longest run of entries from seq 1 on written at or before
it (``replay.snapshot``). A snapshot at seq ``s`` serves the moment when its ``reach``
(the latest entry time up to ``s``) is at or before it, so entries 1..s are all in the
prefix; the ledger's entry at ``s`` must still have the snapshot's checksum, and the
entries after it are chain-checked from there as they are folded. A snapshot that fails
either check is dropped and the next one (or the ledger from seq 1) answers.

Snapshots are taken here, lazily, not on append: a fold that replays ``every`` entries
or more keeps the state at the last multiple of ``every`` it passed, so the next moment
near it replays less than ``every``. Taking one on append would read every table of the
SQL backends in the append's transaction each ``every`` events.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from decisis.errors import DecisisError, IntegrityError
from decisis.ledger import GENESIS, check_chain
from decisis.model import Event
from decisis.stores.base import Store
from decisis.stores.fold import GraphState, apply
from decisis.stores.fold_snapshots import forget, keep, load, marks

__all__ = ["EVERY", "leading_run", "state_at"]

EVERY = 1000
"""Entries between snapshots. A moment replays fewer than this after its snapshot: on
SQLite about 35 µs an entry to read and fold (``bench/bench_at.py``, 100,000 entries),
so under ~35 ms; a snapshot costs one encoding of every record, about 1.5 s at 100,000
entries, paid once per ``EVERY`` entries of history a reader looks back across."""


def leading_run(events: Iterable[Event], after: int = 0) -> list[Event]:
    """The entries from seq ``after + 1`` on, up to the first one missing (left out by a
    time bound, or gone)."""
    run: list[Event] = []
    for event in events:
        if event.seq != after + len(run) + 1:
            break
        run.append(event)
    return run


def state_at(
    store: Store, graph: str, moment: datetime, *, every: int = EVERY
) -> tuple[GraphState, tuple[int, str]]:
    """``graph``'s state when its ledger reached ``moment``, and the (seq, checksum) of the
    last entry folded (``(0, GENESIS)`` before the first). ``IntegrityError`` where the
    ledger's chain breaks or the fold refuses an entry, as a full replay would raise."""
    for mark in marks(store, graph):
        if mark.reach > moment:
            continue
        run = leading_run(store.events(graph, after_seq=mark.seq - 1, until=moment), mark.seq - 1)
        state = load(store, graph, mark) if run and run[0].checksum == mark.checksum else None
        if state is None:  # another ledger's, edited, or unreadable: the ledger answers
            forget(store, graph, mark)
            continue
        return _fold(store, graph, state, run[1:], (mark.seq, mark.checksum), mark.reach, every)
    run = leading_run(store.events(graph, until=moment))
    return _fold(store, graph, GraphState(), run, (0, GENESIS), None, every)


def _fold(
    store: Store,
    graph: str,
    state: GraphState,
    events: list[Event],
    start: tuple[int, str],
    reach: datetime | None,
    every: int,
) -> tuple[GraphState, tuple[int, str]]:
    """Fold ``events`` (the run after ``start``) into ``state``, keeping a snapshot at the
    last multiple of ``every`` when the run is at least ``every`` long."""
    _, broken = check_chain(events, after=start)
    if broken is not None:
        raise IntegrityError(f"seq {broken.seq}: {broken.reason}", broken.seq)
    take = (start[0] + len(events)) // every * every if len(events) >= every else 0
    head = start
    for event in events:
        try:
            apply(state, event.kind, event.payload)
        except DecisisError as exc:
            raise IntegrityError(f"seq {event.seq}: {exc}", event.seq) from exc
        reach = event.at if reach is None or event.at > reach else reach
        head = (event.seq, event.checksum)
        if event.seq == take:
            keep(store, graph, event.seq, event.checksum, reach, state)
    return state, head
