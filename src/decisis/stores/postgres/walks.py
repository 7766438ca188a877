"""Traversals inside PostgreSQL: breadth first, each whole walk one server-side call.

A recursive CTE over ``(id, depth)`` revisits a node once for every path length
that reaches it, which explodes on dense graphs. Instead the PL/pgSQL functions
of migration 3 (``schema._WALKS``) walk level by level: each level is one
set-based statement from the frontier through the endpoint index of ``edges`` to
nodes not seen yet, so every node and edge is touched at most once. The levels
run in the server, so a walk is one round trip whatever its depth, and the
functions' statements leave the planner index lookups only, so a freshly loaded
graph with no statistics is walked as fast as an analyzed one. The caller holds
one REPEATABLE READ transaction around the visibility check and the call, so
both see one snapshot.

Tie rules, the same as the memory store's: a node reached from several parents
at the previous depth records the smallest ``(parent id, edge type)`` pair as
``via``/``edge_type``. ``path_between`` measures distances to the target with a
backward search, then walks forward from the source, always to the smallest id
one step closer: that is the lexicographically smallest shortest path.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType
from decisis.stores.base import Direction, Reached
from decisis.stores.postgres.rows import (
    EDGE_COLUMNS,
    NODE_FIELDS,
    edge_from_row,
    node_from_row,
    valid_at,
)
from decisis.stores.row_records import reached_from_rows

__all__ = ["path_between", "supersession_region", "traverse"]

Conn = psycopg.Connection[tuple[Any, ...]]

# Deeper than any graph can be: the functions take max_depth as a PostgreSQL integer.
_DEPTH_CAP = 2**31 - 1

_REACHED_COLUMNS = ", ".join(f"(r.reached_node).{name}" for name in NODE_FIELDS)
_TRAVERSE = f"""
    SELECT {_REACHED_COLUMNS}, r.reached_depth, r.reached_hop
    FROM decisis_traverse(
        %(graph)s, %(start)s, %(out)s, %(types)s::text[], %(as_of)s::timestamptz,
        %(max_depth)s
    ) r
    ORDER BY r.reached_depth, (r.reached_node).id
"""
_PATH = """
    SELECT decisis_path(
        %(graph)s, %(source)s, %(target)s, %(types)s::text[], %(as_of)s::timestamptz,
        %(max_depth)s
    )
"""


def _params(
    graph: str, edge_types: Sequence[EdgeType] | None, as_of: datetime | None, max_depth: int
) -> dict[str, Any]:
    return {
        "graph": graph,
        "types": None if edge_types is None else [t.value for t in edge_types],
        "as_of": as_of,
        "max_depth": min(max_depth, _DEPTH_CAP),
    }


def _visible(conn: Conn, params: dict[str, Any], node_id: str, *, timed: bool = True) -> bool:
    """Whether ``node_id`` may start or end a walk; ``NotFound`` when it is absent.
    With ``timed=False`` only a tombstone hides it, not ``as_of``."""
    row = conn.execute(
        "SELECT tombstoned_at IS NULL"
        + (f" AND {valid_at('n')}" if timed and params["as_of"] is not None else "")
        + " FROM nodes n WHERE n.graph = %(graph)s AND n.id = %(id)s",
        {**params, "id": node_id},
    ).fetchone()
    if row is None:
        raise NotFound("node", node_id, params["graph"])
    return bool(row[0])


def traverse(
    conn: Conn,
    graph: str,
    start: str,
    *,
    direction: Direction,
    edge_types: Sequence[EdgeType] | None,
    max_depth: int,
    as_of: datetime | None,
) -> list[Reached]:
    """Nodes reachable from ``start``, each at its smallest depth, ordered by (depth, id).

    ``as_of`` filters the edges and nodes walked but not ``start`` itself, so where a
    decision superseded before ``as_of`` led can still be asked from it.
    """
    params = _params(graph, edge_types, as_of, max_depth)
    if not _visible(conn, params, start, timed=False):
        return []
    params.update(start=start, out=direction == "out")
    return reached_from_rows(conn.execute(_TRAVERSE, params).fetchall(), node_from_row)


def path_between(
    conn: Conn,
    graph: str,
    source: str,
    target: str,
    *,
    edge_types: Sequence[EdgeType] | None,
    max_depth: int,
    as_of: datetime | None,
) -> list[str]:
    """The lexicographically smallest shortest path ``source -> target``, or ``[]``."""
    params = _params(graph, edge_types, as_of, max_depth)
    if not (_visible(conn, params, source) & _visible(conn, params, target)):
        return []
    row = conn.execute(_PATH, {**params, "source": source, "target": target}).fetchone()
    return [] if row is None or row[0] is None else [str(node_id) for node_id in row[0]]


def _followed(timed: bool) -> str:
    """SQL true when edge ``e`` (``e.source`` replacing ``e.target``) may be followed: it
    shows, its newer record shows, and its pair of records passes (see ``base.Store``).
    As in the traversal functions, each lookup is written so only the endpoint index
    fits (equalities on its prefix, its order asked for), whatever the statistics."""

    def when(alias: str) -> str:
        return f" AND {valid_at(alias)}" if timed else ""

    return f"""e.tombstoned_at IS NULL{when("e")}
            AND EXISTS (SELECT 1 FROM nodes n WHERE n.graph = %(graph)s AND n.id = e.source
                        AND n.tombstoned_at IS NULL{when("n")})
            AND (SELECT NOT bool_or(p.state = 'rejected')
                        AND (bool_or(p.state IN ('stated', 'confirmed'))
                             OR coalesce(sum(p.confidence), 0) >= %(floor)s)
                 FROM (SELECT p.state, p.confidence FROM edges p
                       WHERE p.graph = %(graph)s AND p.target = e.target
                         AND p.type = 'supersedes' AND p.source = e.source
                         AND p.tombstoned_at IS NULL{when("p")}
                       ORDER BY p.type, p.source OFFSET 0) p)"""


def _region_sql(timed: bool) -> str:
    follow = f"""FROM region r CROSS JOIN LATERAL (
            SELECT e.* FROM edges e
            WHERE e.graph = %(graph)s AND e.target = r.id AND e.type = 'supersedes'
              AND {_followed(timed)}
            ORDER BY e.type, e.source OFFSET 0
        ) e"""
    return f"""
        WITH RECURSIVE region(id) AS (
            SELECT id FROM nodes
            WHERE graph = %(graph)s AND id = %(start)s AND tombstoned_at IS NULL
            UNION
            SELECT e.source {follow}
        )
        SELECT {EDGE_COLUMNS} {follow}
        ORDER BY e.id
    """


_REGION = {timed: _region_sql(timed) for timed in (False, True)}


def supersession_region(
    conn: Conn, graph: str, start: str, *, floor: float, as_of: datetime | None
) -> list[Edge]:
    """The supersedes edges followed forward from ``start``, ordered by id: one recursive
    statement (``UNION`` keeps each record once, so cycles end)."""
    params = {"graph": graph, "start": start, "floor": floor, "as_of": as_of}
    rows = conn.execute(_REGION[as_of is not None], params).fetchall()
    if not rows:
        _visible(conn, params, start, timed=False)  # NotFound when absent
    return [edge_from_row(row) for row in rows]
