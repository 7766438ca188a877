"""Snapshots of the fold: a graph's tables as they stood at one ledger entry, kept as
derived data so that ``at(t)`` replays only the entries after the nearest one.

A snapshot is two derived bodies (``Store.put_derived``) under the item ``seq`` (zero
padded): in ``INDEX_SPACE`` a small *mark* naming the entry it was taken at (seq and
checksum), the latest entry time up to it (``reach``: it serves a moment at or after
that) and the SHA-256 of its state; in ``STATE_SPACE`` the state itself, under that hash.
Both spaces carry ``FORMAT``, so a decisis that folds or encodes differently never reads
another's. A mark is used only when the ledger's entry at its seq still has its checksum
(the chain covers everything before it) and the body still hashes to what the mark says;
anything else (stale, edited, undecodable) reads as no snapshot, and the ledger answers.
Like all derived data, snapshots are outside the ledger and its checksum.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import weakref
from collections import defaultdict
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from decisis.errors import DecisisError
from decisis.model import (
    Edge,
    EdgeType,
    LinkState,
    Node,
    NodeStatus,
    NodeType,
    format_time,
    parse_time,
)
from decisis.stores.base import Store
from decisis.stores.fold import GraphState

__all__ = [
    "EDGE_ROWS",
    "FORMAT",
    "INDEX_SPACE",
    "KEEP",
    "NODE_ROWS",
    "STATE_SPACE",
    "Mark",
    "Rows",
    "copy_state",
    "crowded",
    "forget",
    "forget_decoded",
    "keep",
    "load",
    "marks",
]

FORMAT = "fold-snapshot@1"
INDEX_SPACE = f"{FORMAT}:index"
STATE_SPACE = f"{FORMAT}:state"
R = TypeVar("R", Node, Edge)
KEEP = 4
"""Snapshots kept per graph (spread out: ``crowded``): each holds every record (about 20 MB
at 100,000 entries of ``bench/bench_at.py``), so they are few."""


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a kept snapshot was taken, and what its state body hashes to."""

    seq: int
    checksum: str
    reach: datetime  # the latest ``Event.at`` among entries 1..seq
    sha: str

    @property
    def item(self) -> str:
        return f"{self.seq:019d}"


_TIMES = frozenset({"valid_from", "valid_until", "recorded_at", "updated_at", "tombstoned_at"})


def _from_text(text: str) -> datetime:
    """A time ``format_time`` wrote, read back as UTC (``parse_time`` does more)."""
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is not UTC:
        raise ValueError(f"{text!r} is not a UTC time")
    return parsed


def _anchor(graph: str, seq: int, checksum: str) -> str:
    """The digest a mark is kept under: the ledger entry it belongs to, in this format."""
    return hashlib.sha256(f"{FORMAT}\0{graph}\0{seq}\0{checksum}".encode()).hexdigest()


