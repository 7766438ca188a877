"""Backends under test and small builders of records and ledger drafts.

``BACKENDS`` is the one list the conformance suite and the property test run
over: adding a backend is one line here (PostgreSQL and DuckDB openers would take
their URL from the environment and fail, not skip, when it is unreachable).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from decisis.model import (
    Edge,
    EdgeType,
    Event,
    EventDraft,
    EventKind,
    Node,
    NodeStatus,
    NodeType,
    new_id,
    utc_now,
)
from decisis.model import events as drafts
from decisis.stores import Store, open_store

G = "g"  # the graph most tests write to

BACKENDS: dict[str, Callable[[Path], Store]] = {
    "memory": lambda tmp: open_store("memory://"),
    "sqlite": lambda tmp: open_store(f"sqlite:///{tmp}/t.db"),
    "postgres": lambda tmp: _postgres(),
    "duckdb": lambda tmp: open_store(f"duckdb:///{tmp}/t.duckdb"),
}


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh, empty store of each backend; closed after the test. Test folders outside
    ``tests/stores`` import it by name to run on every backend."""
    opened = BACKENDS[request.param](tmp_path)
    try:
        yield opened
    finally:
        opened.close()


def _postgres() -> Store:
    """A store in a throwaway schema on ``DECISIS_TEST_POSTGRES_URL``; fails (not skips)
    when no server answers, or without the ``postgres`` extra."""
    from tests.stores.postgres.server import ThrowawayStore

    return ThrowawayStore()


T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(minutes: float) -> datetime:
    """A fixed instant ``minutes`` after ``T0``, for tests about time."""
    return T0 + timedelta(minutes=minutes)


def make_node(
    label: str = "a node",
    type: NodeType = NodeType.DECISION,
    *,
    when: datetime | None = None,
    **extra: Any,
) -> Node:
    """A valid node recorded and valid from ``when`` (now by default); ``extra`` sets fields."""
    when = when or utc_now()
    values: dict[str, Any] = {
        "id": new_id(),
        "type": type,
        "label": label,
        "status": NodeStatus.ACTIVE,
        "recorded_at": when,
        "updated_at": when,
        "valid_from": when,
    }
    return Node(**(values | extra))


def make_edge(
    source: Node | str,
    target: Node | str,
    type: EdgeType = EdgeType.LEADS_TO,
    *,
    when: datetime | None = None,
    **extra: Any,
) -> Edge:
    when = when or utc_now()
    values: dict[str, Any] = {
        "id": new_id(),
        "type": type,
        "source": _id(source),
        "target": _id(target),
        "recorded_at": when,
        "updated_at": when,
        "valid_from": when,
    }
    return Edge(**(values | extra))


def _id(record: Node | Edge | str) -> str:
    return record if isinstance(record, str) else record.id


def node_added(node: Node) -> EventDraft:
    return drafts.node_added(node, node.recorded_at)


def edge_added(edge: Edge) -> EventDraft:
    return drafts.edge_added(edge, edge.recorded_at)


def node_updated(node: Node | str, when: datetime | None = None, **changes: Any) -> EventDraft:
    return drafts.node_updated(_id(node), changes, when or utc_now())


def edge_updated(edge: Edge | str, when: datetime | None = None, **changes: Any) -> EventDraft:
    return drafts.edge_updated(_id(edge), changes, when or utc_now())


def superseded(old: Node | str, new: Node | str, when: datetime | None = None) -> EventDraft:
    """``new`` replaces ``old``: the draft carries the edge ``new -supersedes-> old``."""
    when = when or utc_now()
    edge = make_edge(new, old, EdgeType.SUPERSEDES, when=when)
    return drafts.superseded(_id(old), _id(new), edge, when)


def tombstoned(
    record: Node | Edge | str, target: str = "node", reason: str = "recorded by mistake"
) -> EventDraft:
    if isinstance(record, Edge):
        target = "edge"
    return drafts.tombstoned(_id(record), target, reason, utc_now())


def raw_draft(kind: EventKind | str, entity: str, payload: dict[str, Any]) -> EventDraft:
    """A draft built by hand, for payloads the builders would refuse to make."""
    return EventDraft(kind, entity, payload, utc_now())  # type: ignore[arg-type]


def add_node(store: Store, graph: str = G, label: str = "a node", **kwargs: Any) -> Node:
    node = make_node(label, **kwargs)
    store.append(graph, [node_added(node)])
    return node


def add_edge(
    store: Store,
    source: Node | str,
    target: Node | str,
    type: EdgeType = EdgeType.LEADS_TO,
    graph: str = G,
    **kwargs: Any,
) -> Edge:
    edge = make_edge(source, target, type, **kwargs)
    store.append(graph, [edge_added(edge)])
    return edge


def add_chain(store: Store, n: int, graph: str = G, prefix: str = "step") -> list[Node]:
    """``n`` nodes joined ``n0 -> n1 -> ...`` by leads_to edges, in one batch."""
    nodes = [make_node(f"{prefix} {i}") for i in range(n)]
    batch = [node_added(node) for node in nodes]
    batch += [edge_added(make_edge(a, b)) for a, b in pairwise(nodes)]
    store.append(graph, batch)
    return nodes


def ids(records: list[Any]) -> list[str]:
    """Ids of nodes, edges, ``Reached`` or ``SearchHit`` results, in order."""
    return [getattr(r, "node", r).id for r in records]


def event_key(event: Event) -> tuple[Any, ...]:
    """Everything an event carries, as a comparable value."""
    return tuple(getattr(event, f.name) for f in fields(event))


def fingerprint(store: Store, graph: str = G) -> tuple[Any, ...]:
    """Everything a graph shows through the protocol, to prove a refused write changed nothing."""
    nodes = store.nodes(graph, include_tombstoned=True)
    walks = [store.traverse(graph, n.id, direction=d) for n in nodes for d in ("in", "out")]
    return (
        nodes,
        store.edges(graph, include_tombstoned=True),
        store.nodes(graph),
        store.edges(graph),
        walks,
        [event_key(e) for e in store.events(graph)],
        store.head(graph),
        store.graphs(),
    )
