"""Replaying a ledger: ``verify`` proves the tables, ``snapshot`` rebuilds the past.

Both rest on the one idea of decisis: the graph is a fold over its ledger. So a
graph's tables are trustworthy exactly when folding the ledger read back from
storage gives the same records, and the graph as it stood at ``t`` is the fold of
the entries written by then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING

from decisis.errors import DecisisError, IntegrityError
from decisis.ledger import GENESIS, check_chain
from decisis.model import Edge, Event, EventKind, Node, parse_time
from decisis.stores.base import Store
from decisis.stores.fold import GraphState, apply

if TYPE_CHECKING:
    from decisis.stores.memory import MemoryStore

__all__ = ["VerifyReport", "replay", "snapshot", "verify"]


@dataclass(frozen=True)
class VerifyReport:
    """What ``verify`` found.

    ``first_bad_seq`` is the seq the first faulty entry should have (for a deleted
    entry, the missing seq; for a truncated tail, the first one cut off). It is
    ``None`` when the ledger is whole and only the tables or the storage disagree.
    ``checked`` names what was checked beyond the chain and the tables (the database
    file, the full-text index), as the backend reports it.
    """

    ok: bool
    events: int
    first_bad_seq: int | None = None
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        if self.ok:
            return f"ok: {self.events} events, chain intact, tables match the ledger"
        return f"FAILED after {self.events} events: " + "; ".join(self.problems)


def replay(events: Iterable[Event]) -> GraphState:
    """Fold ``events`` into a fresh state; ``IntegrityError`` naming the entry the fold refuses."""
    state = GraphState()
    for event in events:
        try:
            apply(state, event.kind, event.payload)
        except DecisisError as exc:
            raise IntegrityError(
                f"seq {event.seq}: the fold refuses this entry: {exc}", event.seq
            ) from exc
    return state


Against = Callable[[Sequence[Event]], tuple[str, list[tuple[int | None, str]]]]
"""A further check of the ledger as read (``decisis.checkpoints``): what it checked, and the
problems it found with the seq each is about."""


def verify(
    store: Store, graph: str, *, quick: bool = False, against: Against | None = None
) -> VerifyReport:
    """Read ``graph``'s ledger back from ``store``, check its chain, its head and the marks
    its tombstones put on earlier entries, replay it and compare the result with the node
    and edge tables; then the backend's own storage (``Store.check_storage``: the file's
    integrity, the full-text index; ``quick`` for the cheaper file check); then ``against``
    (a signed checkpoint) on the entries as read."""
    storage = store.check_storage(graph, quick=quick)
    checked = ["hash chain and head", "tombstone marks", "tables against a replay"]
    checked += storage.checked
    try:
        events = list(store.events(graph))
    except IntegrityError as exc:  # a row that cannot even be read back
        return VerifyReport(False, 0, exc.seq, [f"unreadable ledger entry: {exc}"], checked)
    found: list[tuple[int | None, str]] = [(None, p) for p in storage.problems]
    if against is not None:
        what, problems = against(events)
        checked.append(what)
        found.extend(problems)
    position, broken = check_chain(events)
    if broken is not None:  # blame the place where the entry should be: a gap names the missing seq
        found.insert(0, (position, f"seq {position}: {broken.reason}"))
        return _report(len(events), found, checked)
    head_problem = _check_head(store.head(graph), events)
    if head_problem is not None:
        found.append(head_problem)
    else:  # with entries cut off the end, marks of a lost tombstone are expected
        found.extend(_check_marks(events))
    try:
        state = replay(events)
    except IntegrityError as exc:
        found.append((exc.seq, str(exc)))
    else:
        found.extend(_compare_tables(store, graph, state))
    return _report(len(events), found, checked)


def _report(events: int, found: list[tuple[int | None, str]], checked: list[str]) -> VerifyReport:
    seqs = [seq for seq, _ in found if seq is not None]
    problems = [problem for _, problem in found]
    return VerifyReport(not found, events, min(seqs, default=None), problems, checked)


def _check_marks(events: Sequence[Event]) -> list[tuple[int | None, str]]:
    """Each entry about a tombstoned record carries the mark of the last tombstone after it
    (time and reason), and no other entry carries one: the marks are outside the checksum,
    so the chain cannot vouch for them."""
    expected: dict[int, tuple[datetime | None, str | None]] = {}
    mark: dict[str, tuple[datetime | None, str | None]] = {}
    for event in reversed(events):
        if event.kind is EventKind.TOMBSTONED and event.entity not in mark:
            at = parse_time(event.payload["at"], "at") if "at" in event.payload else None
            mark[event.entity] = (at, event.payload.get("reason"))
            expected[event.seq] = (None, None)  # the tombstone itself is never marked
            continue
        expected[event.seq] = mark.get(event.entity, (None, None))
    for event in events:
        have = (event.invalidated_at, event.invalidated_reason)
        if have != expected[event.seq]:
            want = expected[event.seq]
            return [
                (
                    event.seq,
                    f"seq {event.seq}: its tombstone mark is {_short(have)} but the ledger's "
                    f"tombstones give {_short(want)}",
                )
            ]
    return []


def _compare_tables(store: Store, graph: str, state: GraphState) -> list[tuple[int | None, str]]:
    """The tables must hold exactly what the replay built, tombstoned records included."""
    try:
        stored_nodes = store.nodes(graph, include_tombstoned=True)
        stored_edges = store.edges(graph, include_tombstoned=True)
    except IntegrityError as exc:  # a row that cannot even be read back
        return [(exc.seq, f"unreadable table row: {exc}")]
    found: list[tuple[int | None, str]] = []
    for kind, ledger, table in (
        ("node", state.nodes, stored_nodes),
        ("edge", state.edges, stored_edges),
    ):
        difference = _first_difference(kind, ledger, table)
        if difference is not None:
            found.append((None, difference))
    return found


def _check_head(head: tuple[int, str], events: Sequence[Event]) -> tuple[int, str] | None:
    """The head recorded beside the ledger must name its last entry: a mismatch means
    entries were cut off the end (or added without moving the head)."""
    last = (events[-1].seq, events[-1].checksum) if events else (0, GENESIS)
    if head == last:
        return None
    head_seq, _ = head
    if head_seq > last[0]:
        problem = f"the head is at seq {head_seq} but the ledger ends at seq {last[0]}"
        return last[0] + 1, problem + ": entries are missing at the end"
    if head_seq < last[0]:
        problem = f"the ledger runs to seq {last[0]} past the head at seq {head_seq}"
        return head_seq + 1, problem
    return head_seq, f"the head's checksum does not match the entry at seq {head_seq}"


def _first_difference(
    kind: str, ledger: dict[str, Node] | dict[str, Edge], table: Sequence[Node | Edge]
) -> str | None:
    """Name the first record (by id) and field where the table differs from the ledger."""
    stored = {record.id: record for record in table}
    for record_id in sorted(set(ledger) | set(stored)):
        want, have = ledger.get(record_id), stored.get(record_id)
        if have is None:
            return f"{kind} {record_id} is in the ledger but missing from the table"
        if want is None:
            return f"{kind} {record_id} is in the table but not in the ledger"
        for f in fields(want):
            expected, actual = getattr(want, f.name), getattr(have, f.name)
            if expected != actual:
                return (
                    f"{kind} {record_id}: {f.name} is {_short(actual)} in the table "
                    f"but {_short(expected)} by the ledger"
                )
    return None


_SHOWN = 120  # characters of a value a problem quotes: enough to recognise it


def _short(value: object) -> str:
    """A value as a problem quotes it: its repr, cut to ``_SHOWN`` characters."""
    text = repr(value)
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}… ({len(text)} characters)"


def snapshot(events: Iterable[Event], graph: str, until: datetime | None = None) -> MemoryStore:
    """A memory store holding ``graph`` as it stood when the ledger reached ``until``.

    It takes the longest run of entries from seq 1 on that were all written at or
    before ``until`` (``Event.at``), so it is always a whole prefix of the chain:
    pass ``store.events(graph)`` with ``until``, or ``store.events(graph, until=t)``
    (where the run stops at the first entry left out). Entries keep their seq and
    checksums, so ``verify`` passes on the snapshot; a tombstone written later does
    not mark them. ``Graph.at(t)`` queries the result with ``as_of=t``.
    """
    from decisis.stores.memory import MemoryStore

    prefix: list[Event] = []
    for event in events:
        if event.seq != len(prefix) + 1 or (until is not None and event.at > until):
            break
        prefix.append(event)
    store = MemoryStore(f"memory://snapshot/{graph}")
    store.load_ledger(graph, prefix)
    return store
