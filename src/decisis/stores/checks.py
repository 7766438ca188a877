"""Argument checks every backend makes before it queries, so all refuse the same input alike."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from decisis.errors import HeadMoved, InvalidInput
from decisis.model import EdgeType
from decisis.model.validation import check_enum

__all__ = [
    "check_aware",
    "check_direction",
    "check_edge_types",
    "check_head",
    "check_non_negative",
]


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


def check_direction(direction: object, *, optional: bool = False) -> None:
    if not (direction in ("in", "out") or (optional and direction is None)):
        raise InvalidInput("direction", f"unknown value {direction!r}", ["in", "out"])


def check_edge_types(types: Sequence[EdgeType] | None) -> list[EdgeType] | None:
    return None if types is None else [check_enum(EdgeType, t, "edge type") for t in types]
