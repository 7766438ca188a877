"""Argument checks every backend makes before it queries, so all refuse the same input alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar, overload

from decisis.errors import HeadMoved, InvalidInput
from decisis.model import EdgeType
from decisis.model.validation import check_enum
from decisis.stores.base import MAX_SEQ

__all__ = [
    "HEAD_ENTRY_SQL",
    "check_aware",
    "check_direction",
    "check_edge_types",
    "check_head",
    "check_head_agrees",
    "check_limit",
    "check_members",
    "check_non_negative",
    "head_entry_params",
]

E = TypeVar("E", bound=StrEnum)


def check_aware(when: datetime | None, name: str) -> None:
    """Refuse naive times: they cannot be compared with stored ones or written canonically."""
    if when is not None and (not isinstance(when, datetime) or when.tzinfo is None):
        raise InvalidInput(name, f"{when!r} is not a timezone-aware time", "aware datetimes")


def check_non_negative(value: int | None, name: str, *, required: bool = False) -> None:
    """A whole number >= 0, or None where that means "no bound" (unless ``required``)."""
    if value is None and not required:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(name, f"{value!r} is not a whole number >= 0", ">= 0")


def check_head(graph: str, found: int, after_seq: int | None) -> None:
    """``HeadMoved`` unless the graph's last event (``found``) is still ``after_seq``; no
    check without one. Every backend calls it with the head it read inside its write."""
    if after_seq is not None and found != after_seq:
        raise HeadMoved(graph, after_seq, found)


# The ledger at the head, by whole keys: the entry the head names (its checksum, or NULL
# when it is missing) and whether an entry follows it. ``{p}`` is the placeholder.
HEAD_ENTRY_SQL = (
    "SELECT (SELECT checksum FROM ledger WHERE graph = {p} AND seq = {p}), "
    "EXISTS (SELECT 1 FROM ledger WHERE graph = {p} AND seq = {p})"
)


def head_entry_params(graph: str, seq: int) -> tuple[str, int, str, int]:
    return (graph, seq, graph, seq + 1)


def check_head_agrees(graph: str, head: tuple[int, str], row: Any) -> None:
    """Refuse to write onto a ledger that disagrees with its head row (``row`` is what
    ``HEAD_ENTRY_SQL`` read): the entry the head names missing or of another checksum, or
    entries after it — cut off or added behind decisis's back, which ``verify`` would
    report. Two lookups by key per append; the full check of the chain stays with ``verify``."""
    from decisis.errors import IntegrityError

    seq, checksum = head
    at_head, beyond = (None, False) if row is None else (row[0], bool(row[1]))
    if beyond:
        problem, bad = f"the ledger runs past its head at seq {seq}", seq + 1
    elif seq > 0 and at_head is None:
        problem, bad = f"the entry its head names (seq {seq}) is missing", seq
    elif seq > 0 and at_head != checksum:
        problem, bad = f"the entry at its head (seq {seq}) has another checksum", seq
    else:
        return
    raise IntegrityError(
        f"graph {graph!r}: {problem}; writes are refused until this is explained: "
        "run `decisis verify`",
        bad,
    )


def check_direction(direction: object, *, optional: bool = False) -> None:
    if not (direction in ("in", "out") or (optional and direction is None)):
        raise InvalidInput("direction", f"unknown value {direction!r}", ["in", "out"])


@overload
def check_limit(value: int, name: str, *, required: bool = ...) -> int: ...
@overload
def check_limit(value: int | None, name: str, *, required: bool = ...) -> int | None: ...
def check_limit(value: int | None, name: str, *, required: bool = False) -> int | None:
    """A row limit: a whole number >= 0, or None for no limit (unless ``required``); one past
    what any store can count (2**63 - 1, which SQLite and PostgreSQL cannot even compare
    with) is that many."""
    check_non_negative(value, name, required=required)
    return value if value is None else min(value, MAX_SEQ)


def check_members(enum: type[E], values: object, name: str) -> list[E] | None:
    """``values`` as members of ``enum`` (one given alone counts as a list of one), None for
    no filter; anything else is refused naming ``name`` and the members."""
    if values is None:
        return None
    if isinstance(values, str | enum):
        values = [values]
    if not isinstance(values, Iterable) or isinstance(values, Mapping):
        allowed = "a list of: " + ", ".join(m.value for m in enum)
        raise InvalidInput(name, f"{values!r} is not a list", allowed)
    return [check_enum(enum, value, name) for value in values]


def check_edge_types(types: Sequence[EdgeType | str] | None) -> list[EdgeType] | None:
    return check_members(EdgeType, types, "edge type")
