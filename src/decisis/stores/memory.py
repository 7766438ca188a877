"""The memory store: every graph held in Python, the reference fold run directly.

It is a feature (scratch graphs, ``Graph.at(t)`` snapshots) and the test double
the conformance suite measures the other backends against, so its reads spell
out the ordering rules of ``decisis.stores.base`` as plainly as possible.

Writes are all-or-none without copying the graph: while a batch is open, the
state's dictionaries remember the value each key had before the batch touched
it, and a refused draft puts those values back (cost proportional to the batch).
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final, TypeVar, cast

from decisis.errors import (
    AmbiguousId,
    Conflict,
    DecisisError,
    IntegrityError,
    InvalidInput,
    NotFound,
    StoreError,
    UnsupportedStore,
)
from decisis.ledger import GENESIS, chain_checksum, check_chain
from decisis.model import (
    Edge,
    EdgeType,
    Event,
    EventDraft,
    EventKind,
    LinkState,
    Node,
    NodeStatus,
    NodeType,
    parse_time,
)
from decisis.model.ids import is_id_prefix
from decisis.model.validation import check_confidence
from decisis.proof import leaf_hash
from decisis.stores import prefixes
from decisis.stores.about import is_about
from decisis.stores.base import DEFAULT_MAX_DEPTH, Direction, Reached, SearchHit, StorageCheck
from decisis.stores.checks import (
    check_aware,
    check_direction,
    check_edge_types,
    check_head,
    check_limit,
    check_members,
    check_non_negative,
)
from decisis.stores.derived import DerivedItems, check_items, check_names, pick
from decisis.stores.fold import GraphState, apply, canonical_draft
from decisis.stores.memory_vectors import MemoryVectors, VectorMethods
from decisis.stores.merkle import Tree, event_leaf

__all__ = ["MemoryStore"]

V = TypeVar("V")
_ABSENT: Final = object()
_WORD = re.compile(r"[^\W_]+")


class _Journaled(dict[str, V]):
    """A dict that, while a batch is open, keeps each key's value from before the batch.

    ``fold.apply`` changes a state in place through ``d[k] = v`` and, for the
    adjacency lists, ``d[k].append(...)``; with ``lists=True`` a read also saves a
    copy of the list, since the caller may be about to append to it.
    """

    def __init__(self, *, lists: bool = False) -> None:
        super().__init__()
        self._lists = lists
        self._saved: dict[str, Any] | None = None

    def _save(self, key: str) -> None:
        saved = self._saved
        if saved is not None and key not in saved:
            old = dict.get(self, key, _ABSENT)
            saved[key] = list(old) if self._lists and isinstance(old, list) else old

    def __setitem__(self, key: str, value: V) -> None:
        self._save(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._save(key)
        super().__delitem__(key)

    def __getitem__(self, key: str) -> V:
        if self._lists:
            self._save(key)
        return super().__getitem__(key)

    def __missing__(self, key: str) -> V:
        if not self._lists:
            raise KeyError(key)
        value = cast(V, [])
        self[key] = value
        return value

    def begin(self) -> None:
        self._saved = {}

    def commit(self) -> None:
        self._saved = None

    def rollback(self) -> None:
        saved, self._saved = self._saved or {}, None
        for key, old in saved.items():
            if old is _ABSENT:
                dict.pop(self, key, None)
            else:
                dict.__setitem__(self, key, old)


def _new_state() -> GraphState:
    return GraphState(
        nodes=_Journaled[Node](),
        edges=_Journaled[Edge](),
        out_edges=_Journaled[list[str]](lists=True),
        in_edges=_Journaled[list[str]](lists=True),
    )


def _journals(state: GraphState) -> list[_Journaled[Any]]:
    parts = [state.nodes, state.edges, state.out_edges, state.in_edges]
    return [p for p in parts if isinstance(p, _Journaled)]


@dataclass
class _Graph:
    """One named graph: its state (the tables), its ledger and the head beside it."""

    state: GraphState = field(default_factory=_new_state)
    events: list[Event] = field(default_factory=list)
    head: tuple[int, str] = (0, GENESIS)
    by_entity: dict[str, list[int]] = field(default_factory=dict)  # entity -> ledger positions
    tree: Tree = field(default_factory=Tree)  # the Merkle tree over ``events``
    checkpoints: list[dict[str, Any]] = field(default_factory=list)


class MemoryStore(VectorMethods):
    """A ``Store`` held in memory; many named graphs, one lock, nothing persisted."""

    def __init__(self, url: str = "memory://") -> None:
        if not url.startswith("memory://"):
            raise UnsupportedStore(f"MemoryStore cannot open {url!r}: use memory://")
        self.url = url
        self._graphs: dict[str, _Graph] = {}
        self._lock = threading.RLock()
        self._closed = False
        self._derived: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
        self._vectors = MemoryVectors()  # derived data beside the graphs: ``memory_vectors``

    def __repr__(self) -> str:
        return f"MemoryStore({self.url!r})"

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _graph(self, graph: str) -> _Graph:
        """The graph's data, an empty stand-in when it has none (reads never fail for that)."""
        if self._closed:
            raise StoreError(f"{self.url} is closed")
        data = self._graphs.get(graph)
        return data if data is not None else _Graph()

    def _node_map(self, graph: str) -> Mapping[str, Node]:
        return self._graph(graph).state.nodes

    # -- writes ---------------------------------------------------------------
    def append(
        self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
    ) -> list[Event]:
        """Check, apply and append ``drafts`` atomically; return the stored events (with
        ``after_seq``, only while it is the graph's last event: ``Store.append``)."""
        check_non_negative(after_seq, "after_seq")
        with self._lock:
            data = self._graph(graph)
            if drafts:  # nothing to write: nothing to check, as in every backend
                check_head(graph, data.head[0], after_seq)
            journals = _journals(data.state)
            for journal in journals:
                journal.begin()
            try:
                new, leaves = self._apply_all(graph, data, drafts)
            except BaseException:
                for journal in journals:
                    journal.rollback()
                raise
            for journal in journals:
                journal.commit()
            if new:
                self._graphs[graph] = data
                self._record(data, new, leaves)
                # as recorded: a tombstone later in the batch marks the entries before it
                new = data.events[-len(new) :]
            return new

    @staticmethod
    def _apply_all(
        graph: str, data: _Graph, drafts: Sequence[EventDraft]
    ) -> tuple[list[Event], list[bytes]]:
        """The drafts checked and folded into ``data``'s state, as events and their Merkle
        leaves (hashed from the bytes the chain hashed)."""
        seq, prev = data.head
        new: list[Event] = []
        leaves: list[bytes] = []
        for draft in drafts:
            seq += 1
            c = canonical_draft(graph, seq, draft)
            apply(data.state, c.kind, c.payload, c.record)
            checksum = chain_checksum(c.raw, prev)
            new.append(Event(graph, seq, c.kind, draft.entity, c.payload, c.at, prev, checksum))
            leaves.append(leaf_hash(c.raw))
            prev = checksum
        return new, leaves

    @staticmethod
    def _record(data: _Graph, new: Sequence[Event], leaves: Sequence[bytes] | None = None) -> None:
        """Put committed events in the ledger, moving the head, marking tombstoned history
        and growing the Merkle tree."""
        data.tree.add(map(event_leaf, new) if leaves is None else leaves)
        for event in new:
            data.by_entity.setdefault(event.entity, []).append(len(data.events))
            data.events.append(event)
            data.head = (event.seq, event.checksum)
            if event.kind is EventKind.TOMBSTONED:
                at = parse_time(event.payload["at"], "at")
                reason = event.payload.get("reason")
                for position in data.by_entity[event.entity][:-1]:
                    data.events[position] = replace(
                        data.events[position], invalidated_at=at, invalidated_reason=reason
                    )

    def load_ledger(self, graph: str, events: Iterable[Event]) -> int:
        """Install an existing ledger as ``graph``, entries kept as they are (checksums too).

        Used for snapshots and copies: the chain is checked, each entry replayed
        through the fold, and the invalidation marks recomputed from its tombstones.
        ``Conflict`` if the graph already has events, ``IntegrityError`` if the
        ledger is broken or the fold refuses an entry. Returns the entries loaded.
        """
        entries = [replace(e, invalidated_at=None, invalidated_reason=None) for e in events]
        _, problem = check_chain(entries)
        if problem is not None:
            raise IntegrityError(f"seq {problem.seq}: {problem.reason}", problem.seq)
        if any(e.graph != graph for e in entries):
            raise IntegrityError(f"the ledger is not graph {graph!r}'s")
        with self._lock:
            if self._graph(graph).events:
                raise Conflict(f"graph {graph!r} already has a ledger")
            data = _Graph()
            for event in entries:
                try:
                    apply(data.state, event.kind, event.payload)
                except DecisisError as exc:
                    raise IntegrityError(f"seq {event.seq}: {exc}", event.seq) from exc
            if entries:
                self._graphs[graph] = data
                self._record(data, entries)
            return len(entries)

    # -- records --------------------------------------------------------------
    def get_node(self, graph: str, node_id: str) -> Node:
        """The node, tombstoned or not; ``NotFound`` when absent."""
        with self._lock:
            node = self._graph(graph).state.nodes.get(node_id)
            if node is None:
                raise NotFound("node", node_id, graph)
            return node

    def get_edge(self, graph: str, edge_id: str) -> Edge:
        with self._lock:
            edge = self._graph(graph).state.edges.get(edge_id)
            if edge is None:
                raise NotFound("edge", edge_id, graph)
            return edge

    def _all_ids(self, graph: str) -> list[str]:
        state = self._graph(graph).state
        return sorted([*state.nodes, *state.edges])

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        """The one node or edge id starting with ``prefix`` (any case, tombstoned included)."""
        if not isinstance(prefix, str) or not is_id_prefix(prefix):
            raise NotFound("node or edge", str(prefix), graph)
        wanted = prefix.lower()
        with self._lock:
            ids = self._all_ids(graph)
        start = bisect.bisect_left(ids, wanted)
        matches = []
        for candidate in ids[start:]:
            if not candidate.startswith(wanted):
                break
            matches.append(candidate)
        if not matches:
            raise NotFound("node or edge", prefix, graph)
        if len(matches) > 1:
            raise AmbiguousId("node or edge", prefix, matches, graph)
        return matches[0]

    def short_ids(self, graph: str, ids: Sequence[str], min_length: int = 8) -> dict[str, str]:
        """Each id's shortest prefix (at least ``min_length``) unique among the graph's ids."""
        with self._lock:
            known = self._all_ids(graph)
        return prefixes.short_ids(
            ids, min_length, lambda key: prefixes.sorted_neighbours(known, key)
        )

    def nodes(
        self,
        graph: str,
        *,
        types: Sequence[NodeType] | None = None,
        statuses: Sequence[NodeStatus] | None = None,
        newest_first: bool = False,
        limit: int | None = None,
        as_of: datetime | None = None,
        include_tombstoned: bool = False,
    ) -> list[Node]:
        """Nodes ordered by id (creation order), or newest first."""
        check_aware(as_of, "as_of")
        limit = check_limit(limit, "limit")
        checked_types = check_members(NodeType, types, "type")
        checked_statuses = check_members(NodeStatus, statuses, "status")
        type_set = None if checked_types is None else set(checked_types)
        status_set = None if checked_statuses is None else set(checked_statuses)
        with self._lock:
            state = self._graph(graph).state
            found = [
                node
                for node in state.nodes.values()
                if _visible(node, as_of, include_tombstoned)
                and (type_set is None or node.type in type_set)
                and (status_set is None or node.status in status_set)
            ]
        found.sort(key=lambda n: n.id, reverse=newest_first)
        return found if limit is None else found[:limit]

    def edges(
        self,
        graph: str,
        *,
        node: str | None = None,
        direction: Direction | None = None,
        types: Sequence[EdgeType] | None = None,
        as_of: datetime | None = None,
        include_tombstoned: bool = False,
    ) -> list[Edge]:
        """Edges ordered by id; with ``node``, those leaving it, entering it, or both."""
        check_aware(as_of, "as_of")
        check_direction(direction, optional=True)
        if direction is not None and node is None:
            raise InvalidInput("direction", "needs a node to be relative to", "a node id")
        checked = check_edge_types(types)
        type_set = None if checked is None else set(checked)
        with self._lock:
            state = self._graph(graph).state
            found = [
                edge
                for edge in state.edges.values()
                if (node is None or _touches(edge, node, direction))
                and (type_set is None or edge.type in type_set)
                and _edge_visible(state, edge, as_of, include_tombstoned)
            ]
        found.sort(key=lambda e: e.id)
        return found

    # -- traversals ------------------------------------------------------------
    def traverse(
        self,
        graph: str,
        start: str,
        *,
        direction: Direction,
        edge_types: Sequence[EdgeType] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        as_of: datetime | None = None,
    ) -> list[Reached]:
        """Breadth first: each node once at its smallest depth, ordered by (depth, id);
        among equal-depth parents the smallest id is ``via``, then the smallest edge type.
        ``as_of`` does not apply to ``start`` (a tombstone does)."""
        with self._lock:
            check_direction(direction)
            walk = self._walk(
                graph, [start], edge_types=edge_types, max_depth=max_depth, as_of=as_of
            )
            walk = replace(walk, start=start)
            if not walk.shows(start):
                return []
            seen, frontier, found = {start}, [start], []
            for depth in range(1, max_depth + 1):
                best: dict[str, tuple[str, str]] = {}  # node -> (via, edge type) of its first hop
                for via in frontier:
                    for neighbour, edge_type in walk.step(via, direction):
                        hop = (via, edge_type.value)
                        if neighbour not in seen and (
                            neighbour not in best or hop < best[neighbour]
                        ):
                            best[neighbour] = hop
                if not best:
                    break
                frontier = sorted(best)
                seen.update(frontier)
                for n in frontier:
                    via, type_name = best[n]
                    found.append(Reached(walk.state.nodes[n], depth, via, EdgeType(type_name)))
            return found

    def path_between(
        self,
        graph: str,
        source: str,
        target: str,
        *,
        edge_types: Sequence[EdgeType] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        as_of: datetime | None = None,
    ) -> list[str]:
        """A shortest directed path, the lexicographically smallest among equals, or ``[]``.

        Distances to ``target`` come from a backward search; walking forward from
        ``source`` to the smallest neighbour one step closer then yields the
        smallest sequence.
        """
        with self._lock:
            walk = self._walk(
                graph, [source, target], edge_types=edge_types, max_depth=max_depth, as_of=as_of
            )
            if not (walk.shows(source) and walk.shows(target)):
                return []
            distance = {target: 0}
            queue = deque([target])
            while queue and source not in distance:
                current = queue.popleft()
                if distance[current] < max_depth:
                    for neighbour, _ in walk.step(current, "in"):
                        if neighbour not in distance:
                            distance[neighbour] = distance[current] + 1
                            queue.append(neighbour)
            if source not in distance:
                return []
            path = [source]
            while path[-1] != target:
                closer = distance[path[-1]] - 1
                path.append(
                    min(n for n, _ in walk.step(path[-1], "out") if distance.get(n) == closer)
                )
            return path

    def supersession_region(
        self, graph: str, start: str, *, floor: float = 0.0, as_of: datetime | None = None
    ) -> list[Edge]:
        """Breadth first against supersedes edges, pair by pair (the rule of ``base.Store``)."""
        check_aware(as_of, "as_of")
        level = check_confidence(floor, "floor") or 0.0
        with self._lock:
            state = self._graph(graph).state
            if start not in state.nodes:
                raise NotFound("node", start, graph)
            if state.nodes[start].tombstoned:
                return []
            found: list[Edge] = []
            seen, frontier = {start}, [start]
            while frontier:
                reached = []
                for old in frontier:
                    for new, edges in _replacing_pairs(state, old, as_of).items():
                        if _pair_followed(edges, level):
                            found += edges
                            if new not in seen:
                                seen.add(new)
                                reached.append(new)
                frontier = reached
        return sorted(found, key=lambda e: e.id)

    def _walk(
        self,
        graph: str,
        ends: Sequence[str],
        *,
        edge_types: Sequence[EdgeType] | None,
        max_depth: int,
        as_of: datetime | None,
    ) -> _Walk:
        """Check a traversal's arguments (``ends`` must exist) and return its view."""
        check_aware(as_of, "as_of")
        check_non_negative(max_depth, "max_depth")
        checked = check_edge_types(edge_types)
        types = None if checked is None else frozenset(checked)
        state = self._graph(graph).state
        for node_id in ends:
            if node_id not in state.nodes:
                raise NotFound("node", node_id, graph)
        return _Walk(state, types, as_of)

    def search(
        self, graph: str, query: str, *, limit: int = 10, as_of: datetime | None = None
    ) -> list[SearchHit]:
        """Token match over label and rationale: score = query words found, newest first on ties."""
        check_aware(as_of, "as_of")
        limit = check_limit(limit, "limit", required=True)
        terms = {word.lower() for word in _WORD.findall(query)}
        if not terms:
            return []
        hits = []
        with self._lock:
            for node in self._graph(graph).state.nodes.values():
                if _visible(node, as_of, False):
                    words = {
                        w.lower() for w in _WORD.findall(f"{node.label} {node.rationale or ''}")
                    }
                    score = len(terms & words)
                    if score:
                        hits.append(SearchHit(node, float(score)))
        hits.sort(key=lambda h: h.node.id, reverse=True)
        hits.sort(key=lambda h: h.score, reverse=True)  # stable: newest first among equals
        return hits[:limit]

    # -- ledger -----------------------------------------------------------------
    def events(
        self, graph: str, *, after_seq: int = 0, until: datetime | None = None
    ) -> Iterator[Event]:
        """Ledger entries in ``seq`` order (a copy taken under the lock)."""
        check_aware(until, "until")
        check_non_negative(after_seq, "after_seq", required=True)
        with self._lock:
            entries = list(self._graph(graph).events)
        return iter([e for e in entries if e.seq > after_seq and (until is None or e.at <= until)])

    def history(self, graph: str, record_id: str, *, until: datetime | None = None) -> list[Event]:
        """The entries about one record, in ``seq`` order (``decisis.stores.about``)."""
        check_aware(until, "until")
        with self._lock:
            entries = self._graph(graph).events
            return [
                e for e in entries if is_about(e, record_id) and (until is None or e.at <= until)
            ]

    def head(self, graph: str) -> tuple[int, str]:
        with self._lock:
            return self._graph(graph).head

    @contextmanager
    def write_lock(self, graph: str) -> Iterator[None]:
        """The store's one lock: no other thread reads or writes it until the block ends
        (an append inside lands as it is made)."""
        with self._lock:
            yield

    # -- the Merkle tree and checkpoints (``decisis.stores.merkle``) ------------------
    def tree_size(self, graph: str) -> int:
        with self._lock:
            return self._graph(graph).tree.size

    def tree_hashes(
        self, graph: str, keys: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], bytes]:
        with self._lock:
            return self._graph(graph).tree.fetch(keys)

    def catch_up_tree(self, graph: str) -> int:
        """Always caught up: every entry comes through ``_record``."""
        return self.tree_size(graph)

    def put_checkpoint(self, graph: str, checkpoint: Mapping[str, Any]) -> None:
        with self._lock:
            data = self._graph(graph)
            data.checkpoints.append(dict(checkpoint))
            data.checkpoints.sort(key=lambda c: (c["size"], c["time"], c["key_id"]))
            self._graphs[graph] = data

    def checkpoints(self, graph: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(c) for c in self._graph(graph).checkpoints]

    # -- derived data (``decisis.stores.derived``) --------------------------------------
    def put_derived(self, graph: str, space: str, items: DerivedItems) -> int:
        rows = check_items(space, items)
        with self._lock:
            kept = self._derived.setdefault((graph, space), {})
            for item, digest, body in rows:
                kept[item] = (digest, body)
        return len(rows)

    def get_derived(
        self,
        graph: str,
        space: str,
        items: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        names = check_names(space, items)
        with self._lock:
            return pick(self._derived.get((graph, space), {}), names, digests)

    def delete_derived(self, graph: str, space: str, items: Sequence[str] | None = None) -> int:
        names = check_names(space, items)
        with self._lock:
            kept = self._derived.get((graph, space), {})
            if names is None:
                return len(self._derived.pop((graph, space), {}))
            return sum(kept.pop(item, None) is not None for item in dict.fromkeys(names))

    def derived_spaces(self, graph: str) -> dict[str, int]:
        with self._lock:
            return {
                space: len(kept)
                for (name, space), kept in sorted(self._derived.items())
                if name == graph and kept
            }

    def check_storage(self, graph: str, *, quick: bool = False) -> StorageCheck:
        """Nothing beyond the tables: the records are the process's own objects."""
        return StorageCheck()

    def graphs(self) -> list[str]:
        with self._lock:
            if self._closed:
                raise StoreError(f"{self.url} is closed")
            return sorted(name for name, data in self._graphs.items() if data.events)


@dataclass(frozen=True)
class _Walk:
    """One traversal's view of a graph: which nodes show and which edges may be walked."""

    state: GraphState
    types: frozenset[EdgeType] | None
    as_of: datetime | None
    start: str | None = None  # a traversal's start, which ``as_of`` does not filter

    def shows(self, node_id: str) -> bool:
        node = self.state.nodes[node_id]
        return _visible(node, None if node_id == self.start else self.as_of, False)

    def step(self, node_id: str, direction: Direction) -> Iterator[tuple[str, EdgeType]]:
        """The neighbours one walkable edge away, with that edge's type."""
        index = self.state.out_edges if direction == "out" else self.state.in_edges
        for edge_id in index.get(node_id, ()):
            edge = self.state.edges[edge_id]
            if (
                (self.types is None or edge.type in self.types)
                and _visible(edge, self.as_of, False)
                and self.shows(edge.source)
                and self.shows(edge.target)
            ):
                yield (edge.target if direction == "out" else edge.source), edge.type


def _visible(record: Node | Edge, as_of: datetime | None, include_tombstoned: bool) -> bool:
    if record.tombstoned and not include_tombstoned:
        return False
    return as_of is None or record.valid_at(as_of)


def _replacing_pairs(state: GraphState, old: str, as_of: datetime | None) -> dict[str, list[Edge]]:
    """The showing supersedes edges into ``old``, by the record that replaces it."""
    pairs: dict[str, list[Edge]] = {}
    for edge_id in state.in_edges.get(old, ()):
        edge = state.edges[edge_id]
        if (
            edge.type is EdgeType.SUPERSEDES
            and _visible(edge, as_of, False)
            and _visible(state.nodes[edge.source], as_of, False)
        ):
            pairs.setdefault(edge.source, []).append(edge)
    return pairs


def _pair_followed(edges: Sequence[Edge], floor: float) -> bool:
    """No edge rejected, and one stated or confirmed or their confidences summing to ``floor``."""
    states = {edge.state for edge in edges}
    if LinkState.REJECTED in states:
        return False
    if states & {LinkState.STATED, LinkState.CONFIRMED}:
        return True
    return sum(edge.confidence or 0.0 for edge in edges) >= floor


def _edge_visible(
    state: GraphState, edge: Edge, as_of: datetime | None, include_tombstoned: bool
) -> bool:
    """An edge shows when it and both its endpoints show."""
    return (
        _visible(edge, as_of, include_tombstoned)
        and _visible(state.nodes[edge.source], as_of, include_tombstoned)
        and _visible(state.nodes[edge.target], as_of, include_tombstoned)
    )


def _touches(edge: Edge, node: str, direction: Direction | None) -> bool:
    if direction == "out":
        return edge.source == node
    if direction == "in":
        return edge.target == node
    return node in (edge.source, edge.target)