def encode(state: GraphState) -> str:
    """The state's records as rows of their fields, in their dict order (adjacency is
    rebuilt from the edges' order, which is the order they were added in, as the fold
    appended them); the field names lead, so a record of other fields never decodes."""
    return json.dumps(
        {
            "node_fields": NODE_ROWS.names,
            "edge_fields": EDGE_ROWS.names,
            "nodes": [NODE_ROWS.row(n) for n in state.nodes.values()],
            "edges": [EDGE_ROWS.row(e) for e in state.edges.values()],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decode(body: str) -> GraphState:
    """The state ``encode`` wrote; ``ValueError``, ``TypeError``, ``KeyError`` or
    ``DecisisError`` for a body that is not one."""
    data = json.loads(body)
    if data["node_fields"] != list(NODE_ROWS.names) or data["edge_fields"] != list(EDGE_ROWS.names):
        raise ValueError("the snapshot's records have other fields")
    state = GraphState()
    nodes = state.nodes
    for row in data["nodes"]:
        node = NODE_ROWS.record(row)
        nodes[node.id] = node
    out: dict[str, list[str]] = defaultdict(list)
    into: dict[str, list[str]] = defaultdict(list)
    edges = state.edges
    for row in data["edges"]:
        edge = EDGE_ROWS.record(row)
        edges[edge.id] = edge
        out[edge.source].append(edge.id)
        into[edge.target].append(edge.id)
    state.out_edges, state.in_edges = out, into
    return state


class Rows(Generic[R]):
    """One record class as rows of JSON values and back. Back is built field by field
    without the constructor's checks: a body is read only when it hashes to its mark, and
    what was hashed was written from records the fold had built and checked."""

    def __init__(self, cls: type[R], enums: dict[str, type[StrEnum]]) -> None:
        self.cls: type[R] = cls
        self.names = tuple(f.name for f in fields(cls))
        self._setters = [getattr(cls, name).__set__ for name in self.names]
        self._times = [i for i, name in enumerate(self.names) if name in _TIMES]
        self._enums = [(i, enums[name]) for i, name in enumerate(self.names) if name in enums]

    def row(self, record: R) -> list[Any]:
        values: list[Any] = [getattr(record, name) for name in self.names]
        for i in self._times:
            if values[i] is not None:
                values[i] = format_time(values[i])
        for i, _ in self._enums:
            values[i] = values[i].value
        return values

    def record(self, row: list[Any]) -> R:
        if len(row) != len(self.names):
            raise ValueError(f"a {self.cls.__name__} row of {len(row)} fields")
        for i in self._times:
            if row[i] is not None:
                row[i] = _from_text(row[i])
        for i, enum in self._enums:
            row[i] = enum(row[i])
        record: R = self.cls.__new__(self.cls)
        for setter, value in zip(self._setters, row, strict=True):
            setter(record, value)
        return record


NODE_ROWS = Rows(Node, {"type": NodeType, "status": NodeStatus})
EDGE_ROWS = Rows(Edge, {"type": EdgeType, "state": LinkState})


def marks(store: Store, graph: str) -> list[Mark]:
    """The graph's kept marks, newest first; a damaged one is left out."""
    found: list[Mark] = []
    for item, body in store.get_derived(graph, INDEX_SPACE).items():
        with contextlib.suppress(ValueError, TypeError, KeyError, DecisisError):
            data: dict[str, Any] = json.loads(body)
            mark = Mark(
                int(data["seq"]), str(data["checksum"]), parse_time(data["reach"]), str(data["sha"])
            )
            if mark.item == item:
                found.append(mark)
    return sorted(found, key=lambda m: m.seq, reverse=True)


def load(store: Store, graph: str, mark: Mark) -> GraphState | None:
    """The state ``mark`` names, or ``None`` when its body is missing, does not hash to the
    mark's SHA-256 (edited behind decisis's back) or does not decode. The last one this
    process decoded from ``store`` is kept in memory (``_Decoded``) and handed out again,
    copied, while the mark still names it."""
    kept = _DECODED.recall(store, graph, mark)
    if kept is not None:
        return kept
    body = store.get_derived(graph, STATE_SPACE, [mark.item], digests={mark.item: mark.sha})
    text = body.get(mark.item)
    if text is None or hashlib.sha256(text.encode()).hexdigest() != mark.sha:
        return None
    try:
        state = decode(text)
    except (ValueError, TypeError, KeyError, DecisisError):
        return None
    _DECODED.remember(store, graph, mark, state)
    return state


def copy_state(state: GraphState) -> GraphState:
    """A state to fold on without touching ``state``: the records are immutable, so only
    the mappings and adjacency lists are copied."""
    return GraphState(
        nodes=dict(state.nodes),
        edges=dict(state.edges),
        out_edges=defaultdict(list, {k: list(v) for k, v in state.out_edges.items()}),
        in_edges=defaultdict(list, {k: list(v) for k, v in state.in_edges.items()}),
    )


class _Decoded:
    """The last snapshot decoded from each open store, per process: building every record
    is most of what loading a snapshot costs, so a process that looks back again (a server
    answering ``at`` requests) copies it instead. Held only as long as the store object
    lives, one snapshot a store; keyed by the mark's seq and SHA-256, so a state is reused
    only for the body it was decoded from."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: weakref.WeakKeyDictionary[Any, tuple[tuple[str, str, str], GraphState]]
        self._states = weakref.WeakKeyDictionary()

    def recall(self, store: Store, graph: str, mark: Mark) -> GraphState | None:
        with self._lock:
            try:
                key, state = self._states[store]
            except (KeyError, TypeError):
                return None
        return copy_state(state) if key == (graph, mark.item, mark.sha) else None

    def remember(self, store: Store, graph: str, mark: Mark, state: GraphState) -> None:
        mine = copy_state(state)
        with self._lock, contextlib.suppress(TypeError):  # a store that takes no weak ref
            self._states[store] = ((graph, mark.item, mark.sha), mine)

    def clear(self) -> None:
        """Forget every decoded state (tests: as a new process would start)."""
        with self._lock:
            self._states.clear()


_DECODED = _Decoded()
forget_decoded = _DECODED.clear


def keep(
    store: Store, graph: str, seq: int, checksum: str, reach: datetime, state: GraphState
) -> Mark | None:
    """Keep ``state`` as the snapshot at entry ``seq``, then the oldest beyond ``KEEP`` go.
    Keeping is a saving, not the answer: a store that cannot take the write (read-only,
    locked past its timeout) is left as it was, and ``None`` says so."""
    body = encode(state)
    sha = hashlib.sha256(body.encode()).hexdigest()
    mark = Mark(seq, checksum, reach, sha)
    index = json.dumps(
        {"seq": seq, "checksum": checksum, "reach": format_time(reach), "sha": sha},
        separators=(",", ":"),
    )
    try:
        store.put_derived(graph, STATE_SPACE, {mark.item: (sha, body)})
        store.put_derived(graph, INDEX_SPACE, {mark.item: (_anchor(graph, seq, checksum), index)})
        for old in crowded(marks(store, graph), keeping=seq):
            forget(store, graph, old)
    except DecisisError:
        return None
    _DECODED.remember(store, graph, mark, state)
    return mark


def crowded(kept: list[Mark], *, keeping: int) -> list[Mark]:
    """The marks to drop so that ``KEEP`` stay, never the one at ``keeping`` (just kept):
    each time the one nearest the mark below it (seq 0 below the first), so those left
    stay spread over the history looked back at rather than bunched at its end."""
    left = sorted(kept, key=lambda m: m.seq)
    dropped: list[Mark] = []
    while len(left) > KEEP:
        gaps = [
            (m.seq - (left[i - 1].seq if i else 0), i)
            for i, m in enumerate(left)
            if m.seq != keeping
        ]
        _, i = min(gaps)
        dropped.append(left.pop(i))
    return dropped


def forget(store: Store, graph: str, mark: Mark) -> None:
    """Drop a snapshot (stale or beyond ``KEEP``): its mark first, so no reader finds half."""
    with contextlib.suppress(DecisisError):
        store.delete_derived(graph, INDEX_SPACE, [mark.item])
        store.delete_derived(graph, STATE_SPACE, [mark.item])
