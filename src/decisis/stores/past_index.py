"""The version index: every state each node and edge went through, by the ledger entry that
made it, kept as derived data so that ``at(t)`` reads only what a question touches.

All of it is in one derived space (``SPACE``, which names the format, so a decisis that
encodes differently never reads another's), through ``Store.put_derived``, so every
backend keeps it the same way. Its items:

* one per record, under the record's id: ``{"k": "node"|"edge", "v": [[seq, row], ...]}``,
  each version a row of the record's fields (``fold_snapshots.Rows``) under the seq of
  the entry that wrote it, and for a node ``"o"`` / ``"i"``: ``[[seq, edge id], ...]``,
  the edges leaving and entering it, each under the entry that added it;
* ``~at:<chunk>``: for ``CHUNK`` entries in a row, the time (``Event.at``) and checksum of
  each, and the checksum of the entry before the chunk;
* ``~head``: the entry the index reaches (seq and checksum) and, per chunk, the latest
  entry time up to its end (``reach``).

``at(t)`` reads ``~head``, finds the first chunk whose reach is after ``t``, reads it, and
so knows the last entry of the moment's prefix (the run from seq 1 written at or before
``t``: ``replay.snapshot``) and its checksum: the state there is each record's last
version at or before that seq. Ids are Crockford base32, so ``~`` items never meet one.

The index is made and extended by ``catch_up``: it folds the entries after ``~head``
(chain-checked from it) over the index read lazily (``past_lazy``), logs each record the
fold writes, and puts the new versions, chunks and head in one ``put_derived`` (all land
or none) under the graph's write lock, only while ``~head`` is still what it started
from; so concurrent catch-ups never leave an item behind the head. An index whose head
entry the ledger no longer holds is made again from seq 1. It is outside the ledger and
its checksum: ``verify`` neither reads nor needs it.
"""

from __future__ import annotations

import bisect
import contextlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from decisis.errors import DecisisError, IntegrityError
from decisis.ledger import GENESIS, check_chain
from decisis.model import Edge, Event, Node, format_time
from decisis.stores.base import Store
from decisis.stores.fold import GraphState, apply
from decisis.stores.fold_snapshots import EDGE_ROWS, NODE_ROWS, Rows
from decisis.stores.past_lazy import Kind, LazyAdjacency, lazy_state

__all__ = [
    "CHUNK",
    "FORMAT",
    "HEAD",
    "SPACE",
    "Damaged",
    "Head",
    "Reader",
    "catch_up",
    "forget",
    "read_head",
    "resolve",
]

FORMAT = "past-index@1"
SPACE = FORMAT
HEAD = "~head"
CHUNK = 1000
"""Entries per ``~at`` item: one is read to resolve a moment (about 100 kB of JSON)."""
_ROWS: dict[str, Rows[Any]] = {"node": NODE_ROWS, "edge": EDGE_ROWS}
_FAR = {"out": EDGE_ROWS.names.index("target"), "in": EDGE_ROWS.names.index("source")}


class Damaged(IntegrityError):
    """An index body that does not decode as this format wrote it (edited behind decisis's
    back). The index is dropped where this is raised, so the next ``at`` makes it again."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"the version index of at(t) is damaged ({detail}); it is derived data and was "
            "dropped: the next at() makes it again"
        )


@dataclass(frozen=True, slots=True)
class Head:
    """Where the index reaches, and per chunk the latest entry time up to its end."""

    seq: int
    checksum: str
    reach: tuple[datetime, ...]
    reach_text: tuple[str, ...]


def _chunk_item(index: int) -> str:
    return f"~at:{index:012d}"


def read_head(store: Store, graph: str) -> Head | None:
    """The index's head, or ``None`` when there is none (or it does not decode)."""
    body = store.get_derived(graph, SPACE, [HEAD]).get(HEAD)
    if body is None:
        return None
    try:
        data = json.loads(body)
        texts = tuple(str(t) for t in data["reach"])
        head = Head(int(data["seq"]), str(data["checksum"]), _times(texts), texts)
    except (ValueError, TypeError, KeyError):
        return None
    if head.seq < 1 or len(texts) != (head.seq + CHUNK - 1) // CHUNK:
        return None
    return head


