"""The tables at a moment read from the version index (``past_index``): ``at(t)`` finds
the last entry of the moment's prefix in one ``~at`` chunk and returns a state that reads
each record's version at that entry when first asked (``past_lazy``), so no record is
built that the question to the past does not touch.

An index behind the ledger by fewer than ``TAIL`` entries is used as it is, the entries
after it (chain-checked from its head) folded over the lazy state; one further behind, or
missing, or of another ledger, is caught up (``past_index.catch_up``) first. Where the
index cannot answer (damaged: then dropped, so the next ``at`` makes it again; a chain that
breaks or an entry the fold refuses after it; a store that cannot keep it while it is
missing) the answer is ``None`` and the caller replays from the snapshots of ``past``,
which raises as a full replay would.
"""

from __future__ import annotations

from datetime import datetime

from decisis.errors import DecisisError, IntegrityError
from decisis.ledger import GENESIS, check_chain
from decisis.model import Event
from decisis.stores.base import Store
from decisis.stores.fold import GraphState, apply
from decisis.stores.past_index import Damaged, Head, Reader, catch_up, forget, read_head, resolve
from decisis.stores.past_lazy import lazy_state

__all__ = ["TAIL", "indexed_state"]

TAIL = 64
"""Entries the index may lag the ledger by before ``at`` catches it up: below it, they are
folded over the lazy state (each a few record lookups), above it, written to the index
once (one write transaction), so a view never folds more than this."""


def indexed_state(
    store: Store, graph: str, moment: datetime, *, tail: int = TAIL
) -> tuple[GraphState, tuple[int, str]] | None:
    """``graph``'s state when its ledger reached ``moment`` and the (seq, checksum) of the
    last entry in it, from the version index; ``None`` where the index cannot answer."""
    try:
        return _indexed(store, graph, moment, tail)
    except Damaged:
        forget(store, graph)
        return None
    except IntegrityError:
        return None


def _indexed(
    store: Store, graph: str, moment: datetime, tail: int
) -> tuple[GraphState, tuple[int, str]] | None:
    last = store.head(graph)
    if last[0] == 0:
        return None
    head = read_head(store, graph)
    if head is not None and (head.seq, head.checksum) == last:
        return _at(store, graph, head, moment, [])
    if head is not None and head.seq < last[0] < head.seq + tail:
        after = _after(store, graph, head)
        if after is not None:
            return _at(store, graph, head, moment, after)
    head = catch_up(store, graph, head) or read_head(store, graph)
    if head is None:
        return None
    after = _after(store, graph, head)
    return None if after is None else _at(store, graph, head, moment, after)


def _after(store: Store, graph: str, head: Head) -> list[Event] | None:
    """The entries after the index's head, chain-checked from it; ``None`` when the ledger
    no longer holds the head's entry (another ledger's index)."""
    events = list(store.events(graph, after_seq=head.seq - 1))
    if not events or events[0].seq != head.seq or events[0].checksum != head.checksum:
        return None
    _, broken = check_chain(events[1:], after=(head.seq, head.checksum))
    if broken is not None:
        raise IntegrityError(f"seq {broken.seq}: {broken.reason}", broken.seq)
    return events[1:]


def _at(
    store: Store, graph: str, head: Head, moment: datetime, after: list[Event]
) -> tuple[GraphState, tuple[int, str]]:
    found = resolve(store, graph, head, moment)
    if found is not None:
        if found[0] == 0:
            return GraphState(), (0, GENESIS)
        return lazy_state(Reader(store, graph, found[0])), found
    state = lazy_state(Reader(store, graph, head.seq))
    last = (head.seq, head.checksum)
    for event in after:
        if event.at > moment:
            break
        try:
            apply(state, event.kind, event.payload)
        except DecisisError as exc:
            raise IntegrityError(f"seq {event.seq}: {exc}", event.seq) from exc
        last = (event.seq, event.checksum)
    return state, last
