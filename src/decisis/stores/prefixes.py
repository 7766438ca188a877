"""Shortest unique id prefixes, decided by an id's neighbours in sort order.

Only the ids just below and just above an id can share the most characters with
it, so each SQL backend probes those four neighbours (in nodes and in edges) with
one statement in its own dialect and hands them to ``short_ids`` here. The other way
round, ``resolve_prefix`` finds the one id a prefix names by a range scan each backend
writes in its dialect.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from decisis.errors import AmbiguousId, NotFound
from decisis.model.ids import is_id_prefix

__all__ = [
    "MAX_AMBIGUOUS",
    "common_prefix",
    "probed_short_ids",
    "resolve_prefix",
    "short_ids",
    "sorted_neighbours",
]

# An ambiguous prefix lists at most this many matches per table.
MAX_AMBIGUOUS = 100
# Ids are lower-case Crockford base32; "~" sorts after every character they use.
_PAST_ID = "~"

Neighbours = Callable[[str], Iterable[str | None]]


class _Runs(Protocol):
    """A DB-API style connection: ``execute`` returns something with ``fetchone`` and
    ``fetchall``."""

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


def resolve_prefix(conn: _Runs, range_sql: str, graph: str, prefix: str) -> str:
    """The one node or edge id starting with ``prefix``; ``range_sql`` is a backend's
    statement (parameters ``graph``, ``lo``, ``hi`` and ``limit``) listing the ids from
    ``lo`` up to ``hi`` in nodes and in edges, at most ``limit`` of each."""
    if not isinstance(prefix, str) or not is_id_prefix(prefix):
        raise NotFound("node or edge", str(prefix), graph)
    key = prefix.lower()
    params = {"graph": graph, "lo": key, "hi": key + _PAST_ID, "limit": MAX_AMBIGUOUS}
    rows = conn.execute(range_sql, params).fetchall()
    if not rows:
        raise NotFound("node or edge", prefix, graph)
    if len(rows) > 1:
        raise AmbiguousId("node or edge", prefix, [r[0] for r in rows], graph)
    return str(rows[0][0])
