"""The seam beneath a ``Graph``'s verbs, as a transport is beneath an httpx client: the
verbs check their input and draft the events; a ``Writer`` lands the drafts and reads back
the records they touch. ``DirectWriter`` lands each verb's drafts in the store at once;
``decisis.batch.BufferedWriter`` keeps them for one append when a ``with graph.batch()``
block ends. A batch is a ``Graph`` over a buffered writer, not a kind of ``Graph``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from decisis.model.validation import check_change_count

if TYPE_CHECKING:
    from decisis.model import Edge, Event, EventDraft, Node
    from decisis.stores import Store

__all__ = ["DirectWriter", "Writer"]


class Writer(Protocol):
    """What a ``Graph`` writes through and reads its own writes back from."""

    written: list[Event]  # the events a buffered writer landed, once it has

    def append(self, changes: Sequence[EventDraft]) -> list[Event]:
        """Land ``changes`` (or keep them): the stored events, none while they wait."""
        ...

    def resolve(self, ref: str) -> str:
        """The full id for ``ref`` (a checked, non-blank id or prefix)."""
        ...

    def short_ids(self, ids: Sequence[str]) -> dict[str, str]: ...
    def node(self, node_id: str) -> Node: ...
    def edge(self, edge_id: str) -> Edge: ...

    def stored(self, record_id: str) -> str:
        """``record_id``, for a read that runs in the store: refused if it is not stored yet."""
        ...

    def enter(self) -> None:
        """A ``with`` block on the graph begins."""
        ...

    def exit(self, failed: bool) -> None:
        """That block ends (``failed``: it raised)."""
        ...

    def pending(self) -> int | None:
        """How many changes wait to land, or None for a writer that never waits."""
        ...


class DirectWriter:
    """Each append goes to the store at once, in its own transaction."""

    def __init__(self, store: Store, graph: str) -> None:
        self.store = store
        self.graph = graph
        self.written: list[Event] = []

    def append(self, changes: Sequence[EventDraft]) -> list[Event]:
        check_change_count(len(changes))
        return self.store.append(self.graph, list(changes))

    def resolve(self, ref: str) -> str:
        return self.store.resolve_prefix(self.graph, ref.strip())

    def short_ids(self, ids: Sequence[str]) -> dict[str, str]:
        return self.store.short_ids(self.graph, list(ids))

    def node(self, node_id: str) -> Node:
        return self.store.get_node(self.graph, node_id)

    def edge(self, edge_id: str) -> Edge:
        return self.store.get_edge(self.graph, edge_id)

    def stored(self, record_id: str) -> str:
        return record_id

    def enter(self) -> None:
        return None

    def exit(self, failed: bool) -> None:
        return None

    def pending(self) -> int | None:
        return None