def _times(texts: tuple[str, ...] | list[str]) -> tuple[datetime, ...]:
    return tuple(datetime.fromisoformat(t) for t in texts)


def _encode_head(seq: int, checksum: str, reach: list[str]) -> str:
    return json.dumps({"seq": seq, "checksum": checksum, "reach": reach}, separators=(",", ":"))


def resolve(store: Store, graph: str, head: Head, moment: datetime) -> tuple[int, str] | None:
    """The (seq, checksum) of the last entry of ``moment``'s prefix among the indexed ones,
    or ``None`` when every indexed entry is in it (the prefix may go on past the index)."""
    index = bisect.bisect_right(head.reach, moment)
    if index == len(head.reach):
        return None
    item = _chunk_item(index)
    body = store.get_derived(graph, SPACE, [item]).get(item)
    try:
        data = json.loads(body) if body is not None else None
        if not isinstance(data, dict):
            raise Damaged(f"{item} is missing")
        times, sums = data["at"], data["sum"]
        for offset, text in enumerate(times):
            if datetime.fromisoformat(text) > moment:
                return index * CHUNK + offset, str(sums[offset - 1] if offset else data["prev"])
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise Damaged(f"{item} does not decode: {exc}") from None
    raise Damaged(f"{item} holds no entry after its reach")


@dataclass
class _Item:
    """One record's item, decoded: its kind, versions and (a node's) adjacency."""

    kind: Kind
    versions: list[list[Any]]
    out: list[list[Any]] = field(default_factory=list)
    into: list[list[Any]] = field(default_factory=list)

    @classmethod
    def decode(cls, key: str, body: str) -> _Item:
        try:
            data = json.loads(body)
            kind = data["k"]
            if kind not in _ROWS or not isinstance(data["v"], list) or not data["v"]:
                raise ValueError("not a record's versions")
            return cls(kind, data["v"], data.get("o", []), data.get("i", []))
        except (ValueError, TypeError, KeyError) as exc:
            raise Damaged(f"the item of {key} does not decode: {exc}") from None

    def encode(self) -> str:
        data: dict[str, Any] = {"k": self.kind, "v": self.versions}
        if self.out:
            data["o"] = self.out
        if self.into:
            data["i"] = self.into
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def first(self) -> int:
        return int(self.versions[0][0])

    def row_at(self, seq: int) -> list[Any] | None:
        found = None
        for version in self.versions:
            if version[0] > seq:
                break
            found = version[1]
        return found


