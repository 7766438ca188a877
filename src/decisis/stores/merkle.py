"""The Merkle tree over a graph's ledger, kept beside it as it grows (``decisis.proof``).

Derived data, like the full-text index: not ledger events, not in any checksum; every
entry of it follows from the ledger, and ``verify --checkpoint`` recomputes what it needs
from the ledger instead of trusting it. What is kept, per graph:

* every complete subtree's hash, ``(level, index)`` covering leaves
  ``[index * 2**level, (index + 1) * 2**level)`` (level 0: the leaves), about two per
  entry; a proof reads O(log n) of them, a root O(log n);
* the tree's head: its size and its *frontier*, the hashes of the complete subtrees that
  cover ``[0, size)`` from the left (one per bit set in ``size``, largest first), so that
  appending hashes only the new entries: one leaf each and a node per subtree completed.

Each SQL backend extends it in the append's own transaction (``extend_sql``), so it is
never behind or ahead of a ledger decisis wrote; a store opened from before it existed
catches up on its first append or checkpoint. Checkpoints a graph signed are kept beside
it too (``checkpoints`` table), as the JSON they were written as.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from decisis.errors import IntegrityError
from decisis.ledger import canonical_bytes
from decisis.model import Event
from decisis.proof import (
    EMPTY_ROOT,
    consistency_ranges,
    inclusion_ranges,
    leaf_hash,
    node_hash,
    subtrees,
)

__all__ = [
    "Key",
    "SqlTree",
    "Tree",
    "event_leaf",
    "fold",
    "grow",
    "leaf_data",
    "paged",
    "range_hashes",
]

Key = tuple[int, int]  # (level, index) of a complete subtree
Fetch = Callable[[Sequence[Key]], Mapping[Key, bytes]]
_HASH = 32
_PAGE = 1000
_ROWS_A_STATEMENT = 1000  # 4 parameters each: under every backend's limit


def leaf_data(event: Event) -> bytes:
    """A leaf's data: the entry's canonical bytes, as the chain hashes them."""
    return canonical_bytes(
        event.graph, event.seq, event.kind, event.entity, event.payload, event.at
    )


def event_leaf(event: Event) -> bytes:
    return leaf_hash(leaf_data(event))


def fold(hashes: Sequence[bytes]) -> bytes:
    """The root over complete subtrees given left to right (``proof.subtrees``)."""
    if not hashes:
        return EMPTY_ROOT
    root = hashes[-1]
    for left in reversed(hashes[:-1]):
        root = node_hash(left, root)
    return root


def grow(
    size: int, frontier: list[bytes], leaves: Iterable[bytes]
) -> tuple[int, list[bytes], list[tuple[int, int, bytes]]]:
    """Append leaf hashes to a tree of ``size`` with ``frontier``: the new size and
    frontier, and the ``(level, index, hash)`` of every subtree that became complete."""
    frontier = list(frontier)
    rows: list[tuple[int, int, bytes]] = []
    for leaf in leaves:
        level, index, node = 0, size, leaf
        rows.append((0, index, node))
        while index & 1:  # a right child: it completes its parent with the subtree before it
            node = node_hash(frontier.pop(), node)
            level, index = level + 1, index >> 1
            rows.append((level, index, node))
        frontier.append(node)
        size += 1
    return size, frontier, rows


def range_hashes(ranges: Sequence[tuple[int, int]], fetch: Fetch) -> list[bytes]:
    """The MTH of each leaf range, from the stored subtrees, fetched in one call."""
    parts = [subtrees(lo, hi) for lo, hi in ranges]
    found = fetch(sorted({key for part in parts for key in part}))
    missing = [key for part in parts for key in part if key not in found]
    if missing:
        raise IntegrityError(
            f"the store's Merkle tree lacks subtree {missing[0]} (level, index): it was "
            "damaged or cut; run `decisis verify`"
        )
    return [fold([found[key] for key in part]) for part in parts]


@dataclass
class Tree:
    """A graph's tree held in memory (the memory store's, and ``verify``'s recomputation)."""

    size: int = 0
    frontier: list[bytes] = field(default_factory=list)
    nodes: dict[Key, bytes] = field(default_factory=dict)

    def add(self, leaves: Iterable[bytes]) -> None:
        self.size, self.frontier, rows = grow(self.size, self.frontier, leaves)
        self.nodes.update(((level, index), h) for level, index, h in rows)

    def root(self) -> bytes:
        return fold(self.frontier)

    def fetch(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        return {key: self.nodes[key] for key in keys if key in self.nodes}


@dataclass(frozen=True)
class SqlTree:
    """The tree's tables through one SQL dialect: ``p`` is its placeholder (``?``, ``%s``).

    ``merkle_nodes (graph, level, idx, hash)``, ``merkle_heads (graph, size, frontier)`` and
    ``checkpoints (graph, size, signed_at, key_id, document)``; see each backend's schema.
    ``by_reach``: ``merkle_nodes`` is ``(graph, reach, level, hash)`` instead, keyed by
    ``reach``, the leaves up to the subtree's end (``(idx + 1) << level``), then ``level``:
    every subtree an append completes ends at one of its own leaves, so its rows are
    neighbours in that key's order, one page of a clustered table (by ``(level, idx)``
    they fell on a page a level; SQLite, schema migration 10)."""

    p: str = "?"
    events_after: Callable[[Any, str, int], Iterable[Event]] | None = None
    by_reach: bool = False

    @property
    def head_sql(self) -> str:
        """The tree's head row (``size, frontier``) of the graph bound to the one parameter."""
        return f"SELECT size, frontier FROM merkle_heads WHERE graph = {self.p}"

    def head(self, conn: Any, graph: str) -> tuple[int, list[bytes]] | None:
        return self.head_of(conn.execute(self.head_sql, (graph,)).fetchone())

    @staticmethod
    def head_of(row: Any) -> tuple[int, list[bytes]] | None:
        """The size and frontier in a row ``head_sql`` read (``None``: no tree yet)."""
        if row is None:
            return None
        blob = bytes(row[1])
        return int(row[0]), [blob[i : i + _HASH] for i in range(0, len(blob), _HASH)]

    def size(self, conn: Any, graph: str) -> int:
        head = self.head(conn, graph)
        return 0 if head is None else head[0]

    def fetch(self, conn: Any, graph: str, keys: Sequence[Key]) -> dict[Key, bytes]:
        """One statement of point lookups by the primary key, one arm a key: every backend
        answers each from its index (an ``OR`` of pairs was a scan of the graph's rows)."""
        if not keys:
            return {}
        p = self.p
        params: list[Any] = []
        if self.by_reach:
            arm = (
                "SELECT level, (reach >> level) - 1, hash FROM merkle_nodes "
                f"WHERE graph = {p} AND reach = {p} AND level = {p}"
            )
            for level, index in keys:
                params += [graph, (index + 1) << level, level]
        else:
            arm = (
                "SELECT level, idx, hash FROM merkle_nodes "
                f"WHERE graph = {p} AND level = {p} AND idx = {p}"
            )
            for level, index in keys:
                params += [graph, level, index]
        rows = conn.execute(" UNION ALL ".join([arm] * len(keys)), params).fetchall()
        return {(int(r[0]), int(r[1])): bytes(r[2]) for r in rows}

    def extend(
        self,
        conn: Any,
        graph: str,
        events: Sequence[Event],
        head: tuple[int, list[bytes]] | bool | None = True,
        leaves: Sequence[bytes] | None = None,
    ) -> None:
        """Add the appended ``events`` (in the append's transaction), first catching up on
        entries the tree lacks (a store from before it); refuses a tree ahead of the ledger.
        ``head``: the tree's head as already read (``head_of``), or ``True`` to read it;
        ``leaves``: the events' leaf hashes, when the append has them from the bytes it
        chained (``leaf_hash(raw)``), else made from the events."""
        if not events:
            return
        if head is True:
            head = self.head(conn, graph)
        assert head is not False
        size, frontier = head if head is not None else (0, [])
        first = events[0].seq
        if size >= first:
            raise IntegrityError(
                f"graph {graph!r}: its Merkle tree holds {size} entries but the ledger only "
                f"{first - 1}: entries were dropped from the tail; writes are refused until "
                "this is explained: run `decisis verify --checkpoint`",
                size,
            )
        missing: list[Event] = []
        if size < first - 1:
            if self.events_after is None:
                raise IntegrityError(f"graph {graph!r}: the Merkle tree is behind the ledger")
            missing = [e for e in self.events_after(conn, graph, size) if e.seq < first]
        if leaves is None:
            leaves = [event_leaf(e) for e in events]
        caught_up = [event_leaf(e) for e in missing]
        self._write(conn, graph, head is not None, grow(size, frontier, [*caught_up, *leaves]))

    def _write(
        self,
        conn: Any,
        graph: str,
        existed: bool,
        grown: tuple[int, list[bytes], list[tuple[int, int, bytes]]],
    ) -> None:
        size, frontier, rows = grown
        p = self.p
        for start in range(0, len(rows), _ROWS_A_STATEMENT):
            chunk = rows[start : start + _ROWS_A_STATEMENT]
            params: list[Any] = []
            if self.by_reach:
                for level, index, h in chunk:
                    params += [graph, (index + 1) << level, level, h]
            else:
                for level, index, h in chunk:
                    params += [graph, level, index, h]
            conn.execute(_insert_nodes_sql(p, len(chunk), self.by_reach), params)
        blob = b"".join(frontier)
        if existed:
            conn.execute(
                f"UPDATE merkle_heads SET size = {p}, frontier = {p} WHERE graph = {p}",
                (size, blob, graph),
            )
        else:
            conn.execute(
                f"INSERT INTO merkle_heads (graph, size, frontier) VALUES ({p}, {p}, {p})",
                (graph, size, blob),
            )

    def catch_up(self, conn: Any, graph: str, head_seq: int) -> int:
        """Bring the tree up to the ledger's ``head_seq`` (in a write transaction); its size."""
        head = self.head(conn, graph)
        size, frontier = head if head is not None else (0, [])
        if size >= head_seq or self.events_after is None:
            return size
        events = [e for e in self.events_after(conn, graph, size) if e.seq <= head_seq]
        self._write(conn, graph, head is not None, grow(size, frontier, map(event_leaf, events)))
        return size + len(events)

    def put_checkpoint(self, conn: Any, graph: str, checkpoint: Mapping[str, Any]) -> None:
        p = self.p
        conn.execute(
            "INSERT INTO checkpoints (graph, size, signed_at, key_id, document) "
            f"VALUES ({p}, {p}, {p}, {p}, {p})",
            (
                graph,
                int(checkpoint["size"]),
                str(checkpoint["time"]),
                str(checkpoint["key_id"]),
                json.dumps(checkpoint, sort_keys=True),
            ),
        )

    def checkpoints(self, conn: Any, graph: str) -> list[dict[str, Any]]:
        rows = conn.execute(
            f"SELECT document FROM checkpoints WHERE graph = {self.p} "
            "ORDER BY size, signed_at, key_id",
            (graph,),
        ).fetchall()
        return [json.loads(row[0]) for row in rows]


@lru_cache(maxsize=64)  # the sizes batches come in: few
def _insert_nodes_sql(p: str, rows: int, by_reach: bool) -> str:
    """The statement that inserts ``rows`` subtrees, with placeholder ``p``."""
    values = ", ".join([f"({p}, {p}, {p}, {p})"] * rows)
    key = "reach, level" if by_reach else "level, idx"
    return f"INSERT INTO merkle_nodes (graph, {key}, hash) VALUES {values}"


def paged(
    events_page: Callable[[Any, str, int, Any, int], list[Event]],
) -> Callable[[Any, str, int], Iterator[Event]]:
    """``SqlTree.events_after`` from a backend's ``queries.events_page``."""

    def events_after(conn: Any, graph: str, after: int) -> Iterator[Event]:
        while True:
            page = events_page(conn, graph, after, None, _PAGE)
            yield from page
            if len(page) < _PAGE:
                return
            after = page[-1].seq

    return events_after


def inclusion(index: int, size: int, fetch: Fetch) -> list[bytes]:
    return range_hashes(inclusion_ranges(index, size), fetch)


def consistency(old: int, new: int, fetch: Fetch) -> list[bytes]:
    return range_hashes(consistency_ranges(old, new), fetch)


def root_at(size: int, fetch: Fetch) -> bytes:
    """The root of the tree's first ``size`` leaves, from the stored subtrees."""
    return fold(range_hashes([(0, size)], fetch)) if size else EMPTY_ROOT
