"""Rows into ``Node``/``Edge`` records at the cost of a tuple unpack, for every SQL backend.

A traversal that reaches a thousand nodes builds a thousand records, and building
them field by field (a dict per row, an ``Enum(value)`` call, a generic
``object.__setattr__`` per field) cost more than the SQL that found them. Rows are
written only from validated records, so reading one back needs no validation, only
conversion: ``record_reader`` writes, once per record class and backend, a
function that unpacks the row, looks enum members up in their value maps and sets
each slot through its own descriptor (the way ``dataclasses`` writes ``__init__``).
A value that cannot be converted back (only tampering or corruption makes one) is an
``IntegrityError`` naming the record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar

from decisis.errors import IntegrityError
from decisis.model import Edge, EdgeType, LinkState, Node, NodeStatus, NodeType
from decisis.stores.base import Reached

__all__ = ["TIME_FIELDS", "reached_from_rows", "record_reader"]

R = TypeVar("R", Node, Edge)

# The time columns of both record kinds; those not listed in REQUIRED_TIMES may be NULL.
TIME_FIELDS = ("recorded_at", "updated_at", "valid_from", "valid_until", "tombstoned_at")
_REQUIRED_TIMES = frozenset({"recorded_at", "updated_at", "valid_from"})
_ENUMS: dict[type, dict[str, type[Enum]]] = {
    Node: {"type": NodeType, "status": NodeStatus},
    Edge: {"type": EdgeType, "state": LinkState},
}


def _value_expression(cls: type, name: str) -> str:
    if name in _ENUMS[cls]:
        return f"members_{name}[{name}]"
    if name in _REQUIRED_TIMES:
        return f"time_of({name})"
    if name in TIME_FIELDS:
        return f"None if {name} is None else time_of({name})"
    if name == "metadata":
        return "{} if metadata == '{}' else loads(metadata)"
    return name


def record_reader(
    cls: type[R], fields: Sequence[str], time_of: Callable[[Any], datetime]
) -> Callable[[Sequence[Any]], R]:
    """A function building ``cls`` from a row whose first columns are ``fields``.

    ``time_of`` turns a stored time column into an aware ``datetime`` (text on SQLite
    and DuckDB, a driver ``datetime`` on PostgreSQL); metadata is JSON text.
    """
    names: list[str] = list(fields)
    body = [
        "def read(row):",
        "    try:",
        f"        {', '.join(names)}, *_ = row",
        "        record = new(cls)",
        *(f"        set_{name}(record, {_value_expression(cls, name)})" for name in names),
        "        return record",
        "    except (AttributeError, KeyError, TypeError, ValueError) as exc:",
        "        raise unreadable(row, exc) from exc",
    ]
    namespace: dict[str, Any] = {
        "new": object.__new__,
        "cls": cls,
        "time_of": time_of,
        "loads": json.loads,
        "unreadable": _unreadable(cls.__name__.lower()),
    }
    for name in names:
        namespace[f"set_{name}"] = cls.__dict__[name].__set__  # the slot's own descriptor
    for name, enum in _ENUMS[cls].items():
        namespace[f"members_{name}"] = enum._value2member_map_
    exec("\n".join(body), namespace)
    reader: Callable[[Sequence[Any]], R] = namespace["read"]
    return reader


def _unreadable(what: str) -> Callable[[Sequence[Any], Exception], IntegrityError]:
    def error(row: Sequence[Any], exc: Exception) -> IntegrityError:
        ident = row[0] if row else "?"
        detail = f"unknown value {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        return IntegrityError(f"{what} {ident} has an unreadable row: {detail}")

    return error


def reached_from_rows(
    rows: Iterable[Sequence[Any]], node_from_row: Callable[[Sequence[Any]], Node]
) -> list[Reached]:
    """Traversal rows (the node's columns, then depth, then the hop ``"<via> <edge type>"``)
    as ``Reached`` records; a hop naming no known edge type is an ``IntegrityError``."""
    types = EdgeType._value2member_map_
    reached = []
    for row in rows:
        via, _, type_name = str(row[-1]).partition(" ")
        edge_type = types.get(type_name)
        if edge_type is None:
            raise IntegrityError(f"node {row[0]} was reached over an unknown edge type")
        reached.append(Reached(node_from_row(row), int(row[-2]), via, edge_type))  # type: ignore[arg-type]
    return reached
