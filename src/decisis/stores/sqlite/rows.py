"""How records and events map to rows, and the SQL fragments shared by the queries.

Column lists are constants of this module (never user input), so composing them
into SQL text is safe; every value is bound as a parameter.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from decisis.errors import IntegrityError, InvalidInput
from decisis.model import (
    Edge,
    Event,
    EventKind,
    Node,
    format_time,
    parse_time,
)
from decisis.stores.row_records import record_reader
from decisis.stores.sql_dialect import SqlDialect, json_list, live

__all__ = [
    "EDGE_FIELDS",
    "EVENT_COLUMNS",
    "NODE_FIELDS",
    "SQLITE",
    "canonical_json",
    "columns",
    "edge_from_row",
    "edge_values",
    "event_from_row",
    "live",
    "node_from_row",
    "node_values",
    "valid_at",
]

NODE_FIELDS = (
    "id",
    "type",
    "label",
    "status",
    "recorded_at",
    "updated_at",
    "valid_from",
    "valid_until",
    "confidence",
    "rationale",
    "metadata",
    "agent",
    "tombstoned_at",
    "tombstone_reason",
)
EDGE_FIELDS = (
    "id",
    "type",
    "source",
    "target",
    "recorded_at",
    "updated_at",
    "valid_from",
    "valid_until",
    "state",
    "confidence",
    "rationale",
    "metadata",
    "agent",
    "tombstoned_at",
    "tombstone_reason",
)
EVENT_COLUMNS = (
    "graph, seq, kind, entity, payload, at, prev_checksum, checksum, "
    "invalidated_at, invalidated_reason"
)


def columns(alias: str, fields: Sequence[str]) -> str:
    """``n.id, n.type, …``: a select list for ``fields`` of the table aliased ``alias``."""
    return ", ".join(f"{alias}.{name}" for name in fields)


def canonical_json(value: Any) -> str:
    """The ledger's canonical JSON text (sorted keys, compact, UTF-8, no NaN)."""
    try:
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as exc:
        raise InvalidInput("payload", f"is not JSON data: {exc}", "JSON data") from None


def _values(record: Node | Edge, fields: Sequence[str], data: dict[str, Any] | None) -> list[Any]:
    data = dict(record.to_dict() if data is None else data)
    metadata = data["metadata"]
    data["metadata"] = "{}" if metadata == {} else canonical_json(metadata)
    return [data[name] for name in fields]


def node_values(node: Node, data: dict[str, Any] | None = None) -> list[Any]:
    """The node's row values; ``data``: its JSON form when the caller has it already."""
    return _values(node, NODE_FIELDS, data)


def edge_values(edge: Edge, data: dict[str, Any] | None = None) -> list[Any]:
    return _values(edge, EDGE_FIELDS, data)


node_from_row = record_reader(Node, NODE_FIELDS, datetime.fromisoformat)
"""A node from a row whose first columns are ``NODE_FIELDS`` (times as canonical text)."""

edge_from_row = record_reader(Edge, EDGE_FIELDS, datetime.fromisoformat)
"""An edge from a row whose first columns are ``EDGE_FIELDS`` (times as canonical text)."""


def _time_or_none(text: str | None) -> datetime | None:
    return parse_time(text) if text is not None else None


def event_from_row(row: Sequence[Any]) -> Event:
    """An event from a row selected with ``EVENT_COLUMNS``, exactly as stored.

    A row that cannot even be read (bad kind, JSON or time) is reported as an
    ``IntegrityError`` naming its ``seq``: only tampering or corruption makes one.
    """
    graph, seq, kind, entity, payload, at, prev, checksum, inv_at, inv_reason = row
    try:
        return Event(
            graph=graph,
            seq=seq,
            kind=EventKind(kind),
            entity=entity,
            payload=json.loads(payload),
            at=parse_time(at, "at"),
            prev_checksum=prev,
            checksum=checksum,
            invalidated_at=_time_or_none(inv_at),
            invalidated_reason=inv_reason,
        )
    except (ValueError, TypeError) as exc:
        raise IntegrityError(
            f"ledger entry {seq} of graph {graph!r} is unreadable: {exc}", seq
        ) from exc


# Without ANALYZE statistics SQLite takes ``graph = ?`` for selective and would walk the
# (graph, id) index for the ORDER BY; ``+e.id`` and one direction per query keep it on
# the endpoint index (0.1 ms instead of 300 ms at a million edges).
SQLITE = SqlDialect(
    positional="?",
    param_form=":{}",
    member_form="{column} IN (SELECT value FROM json_each({param}))",
    list_value=json_list,
    time_value=format_time,
    node_from_row=node_from_row,
    edge_from_row=edge_from_row,
    event_from_row=event_from_row,
    event_columns=EVENT_COLUMNS,
    one_direction_per_query=True,
    endpoint_order="+e.id",
)
"""SQLite's spellings: ``:name`` parameters, lists as one JSON text read by ``json_each``,
times as canonical text."""
valid_at = SQLITE.valid_at