class Reader:
    """The index read at entry ``seq``: records and adjacency as they stood then, each item
    read once (with the edges of a node's adjacency fetched beside it, for walks)."""

    def __init__(self, store: Store, graph: str, seq: int, *, empty: bool = False) -> None:
        self.store, self.graph, self.seq, self.empty = store, graph, seq, empty
        self._items: dict[str, _Item | None] = {}
        self._records: dict[str, Node | Edge | None] = {}
        self._every: list[tuple[str, _Item]] | None = None

    def fetch(self, keys: list[str]) -> None:
        """Read the items of ``keys`` not read yet, in one query."""
        wanted = [k for k in dict.fromkeys(keys) if k not in self._items]
        if not wanted:
            return
        if self.empty:
            self._items.update(dict.fromkeys(wanted))
            return
        bodies = self.store.get_derived(self.graph, SPACE, wanted)
        try:
            for key in wanted:
                body = bodies.get(key)
                self._items[key] = None if body is None else _Item.decode(key, body)
        except Damaged:
            forget(self.store, self.graph)
            raise

    def item(self, key: str) -> _Item | None:
        if key not in self._items:
            self.fetch([key])
        return self._items[key]

    def record(self, kind: Kind, key: str) -> Node | Edge | None:
        if key in self._records:
            found = self._records[key]
            return found if found is not None and _kind_of(found) == kind else None
        item = self.item(key)
        row = None if item is None else item.row_at(self.seq)
        try:
            built = None if item is None or row is None else _build(item.kind, row, key)
        except Damaged:
            forget(self.store, self.graph)
            raise
        self._records[key] = built
        return built if built is not None and _kind_of(built) == kind else None

    def adjacency(self, key: str, direction: Literal["out", "in"]) -> list[str] | None:
        item = self.item(key)
        if item is None or item.kind != "node" or item.row_at(self.seq) is None:
            return None
        pairs = item.out if direction == "out" else item.into
        ids = [str(eid) for seq, eid in pairs if seq <= self.seq]
        self.fetch(ids)  # the edges, then the nodes at their other ends: a walk's next reads
        far = _FAR[direction]
        ends = []
        for eid in ids:
            edge = self._items.get(eid)
            row = None if edge is None else edge.row_at(self.seq)
            if row is not None and isinstance(row, list) and len(row) > far:
                ends.append(str(row[far]))
        self.fetch(ends)
        return ids

    def _all(self) -> list[tuple[str, _Item]]:
        if self.empty:
            return []
        if self._every is not None:
            return self._every
        every = self.store.get_derived(self.graph, SPACE)
        try:
            for key, body in every.items():
                if not key.startswith("~") and key not in self._items:
                    self._items[key] = _Item.decode(key, body)
        except Damaged:
            forget(self.store, self.graph)
            raise
        found = [(k, i) for k, i in self._items.items() if i is not None and i.first() <= self.seq]
        self._every = sorted(found, key=lambda pair: pair[1].first())
        return self._every

    def every(self, kind: Kind) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in self._all():
            if item.kind == kind:
                record = self.record(kind, key)
                if record is not None:
                    out[key] = record
        return out

    def every_adjacency(self, direction: Literal["out", "in"]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for key, item in self._all():
            if item.kind == "node":
                ids = self.adjacency(key, direction)
                if ids:
                    out[key] = ids
        return out


def _kind_of(record: Node | Edge) -> Kind:
    return "node" if isinstance(record, Node) else "edge"


def _build(kind: Kind, row: list[Any], key: str) -> Node | Edge:
    """The record a version's row holds (built without the constructor's checks, as a
    snapshot's are: what was written came from records the fold had built)."""
    try:
        record: Node | Edge = _ROWS[kind].record(list(row))
    except (ValueError, TypeError, KeyError, DecisisError) as exc:
        raise Damaged(f"a version of {key} does not decode: {exc}") from None
    if record.id != key:
        raise Damaged(f"the item of {key} holds {record.id}")
    return record


def forget(store: Store, graph: str) -> None:
    """Drop the index (damaged, or of another ledger): the next ``at`` makes it again."""
    with contextlib.suppress(DecisisError):
        store.delete_derived(graph, SPACE)


class _Log:
    """The versions a catch-up's fold writes, by record, under the entry writing them."""

    def __init__(self) -> None:
        self.seq = 0
        self.versions: dict[str, dict[int, Node | Edge]] = {}

    def __call__(self, key: str, value: Any) -> None:
        self.versions.setdefault(key, {})[self.seq] = value


def catch_up(store: Store, graph: str, head: Head | None) -> Head | None:
    """Extend the index from ``head`` (``None``: make it from seq 1) to the ledger's last
    entry; the new head, or ``None`` when it could not be kept (a read-only store, another
    process moved the index meanwhile). ``IntegrityError`` where the chain after ``head``
    breaks or the fold refuses an entry."""
    try:  # a store that cannot take the write (read-only) is told apart before the fold
        with store.write_lock(graph):
            pass
    except DecisisError:
        return None
    found = head  # what the index holds now: it is replaced only while it still does
    events = list(store.events(graph, after_seq=head.seq - 1)) if head else []
    if head is not None and (
        not events or events[0].seq != head.seq or events[0].checksum != head.checksum
    ):
        head = None  # another ledger's: made again from the start
    events = list(store.events(graph)) if head is None else events[1:]
    start = (head.seq, head.checksum) if head else (0, GENESIS)
    _, broken = check_chain(events, after=start)
    if broken is not None:
        raise IntegrityError(f"seq {broken.seq}: {broken.reason}", broken.seq)
    if not events:
        return head
    reader = Reader(store, graph, start[0], empty=head is None)
    log = _Log()
    state = lazy_state(reader, log)
    for event in events:
        log.seq = event.seq
        try:
            apply(state, event.kind, event.payload)
        except DecisisError as exc:
            raise IntegrityError(f"seq {event.seq}: {exc}", event.seq) from exc
    items = _record_items(reader, log, state)
    last = events[-1]
    reach, chunks = _chunks(reader, head, events)
    items.update(chunks)
    items[HEAD] = _encode_head(last.seq, last.checksum, reach)
    fresh = head is None
    kept = _put(store, graph, found, {k: (FORMAT, body) for k, body in items.items()}, fresh)
    return Head(last.seq, last.checksum, _times(reach), tuple(reach)) if kept else None


def _record_items(reader: Reader, log: _Log, state: GraphState) -> dict[str, str]:
    """The items of every record the fold wrote or added an edge to: what the index held
    up to its head, then the new versions and adjacency."""
    h0 = reader.seq
    out, into = state.out_edges, state.in_edges
    assert isinstance(out, LazyAdjacency) and isinstance(into, LazyAdjacency)
    touched = list(dict.fromkeys([*log.versions, *dict.keys(out), *dict.keys(into)]))
    reader.fetch(touched)
    first_seen = {key: min(v) for key, v in log.versions.items()}
    bodies: dict[str, str] = {}
    for key in touched:
        old = reader.item(key)
        versions = [v for v in old.versions if v[0] <= h0] if old else []
        new = log.versions.get(key, {})
        kind: Kind = old.kind if old else _kind_of(next(iter(new.values())))
        rows = _ROWS[kind]
        versions += [[seq, rows.row(record)] for seq, record in sorted(new.items())]
        item = _Item(kind, versions)
        if kind == "node":
            item.out = _adjacent(old.out if old else [], dict.get(out, key), h0, first_seen)
            item.into = _adjacent(old.into if old else [], dict.get(into, key), h0, first_seen)
        bodies[key] = item.encode()
    return bodies


def _adjacent(
    old: list[list[Any]], now: list[str] | None, h0: int, first_seen: dict[str, int]
) -> list[list[Any]]:
    """A node's adjacency pairs: those up to ``h0``, then each edge appended since, under
    the entry that added it."""
    kept = [pair for pair in old if pair[0] <= h0]
    if now is None:
        return kept
    return kept + [[first_seen[eid], eid] for eid in now[len(kept) :]]


def _chunks(
    reader: Reader, head: Head | None, events: list[Event]
) -> tuple[list[str], dict[str, str]]:
    """The ``~at`` items the new entries fill (the last one the index had, extended) and
    the reach of every chunk."""
    reach = list(head.reach_text) if head else []
    chunks: dict[str, dict[str, Any]] = {}
    prev = head.checksum if head else GENESIS
    latest = head.reach[-1] if head else None
    if head is not None and head.seq % CHUNK:
        item = _chunk_item((head.seq - 1) // CHUNK)
        body = reader.store.get_derived(reader.graph, SPACE, [item]).get(item)
        if body is None:
            raise Damaged(f"{item} is missing")
        try:
            data = json.loads(body)
            chunks[item] = {"prev": data["prev"], "at": data["at"], "sum": data["sum"]}
        except (ValueError, TypeError, KeyError) as exc:
            raise Damaged(f"{item} does not decode: {exc}") from None
        reach.pop()
    for event in events:
        index = (event.seq - 1) // CHUNK
        chunk = chunks.setdefault(_chunk_item(index), {"prev": prev, "at": [], "sum": []})
        chunk["at"].append(format_time(event.at))
        chunk["sum"].append(event.checksum)
        prev = event.checksum
        latest = event.at if latest is None or event.at > latest else latest
        if event.seq % CHUNK == 0 or event is events[-1]:
            reach.append(format_time(latest))
    return reach, {k: json.dumps(v, separators=(",", ":")) for k, v in chunks.items()}


def _put(
    store: Store, graph: str, head: Head | None, items: dict[str, tuple[str, str]], fresh: bool
) -> bool:
    """Keep ``items`` while the index's head is still ``head``: under the graph's write
    lock, so no other catch-up lands between the check and the write; ``fresh``: the items
    are a whole index, so what the space held goes first."""
    was = None if head is None else (head.seq, head.checksum)
    try:
        with store.write_lock(graph):
            now = read_head(store, graph)
            if (None if now is None else (now.seq, now.checksum)) != was:
                return False
            if fresh:
                store.delete_derived(graph, SPACE)
            store.put_derived(graph, SPACE, items)
    except DecisisError:
        return False
    return True
