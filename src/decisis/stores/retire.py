"""What a ``supersedes`` link does to the node it replaces: the fold's one rule for it.

Only a believed, full replacement retires the old node: a link whose state is ``stated``
or ``confirmed``, not tombstoned, and not marked ``metadata["partial"]`` (part of the old
node still stands). A ``candidate`` is a proposal: the old node keeps its status and
validity until someone confirms it. Trust moving (``rule.trusted``) changes confidences
only, never a status: the walk reads trust.

A node a link retired keeps, under the metadata key ``_retired``, the links that retire it
and the status and ``valid_until`` it had before the first one. When the last of them stops
retiring it (rejected, made a candidate or partial again, or tombstoned), those come back;
a link that never retired the node changes nothing when it is rejected. Setting a node's
status by hand ends the record: what a person set is not undone by a later rejection.
The key is the fold's: a metadata update keeps the stored value whatever it says.

The memory store and PostgreSQL run these functions inside ``decisis.stores.fold``;
SQLite and DuckDB call them from ``decisis.stores.dbapi_writes``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeGuard

from decisis.model import Edge, EdgeType, LinkState, Node, NodeStatus, format_time, parse_time

__all__ = ["RETIRED_KEY", "kept_metadata", "release", "retire", "retires"]

RETIRED_KEY = "_retired"
_BELIEVED = frozenset({LinkState.STATED, LinkState.CONFIRMED})


def retires(edge: Edge) -> bool:
    """Whether ``edge`` retires its target: a live, believed, full replacement."""
    return (
        edge.type is EdgeType.SUPERSEDES
        and not edge.tombstoned
        and edge.state in _BELIEVED
        and not edge.metadata.get("partial")
    )


def retire(node: Node, edge_id: str, at: datetime) -> Node:
    """``node`` once the link ``edge_id`` retires it: superseded, valid until ``at`` (or
    earlier, if it already ended), with what it was before kept for ``release``."""
    record = node.metadata.get(RETIRED_KEY)
    if not _is_record(record):
        record = {
            "links": [],
            "status": node.status.value,
            "valid_until": None if node.valid_until is None else format_time(node.valid_until),
        }
    links = sorted({*record["links"], edge_id})
    until = node.valid_until if node.valid_until is not None and node.valid_until < at else at
    until = max(until, node.valid_from)
    metadata = {**node.metadata, RETIRED_KEY: {**record, "links": links}}
    return node.evolve(
        status=NodeStatus.SUPERSEDED, valid_until=until, metadata=metadata, updated_at=at
    )


def release(node: Node, edge_id: str, at: datetime) -> Node:
    """``node`` once the link ``edge_id`` no longer retires it: unchanged if that link never
    did; still superseded while another link retires it; else as it was before."""
    record = node.metadata.get(RETIRED_KEY)
    if not _is_record(record) or edge_id not in record["links"]:
        return node
    links = [link for link in record["links"] if link != edge_id]
    if links:
        metadata = {**node.metadata, RETIRED_KEY: {**record, "links": links}}
        return node.evolve(metadata=metadata, updated_at=at)
    metadata = {k: v for k, v in node.metadata.items() if k != RETIRED_KEY}
    until = record["valid_until"]
    return node.evolve(
        status=NodeStatus(record["status"]),
        valid_until=None if until is None else parse_time(until, "valid_until"),
        metadata=metadata,
        updated_at=at,
    )


def kept_metadata(node: Node, changes: dict[str, Any]) -> dict[str, Any]:
    """A node update's changes with the fold's own key kept: a new ``metadata`` carries the
    stored ``_retired`` record; a status set by hand ends it."""
    record = node.metadata.get(RETIRED_KEY)
    if "status" in changes:
        metadata = changes.get("metadata", node.metadata)
        if isinstance(metadata, dict) and RETIRED_KEY in metadata:
            kept = {k: v for k, v in metadata.items() if k != RETIRED_KEY}
            changes = {**changes, "metadata": kept}
        return changes
    if "metadata" in changes and isinstance(changes["metadata"], dict):
        metadata = {k: v for k, v in changes["metadata"].items() if k != RETIRED_KEY}
        if record is not None:
            metadata[RETIRED_KEY] = record
        changes = {**changes, "metadata": metadata}
    return changes


def _is_record(value: object) -> TypeGuard[dict[str, Any]]:
    return (
        isinstance(value, dict)
        and isinstance(value.get("links"), list)
        and isinstance(value.get("status"), str)
    )
