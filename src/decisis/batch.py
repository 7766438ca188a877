"""Batches: many writes to a graph in one transaction.

    with graph.batch() as batch:
        goal = batch.add_goal("Ship auth")
        decision = batch.record_decision("Use OAuth", goal=goal.id)
        batch.link(decision.id, other.id, "influenced")
    # landed here: one store append, one ledger segment; nothing if the block raised

A batch is a ``Graph`` over a ``BufferedWriter`` (the seam of ``decisis.writer``), whose
writes wait: each verb still checks its input and
the store's rules when called (against the stored records it touches with the
batch's own drafts applied, by the reference fold), and the drafts go to the store
together when the block ends. A batch holds at most ``MAX_BATCH_CHANGES`` changes
(``decisis.model.validation``): the call that would pass it is refused, and the
changes before it stay in the batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from decisis.errors import AmbiguousId, Conflict, NotFound
from decisis.model import Edge, Event, EventDraft, EventKind, Node
from decisis.model.events import check_payload
from decisis.model.validation import check_change_count, check_enum
from decisis.stores.fold import GraphState, apply
from decisis.stores.prefixes import common_prefix, sorted_neighbours
from decisis.writer import Writer

__all__ = ["BufferedWriter"]

R = TypeVar("R", Node, Edge)


class BufferedWriter:
    """The writes of one ``with graph.batch() as batch:`` block, landed together at its end
    through the writer beneath (``inner``).

    The verbs (``add_node``, ``record_decision``, ``link``, ``update``, ``supersede``,
    ``tombstone``, …) check their input and the store's rules when called, so an error
    still points at the line that caused it, and a refused call leaves nothing behind;
    their drafts wait here. When the block ends they go to the store in one ``append``:
    one transaction, consecutive ``seq``s, ``batch.written`` holds the events. If the
    block raises, nothing is written. A batch is a ``Graph``, so code that writes to a
    graph can write into a batch, and ``batch.batch()`` opens a nested block whose writes
    are dropped alone if it raises.

    Reads: ``resolve``, ``get`` and ``get_edge`` know what the batch added or changed,
    so a node added in the batch can be linked, updated or superseded by its id. Every
    other read runs in the store and sees the graph as it was before the batch; given a
    record the batch added, it raises ``Conflict`` rather than answer without it. The
    store checks everything again when the batch lands; the few rules that need
    records the batch never touched (a supersession cycle through stored links) are
    only checked then.
    """

    def __init__(self, inner: Writer, graph: str) -> None:
        self.inner = inner
        self.graph = graph  # its name, for the errors
        self.written: list[Event] = []  # the stored events, once the batch has landed
        self._drafts: list[EventDraft] = []
        self._loaded: dict[str, Node | Edge] = {}  # records read from the store, as stored
        self._state = GraphState()  # the loaded records with the drafts applied
        self._added: set[str] = set()  # ids of the records the drafts add
        self._marks: list[int] = []  # draft count at each open (nested) block
        self._ended = False

    def pending(self) -> int:
        return len(self._drafts)

    def enter(self) -> None:
        if self._ended:
            raise Conflict("this batch has ended; open a new one with graph.batch()")
        self._marks.append(len(self._drafts))

    def exit(self, failed: bool) -> None:
        mark = self._marks.pop()
        if failed:
            self._keep(mark)
        if self._marks:
            return
        self._ended = True
        if not failed and self._drafts:
            self.written = self.inner.append(self._drafts)

    # -- writes -------------------------------------------------------------------
    def append(self, changes: Sequence[EventDraft]) -> list[Event]:
        """Check ``changes`` against the batch's view and keep them; the events come when
        the batch lands, so this returns none."""
        if not self._marks:
            state = "has ended" if self._ended else "is not open: use it in a with block"
            raise Conflict(f"this batch {state}")
        check_change_count(len(self._drafts) + len(changes))  # before: a refusal keeps all
        try:
            for change in changes:
                self._apply(change)
        except BaseException:
            self._state = self._replay(self._drafts)  # undo the part of the call that passed
            raise
        self._drafts.extend(changes)
        self._added.update(_added_ids(changes))
        return []

    def _apply(self, change: EventDraft) -> None:
        kind = check_enum(EventKind, change.kind, "kind")
        payload = check_payload(kind, change.payload)
        for record_id, what in _touched(kind, payload):
            self._load(record_id, what)
        apply(self._state, kind, payload)

    def _load(self, record_id: str, what: str) -> None:
        """Read a record the batch is about to change into its view (once)."""
        state = self._state
        if record_id in state.nodes or record_id in state.edges:
            return
        record: Node | Edge | None = None
        if what in ("node", "record"):
            record = _stored(self.inner.node, record_id)
        if record is None and what in ("edge", "record"):
            record = _stored(self.inner.edge, record_id)
        if record is None:
            return  # applying the change says it is missing, as the store would
        self._loaded[record_id] = record
        _put(state, record)

    def _replay(self, changes: Sequence[EventDraft]) -> GraphState:
        """The view again: the loaded records with ``changes`` applied."""
        state = GraphState()
        for record in self._loaded.values():
            _put(state, record)
        for change in changes:
            apply(state, change.kind, change.payload)
        return state

    def _keep(self, count: int) -> None:
        """Drop every draft after the first ``count`` (a nested block that raised)."""
        if count < len(self._drafts):
            del self._drafts[count:]
            self._added = set(_added_ids(self._drafts))
            self._state = self._replay(self._drafts)

    # -- reads --------------------------------------------------------------------
    def resolve(self, ref: str) -> str:
        """The full id for an id or unique prefix, among stored records and those the
        batch added."""
        wanted = ref.strip().lower()
        if wanted in self._added:
            return wanted
        matches = sorted(i for i in self._added if wanted and i.startswith(wanted))
        try:
            stored = self.inner.resolve(ref)
        except AmbiguousId as exc:
            raise AmbiguousId("node or edge", ref, exc.matches + matches, self.graph) from None
        except NotFound:
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise AmbiguousId("node or edge", ref, matches, self.graph) from None
            raise
        if matches:
            raise AmbiguousId("node or edge", ref, [stored, *matches], self.graph)
        return stored

    def short_ids(self, ids: Sequence[str]) -> dict[str, str]:
        """Shortest prefixes unique among stored ids and those the batch added: what they
        will be once the batch lands (ids made in one millisecond share most characters)."""
        short = self.inner.short_ids(ids)
        added = sorted(self._added)
        for record_id, prefix in short.items():
            wanted = record_id.lower()
            near = sorted_neighbours(added, wanted)
            shared = max((common_prefix(wanted, n) for n in near), default=0)
            if shared >= len(prefix):
                short[record_id] = record_id[: shared + 1]
        return short

    def node(self, node_id: str) -> Node:
        node = self._state.nodes.get(node_id)
        return node if node is not None else self.inner.node(node_id)

    def edge(self, edge_id: str) -> Edge:
        edge = self._state.edges.get(edge_id)
        return edge if edge is not None else self.inner.edge(edge_id)

    def stored(self, record_id: str) -> str:
        if record_id in self._added:
            raise Conflict(
                f"{record_id} was added in this batch and is not stored yet: "
                "read it through the graph once the batch has landed"
            )
        return self.inner.stored(record_id)


def _touched(kind: EventKind, payload: dict[str, Any]) -> list[tuple[str, str]]:
    """The existing records (id, "node", "edge" or "record": either) an event reads or
    changes."""
    if kind is EventKind.EDGE_ADDED:
        edge = payload["edge"]
        return [(str(edge.get("source")), "node"), (str(edge.get("target")), "node")]
    if kind is EventKind.NODE_UPDATED:
        return [(payload["id"], "node")]
    if kind is EventKind.EDGE_UPDATED:
        return [(payload["id"], "edge")]
    if kind is EventKind.SUPERSEDED:
        return [(payload["old"], "node"), (payload["new"], "node")]
    if kind is EventKind.TOMBSTONED:
        return [(payload["id"], "edge" if payload["target"] == "edge" else "node")]
    if kind is EventKind.PROVENANCE:
        return [(payload["entity"], "record")]
    return []


def _stored(read: Callable[[str], R], record_id: str) -> R | None:
    try:
        return read(record_id)
    except LookupError:
        return None


def _added_ids(changes: Iterable[EventDraft]) -> Iterator[str]:
    for change in changes:
        payload = change.payload
        if change.kind == EventKind.NODE_ADDED:
            yield payload["node"]["id"]
        elif change.kind in (EventKind.EDGE_ADDED, EventKind.SUPERSEDED):
            yield payload["edge"]["id"]


def _put(state: GraphState, record: Node | Edge) -> None:
    if isinstance(record, Node):
        state.nodes[record.id] = record
    else:
        state.edges[record.id] = record
        state.out_edges[record.source].append(record.id)
        state.in_edges[record.target].append(record.id)
