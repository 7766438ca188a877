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
ReadReached = Callable[[Iterable[Sequence[Any]]], list[Reached]]

# The time columns of both record kinds; those not listed in REQUIRED_TIMES may be NULL.
TIME_FIELDS = ("recorded_at", "updated_at", "valid_from", "valid_until", "tombstoned_at")
_REQUIRED_TIMES = frozenset({"recorded_at", "updated_at", "valid_from"})
# What each generated reader reads (its fields and time conversion), so a traversal's
# loop can be generated from the same node reader.
_SPECS: dict[Callable[..., Any], tuple[list[str], Callable[[Any], datetime]]] = {}
_REACHED_READERS: dict[Callable[..., Any], ReadReached] = {}
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
    _SPECS[reader] = (names, time_of)
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
    as ``Reached`` records; a hop naming no known edge type is an ``IntegrityError``.

    For a reader made by ``record_reader`` the rows go through one generated loop that
    builds each node and its ``Reached`` inline (no call, no dataclass ``__init__`` per
    row); any other reader is called row by row."""
    read = _REACHED_READERS.get(node_from_row)
    if read is None:
        read = _reached_reader(node_from_row)
        _REACHED_READERS[node_from_row] = read
    return read(rows)


def _reached_reader(node_from_row: Callable[[Sequence[Any]], Node]) -> ReadReached:
    spec = _SPECS.get(node_from_row)
    names = spec[0] if spec is not None else None
    build = (
        [f"            {', '.join(names)}, depth, hop = row", "            node = new(Node)"]
        + [f"            set_{n}(node, {_value_expression(Node, n)})" for n in names]
        if names is not None
        else ["            depth, hop = row[-2:]", "            node = node_from_row(row)"]
    )
    body = [
        "def read(rows):",
        "    out = []",
        "    append = out.append",
        "    row = None",
        "    try:",
        "        for row in rows:",
        *build,
        "            via, _, type_name = str(hop).partition(' ')",
        "            edge_type = edge_types.get(type_name)",
        "            if edge_type is None:",
        "                raise unknown_hop(row)",
        "            reached = new(Reached)",
        "            set_r_node(reached, node)",
        "            set_r_depth(reached, int(depth))",
        "            set_r_via(reached, via)",
        "            set_r_edge_type(reached, edge_type)",
        "            append(reached)",
        "    except (AttributeError, KeyError, TypeError, ValueError) as exc:",
        "        raise unreadable(row, exc) from exc",
        "    return out",
    ]
    namespace: dict[str, Any] = {
        "new": object.__new__,
        "Node": Node,
        "Reached": Reached,
        "node_from_row": node_from_row,
        "edge_types": EdgeType._value2member_map_,
        "loads": json.loads,
        "unreadable": _unreadable("node"),
        "unknown_hop": _unknown_hop,
    }
    if spec is not None:
        namespace["time_of"] = spec[1]
        for name in spec[0]:
            namespace[f"set_{name}"] = Node.__dict__[name].__set__
        for name, enum in _ENUMS[Node].items():
            namespace[f"members_{name}"] = enum._value2member_map_
    for name in ("node", "depth", "via", "edge_type"):
        namespace[f"set_r_{name}"] = Reached.__dict__[name].__set__
    exec("\n".join(body), namespace)
    reader: ReadReached = namespace["read"]
    return reader


def _unknown_hop(row: Sequence[Any]) -> IntegrityError:
    return IntegrityError(f"node {row[0]} was reached over an unknown edge type")
