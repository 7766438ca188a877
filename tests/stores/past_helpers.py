"""Random histories for the time-travel tests, and the comparison of a view at a moment
with the full replay of the ledger up to it."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from decisis.errors import DecisisError
from decisis.model import EdgeType, EventDraft, NodeType
from decisis.model import events as drafts
from decisis.stores import Store
from decisis.stores.replay import snapshot
from tests.stores.helpers import G, at, event_key, fingerprint, make_edge, make_node

__all__ = ["OPS", "build", "same_as_full_replay", "same_reads", "seen"]

OPS = ("node", "edge", "update", "until", "supersede", "tombstone", "tombstone edge", "judge")


def build(
    store: Store,
    ops: list[tuple[str, int, int]],
    *,
    batch: int = 1,
    pause: Callable[[], None] | None = None,
    parts: int = 1,
) -> list[datetime]:
    """Write ``ops`` (kind, a pick, a time step in minutes that may go back) to ``store``,
    ``batch`` drafts an append, skipping what the fold refuses; the times written. With
    ``pause``, the ops are written in ``parts`` and ``pause`` is called after each."""
    rng = random.Random(len(ops))
    nodes: list[str] = []
    edges: list[str] = []
    minute = 0.0
    pending: list[EventDraft] = []
    times: list[datetime] = []
    size = -(-len(ops) // parts)
    for i, (kind, pick, step) in enumerate(ops):
        if pause is not None and i and i % size == 0:
            _write(store, pending, nodes, edges)
            pending = []
            pause()
        minute += step
        when = at(minute)
        draft = _draft(kind, pick, when, nodes, edges, rng)
        if draft is None:
            continue
        pending.append(draft)
        if len(pending) >= batch:
            _write(store, pending, nodes, edges)
            pending = []
        times.append(when)
    _write(store, pending, nodes, edges)
    if pause is not None:
        pause()
    return times


def _draft(
    kind: str, pick: int, when: datetime, nodes: list[str], edges: list[str], rng: random.Random
) -> EventDraft | None:
    if kind == "node" or len(nodes) < 2:
        lasts = None if pick % 3 else max(at(pick), when)  # some were valid only for a while
        node = make_node(f"node {pick}", rng.choice(list(NodeType)), when=when, valid_until=lasts)
        return drafts.node_added(node, when)
    a, b = nodes[pick % len(nodes)], nodes[(pick * 7 + 1) % len(nodes)]
    if kind == "edge" and a != b:
        return drafts.edge_added(make_edge(a, b, rng.choice(list(EdgeType)), when=when), when)
    if kind == "update":
        return drafts.node_updated(a, {"label": f"renamed {pick}", "confidence": 0.5}, when)
    if kind == "until":  # a validity walk that ends (or a window the fold refuses)
        return drafts.node_updated(a, {"valid_until": at(pick)}, when)
    if kind == "supersede" and a != b:
        edge = make_edge(b, a, EdgeType.SUPERSEDES, when=when)
        return drafts.superseded(a, b, edge, when)
    if kind == "tombstone":
        return drafts.tombstoned(a, "node", f"gone {pick}", when)
    if kind == "tombstone edge" and edges:
        return drafts.tombstoned(edges[pick % len(edges)], "edge", None, when)
    if kind == "judge" and edges:
        return drafts.edge_updated(edges[pick % len(edges)], {"state": "confirmed"}, when)
    return None


def _write(store: Store, pending: list[EventDraft], nodes: list[str], edges: list[str]) -> None:
    if not pending:
        return
    try:
        written = store.append(G, pending)
    except DecisisError:  # refused (a tombstoned end, a cycle): written one by one instead
        written = []
        for draft in pending:
            try:
                written += store.append(G, [draft])
            except DecisisError:
                continue
    for event in written:
        if event.kind.value == "node.added":
            nodes.append(event.entity)
        elif event.kind.value == "edge.added":
            edges.append(event.entity)
        elif event.kind.value == "superseded":
            edges.append(event.payload["edge"]["id"])


def seen(store: Store, moment: datetime) -> tuple[Any, ...]:
    """Everything a graph at ``moment`` shows: the tables, the ledger (marks included), the
    queries filtered by validity at ``moment`` and each record's history."""
    nodes = store.nodes(G, include_tombstoned=True)
    records = [n.id for n in nodes] + [e.id for e in store.edges(G, include_tombstoned=True)]
    walks = [
        store.traverse(G, n.id, direction=d, as_of=moment) for n in nodes for d in ("in", "out")
    ]
    touching = [
        store.edges(G, node=n.id, direction=d, as_of=when, include_tombstoned=gone)
        for n in nodes
        for d in (None, "out", "in")
        for when, gone in ((moment, False), (None, True))
    ]
    return (
        fingerprint(store),
        store.nodes(G, as_of=moment),
        store.edges(G, as_of=moment),
        walks,
        touching,
        [[event_key(e) for e in store.history(G, r)] for r in records],
        store.tree_size(G),
    )


def same_as_full_replay(store: Store, view: Store, moment: datetime) -> None:
    """``view`` shows exactly what the full replay of ``store``'s ledger up to ``moment``
    shows."""
    full = snapshot(store.events(G), G, until=moment)
    assert seen(view, moment) == seen(full, moment)


def same_reads(store: Store, view: Store, moment: datetime) -> None:
    """``view`` answers the reads of one record (the record, its edges, the walks and the
    supersession region from it, its id) as the full replay up to ``moment`` does, each
    asked of the view before anything has read all of it."""
    full = snapshot(store.events(G), G, until=moment)
    for node in full.nodes(G, include_tombstoned=True):
        assert view.get_node(G, node.id) == node
        assert view.resolve_prefix(G, node.id.upper()) == node.id
        for d in (None, "out", "in"):
            assert view.edges(G, node=node.id, direction=d, as_of=moment) == full.edges(
                G, node=node.id, direction=d, as_of=moment
            )
        for way in ("out", "in"):
            assert view.traverse(G, node.id, direction=way, as_of=moment) == full.traverse(
                G, node.id, direction=way, as_of=moment
            )
        for floor in (0.0, 0.6):
            assert view.supersession_region(
                G, node.id, floor=floor, as_of=moment
            ) == full.supersession_region(G, node.id, floor=floor, as_of=moment)
    for edge in full.edges(G, include_tombstoned=True):
        assert view.get_edge(G, edge.id) == edge
