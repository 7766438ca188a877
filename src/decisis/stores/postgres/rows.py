"""How records and events map to PostgreSQL rows, and the SQL fragments the queries share.

Column lists are the SQLite backend's (one record shape for every SQL store) and
constants, never user input, so composing them into SQL text is safe; every
value travels as a bound parameter. Times are ``timestamptz`` and come back as
UTC ``datetime`` values (the pool sets each session's time zone to UTC).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from decisis.errors import IntegrityError
from decisis.model import Edge, Event, EventKind, Node
from decisis.stores.row_records import record_reader
from decisis.stores.sql_dialect import SqlDialect, value_list
from decisis.stores.sqlite.rows import (
    EDGE_FIELDS,
    EVENT_COLUMNS,
    NODE_FIELDS,
    canonical_json,
    columns,
)

__all__ = [
    "EDGE_COLUMNS",
    "EDGE_FIELDS",
    "EVENT_COLUMNS",
    "NODE_COLUMNS",
    "NODE_FIELDS",
    "POSTGRES",
    "canonical_json",
    "columns",
    "edge_from_row",
    "edge_values",
    "event_from_row",
    "node_from_row",
    "node_values",
    "records_json",
    "utc",
    "valid_at",
]

NODE_COLUMNS = columns("n", NODE_FIELDS)
EDGE_COLUMNS = columns("e", EDGE_FIELDS)


def records_json(fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """``rows`` as a JSON array of objects keyed by ``fields``: the one parameter that
    carries a whole batch into ``json_populate_recordset(NULL::<table>, …)``, which types
    each value by its column (times travel as ISO 8601 text, floats as ``repr`` writes
    them, so both arrive exactly)."""
    return json.dumps(
        [dict(zip(fields, row, strict=True)) for row in rows],
        default=_iso_time,
        ensure_ascii=False,
        allow_nan=False,
    )


def _iso_time(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not a column value")


def utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _values(record: Node | Edge, fields: Sequence[str]) -> list[Any]:
    out: list[Any] = []
    for name in fields:
        value = getattr(record, name)
        if isinstance(value, Enum):
            value = value.value
        elif name == "metadata":
            value = canonical_json(value)
        out.append(value)
    return out


def node_values(node: Node) -> list[Any]:
    """The node's column values in ``NODE_FIELDS`` order."""
    return _values(node, NODE_FIELDS)


def edge_values(edge: Edge) -> list[Any]:
    """The edge's column values in ``EDGE_FIELDS`` order."""
    return _values(edge, EDGE_FIELDS)


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


node_from_row = record_reader(Node, NODE_FIELDS, _utc)
"""A node from a row whose first columns are ``NODE_FIELDS``."""

edge_from_row = record_reader(Edge, EDGE_FIELDS, _utc)
"""An edge from a row whose first columns are ``EDGE_FIELDS``."""


def event_from_row(row: Sequence[Any]) -> Event:
    """An event from a row selected with ``EVENT_COLUMNS``, exactly as stored.

    A row that cannot be read (bad kind or JSON) is an ``IntegrityError`` naming
    its ``seq``: only tampering or corruption makes one.
    """
    graph, seq, kind, entity, payload, at, prev, checksum, inv_at, inv_reason = row
    try:
        return Event(
            graph=graph,
            seq=int(seq),
            kind=EventKind(kind),
            entity=entity,
            payload=json.loads(payload),
            at=at.astimezone(UTC),
            prev_checksum=prev,
            checksum=checksum,
            invalidated_at=utc(inv_at),
            invalidated_reason=inv_reason,
        )
    except (ValueError, TypeError, AttributeError) as exc:
        raise IntegrityError(
            f"ledger entry {seq} of graph {graph!r} is unreadable: {exc}", seq
        ) from exc


def _as_given(value: datetime) -> datetime:
    return value


POSTGRES = SqlDialect(
    positional="%s",
    param_form="%({})s",
    member_form="{column} = ANY({param}::text[])",
    list_value=value_list,
    time_value=_as_given,
    node_from_row=node_from_row,
    edge_from_row=edge_from_row,
    event_from_row=event_from_row,
    event_columns=EVENT_COLUMNS,
)
"""PostgreSQL's spellings: ``%(name)s`` parameters, lists as one ``text[]``, times as
``timestamptz`` values."""
valid_at = POSTGRES.valid_at
