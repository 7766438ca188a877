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
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.errors import DecisisError
from decisis.model import Edge, Node, format_time, parse_time
from decisis.stores.base import Store
from decisis.stores.fold import GraphState

__all__ = [
    "FORMAT",
    "INDEX_SPACE",
    "KEEP",
    "STATE_SPACE",
    "Mark",
    "forget",
    "keep",
    "load",
    "marks",
]

FORMAT = "fold-snapshot@1"
INDEX_SPACE = f"{FORMAT}:index"
STATE_SPACE = f"{FORMAT}:state"
KEEP = 8
"""Snapshots kept per graph (the newest by seq): each holds every record, so they are few."""


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


def _anchor(graph: str, seq: int, checksum: str) -> str:
    """The digest a mark is kept under: the ledger entry it belongs to, in this format."""
    return hashlib.sha256(f"{FORMAT}\0{graph}\0{seq}\0{checksum}".encode()).hexdigest()


def encode(state: GraphState) -> str:
    """The state's records in their dict order (adjacency is rebuilt from the edges' order,
    which is the order they were added in, as the fold appended them)."""
    nodes = [n.to_dict() for n in state.nodes.values()]
    edges = [e.to_dict() for e in state.edges.values()]
    return json.dumps({"nodes": nodes, "edges": edges}, ensure_ascii=False, separators=(",", ":"))


def decode(body: str) -> GraphState:
    """The state ``encode`` wrote; ``ValueError``, ``TypeError``, ``KeyError`` or
    ``DecisisError`` for a body that is not one."""
    data = json.loads(body)
    state = GraphState()
    for raw in data["nodes"]:
        node = Node.from_dict(raw)
        state.nodes[node.id] = node
    out: dict[str, list[str]] = defaultdict(list)
    into: dict[str, list[str]] = defaultdict(list)
    for raw in data["edges"]:
        edge = Edge.from_dict(raw)
        state.edges[edge.id] = edge
        out[edge.source].append(edge.id)
        into[edge.target].append(edge.id)
    state.out_edges, state.in_edges = out, into
    return state


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
    mark's SHA-256 (edited behind decisis's back) or does not decode."""
    body = store.get_derived(graph, STATE_SPACE, [mark.item], digests={mark.item: mark.sha})
    text = body.get(mark.item)
    if text is None or hashlib.sha256(text.encode()).hexdigest() != mark.sha:
        return None
    try:
        return decode(text)
    except (ValueError, TypeError, KeyError, DecisisError):
        return None


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
        for old in marks(store, graph)[KEEP:]:
            forget(store, graph, old)
    except DecisisError:
        return None
    return mark


def forget(store: Store, graph: str, mark: Mark) -> None:
    """Drop a snapshot (stale or beyond ``KEEP``): its mark first, so no reader finds half."""
    with contextlib.suppress(DecisisError):
        store.delete_derived(graph, INDEX_SPACE, [mark.item])
        store.delete_derived(graph, STATE_SPACE, [mark.item])
