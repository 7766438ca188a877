"""``view_at``: a memory store holding a graph as it stood at a moment, for ``Graph.at``.

Its tables come from the version index (``past_at``: each record read when first asked
for) or, where that cannot answer, from ``past.state_at`` (a kept snapshot and the entries
after it). Its
ledger (``events``, ``history``, the Merkle tree, ``append``) is the same prefix a full
replay installs, tombstone marks recomputed within it, but read from the source store
only when first asked for: most questions to the past read the tables alone. So the
source must stay open while the view's ledger is first read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from decisis.errors import IntegrityError, NotFound
from decisis.ledger import check_chain
from decisis.model import Edge, EdgeType, Event, EventDraft
from decisis.model.ids import ID_LENGTH, is_id
from decisis.stores.base import Direction, Store
from decisis.stores.checks import check_aware, check_direction, check_edge_types
from decisis.stores.fold import GraphState
from decisis.stores.memory import MemoryStore, _edge_visible, _Graph, _new_state
from decisis.stores.past import EVERY, leading_run, state_at
from decisis.stores.past_at import TAIL, indexed_state
from decisis.stores.past_lazy import LazyRecords, materialised

__all__ = ["PastStore", "view_at"]


def view_at(
    store: Store,
    graph: str,
    moment: datetime,
    *,
    every: int = EVERY,
    index: bool = True,
    tail: int = TAIL,
) -> PastStore:
    """``graph`` of ``store`` as it stood when its ledger reached ``moment``: from the
    version index (``index``; ``tail`` as in ``past_at``), else from snapshots (``every``)."""
    found = indexed_state(store, graph, moment, tail=tail) if index else None
    state, head = found if found is not None else state_at(store, graph, moment, every=every)
    return PastStore(store, graph, moment, state, head)


class PastStore(MemoryStore):
    """A memory store whose one graph's ledger is loaded from ``source`` on first read."""

    def __init__(
        self,
        source: Store,
        graph: str,
        moment: datetime,
        state: GraphState,
        head: tuple[int, str],
    ) -> None:
        super().__init__(f"memory://snapshot/{graph}")
        self._source, self._name, self._moment = source, graph, moment
        self._ledger_read = head[0] == 0
        self._lazy = isinstance(state.nodes, LazyRecords)
        if head[0]:
            data = _Graph()
            if self._lazy:  # read as asked for, until a write needs a state it can roll back
                data.state = state
            else:
                materialised(state, data.state)  # plain updates: no batch is open
            data.head = head
            self._graphs[graph] = data

    def _settle(self) -> None:
        """Every record read in, so that a write can roll back (``MemoryStore.append``)."""
        with self._lock:
            if self._lazy:
                data = self._graph(self._name)
                data.state = materialised(data.state, _new_state())
                self._lazy = False

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
        """A node's edges are read through its adjacency; all edges read every record."""
        if not (self._lazy and graph == self._name and isinstance(node, str)):
            return super().edges(
                graph,
                node=node,
                direction=direction,
                types=types,
                as_of=as_of,
                include_tombstoned=include_tombstoned,
            )
        check_aware(as_of, "as_of")
        check_direction(direction, optional=True)
        checked = check_edge_types(types)
        with self._lock:
            state = self._graph(graph).state
            ids: list[str] = []
            if direction != "in":
                ids += state.out_edges.get(node, ())
            if direction != "out":
                ids += state.in_edges.get(node, ())
            found = [
                edge
                for edge in map(state.edges.__getitem__, dict.fromkeys(ids))
                if (checked is None or edge.type in checked)
                and _edge_visible(state, edge, as_of, include_tombstoned)
            ]
        return sorted(found, key=lambda e: e.id)

    def resolve_prefix(self, graph: str, prefix: str) -> str:
        """A whole id is looked up alone; a shorter prefix reads every id."""
        wanted = prefix.lower() if isinstance(prefix, str) else ""
        if self._lazy and graph == self._name and len(wanted) == ID_LENGTH and is_id(wanted):
            with self._lock:
                state = self._graph(graph).state
                if wanted in state.nodes or wanted in state.edges:
                    return wanted
            raise NotFound("node or edge", prefix, graph)
        return super().resolve_prefix(graph, prefix)

    def _read_ledger(self) -> None:
        """Install the prefix up to the head as a full replay would: entries as stored,
        chain checked, marks only from the tombstones within it."""
        with self._lock:
            if self._ledger_read:
                return
            data = self._graph(self._name)
            seq, checksum = data.head
            run = leading_run(self._source.events(self._name, until=self._moment))[:seq]
            entries = [replace(e, invalidated_at=None, invalidated_reason=None) for e in run]
            _, broken = check_chain(entries)
            if broken is not None:
                raise IntegrityError(f"seq {broken.seq}: {broken.reason}", broken.seq)
            if len(entries) != seq or entries[-1].checksum != checksum:
                raise IntegrityError(f"the ledger no longer holds seq {seq} as it was read", seq)
            self._record(data, entries)
            self._ledger_read = True

    # every read of the ledger, and every write (which extends it), reads it first
    def append(
        self, graph: str, drafts: Sequence[EventDraft], *, after_seq: int | None = None
    ) -> list[Event]:
        self._read_ledger()
        self._settle()
        return super().append(graph, drafts, after_seq=after_seq)

    def load_ledger(self, graph: str, events: Any) -> int:
        self._read_ledger()
        self._settle()
        return super().load_ledger(graph, events)

    def events(
        self, graph: str, *, after_seq: int = 0, until: datetime | None = None
    ) -> Iterator[Event]:
        self._read_ledger()
        return super().events(graph, after_seq=after_seq, until=until)

    def history(self, graph: str, record_id: str, *, until: datetime | None = None) -> list[Event]:
        self._read_ledger()
        return super().history(graph, record_id, until=until)

    def graphs(self) -> list[str]:
        self._read_ledger()
        return super().graphs()

    def tree_size(self, graph: str) -> int:
        self._read_ledger()
        return super().tree_size(graph)

    def tree_hashes(
        self, graph: str, keys: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], bytes]:
        self._read_ledger()
        return super().tree_hashes(graph, keys)

    def catch_up_tree(self, graph: str) -> int:
        self._read_ledger()
        return super().catch_up_tree(graph)

    def put_checkpoint(self, graph: str, checkpoint: Mapping[str, Any]) -> None:
        self._read_ledger()
        super().put_checkpoint(graph, checkpoint)
