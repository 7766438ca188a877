"""Shortest unique id prefixes, decided by an id's neighbours in sort order.

Only the ids just below and just above an id can share the most characters with
it, so each SQL backend probes those four neighbours (in nodes and in edges) with
one statement in its own dialect and hands them to ``short_ids`` here.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

__all__ = ["common_prefix", "probed_short_ids", "short_ids", "sorted_neighbours"]

Neighbours = Callable[[str], Iterable[str | None]]


class _Runs(Protocol):
    """A DB-API style connection: ``execute`` returns something with ``fetchone``."""

    def execute(self, sql: str, params: dict[str, Any], /) -> Any: ...


def common_prefix(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def short_ids(ids: Sequence[str], min_length: int, neighbours: Neighbours) -> dict[str, str]:
    """Each id cut to one character past what it shares with its closest neighbour, at
    least ``min_length``; ``neighbours`` gets the id lower-cased, as ids are stored."""
    out: dict[str, str] = {}
    for record_id in ids:
        key = record_id.lower()
        shared = max((common_prefix(key, n) for n in neighbours(key) if n is not None), default=0)
        length = min(max(min_length, shared + 1), len(record_id))
        out[record_id] = record_id[:length]
    return out


def sorted_neighbours(known: Sequence[str], key: str) -> list[str]:
    """The ids next to where ``key`` sorts in ``known`` (sorted), ``key`` itself left out:
    the only ones that can share the most characters with it."""
    at = bisect.bisect_left(known, key)
    return [known[i] for i in (at - 1, at, at + 1) if 0 <= i < len(known) and known[i] != key]


def probed_short_ids(
    conn: _Runs, neighbours_sql: str, graph: str, ids: Sequence[str], min_length: int
) -> dict[str, str]:
    """``short_ids`` with the neighbours from ``neighbours_sql``, a backend's one statement
    (parameters ``graph`` and ``id``) returning the four neighbours of an id as one row."""

    def neighbours(key: str) -> Sequence[str | None]:
        row: Sequence[str | None] | None = conn.execute(
            neighbours_sql, {"graph": graph, "id": key}
        ).fetchone()
        return row or ()

    return short_ids(ids, min_length, neighbours)
