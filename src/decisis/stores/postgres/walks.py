"""Traversals inside PostgreSQL: breadth first, each whole walk one server-side call.

A recursive CTE over ``(id, depth)`` revisits a node once for every path length
that reaches it, which explodes on dense graphs (and PostgreSQL's may read the table
it builds only once per step). Instead the PL/pgSQL functions of migration 3
(``schema._WALKS``) walk level by level: each level is one set-based statement from
the frontier through the endpoint index of ``edges`` to nodes not seen yet, so every
node and edge is touched at most once. The levels run in the server, so a walk is one
round trip whatever its depth, and the functions' statements leave the planner index
lookups only, so a freshly loaded graph with no statistics is walked as fast as an
analyzed one. The caller holds one REPEATABLE READ transaction around the visibility
check and the call, so both see one snapshot. The checks, the tie rules and the
records are ``sql_walks``'s, shared with the other backends.
"""

from __future__ import annotations

from typing import Any

import psycopg

from decisis.stores.base import Direction
from decisis.stores.postgres.rows import EDGE_COLUMNS, NODE_FIELDS, POSTGRES, valid_at
from decisis.stores.sql_walks import SqlWalks, WalkFilter

__all__ = ["WALKS"]

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


def _params(filt: WalkFilter, max_depth: int) -> dict[str, Any]:
    """The functions' arguments: every one given, ``NULL`` for no type list or time."""
    return {
        "graph": filt.graph,
        "types": filt.params.get("types"),
        "as_of": filt.as_of,
        "max_depth": min(max_depth, _DEPTH_CAP),
    }


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


class _Steps:
    """PostgreSQL's calls for ``SqlWalks`` (see the module docstring)."""

    def reach(
        self, conn: Conn, filt: WalkFilter, start: str, direction: Direction, max_depth: int
    ) -> list[Any]:
        params = {**_params(filt, max_depth), "start": start, "out": direction == "out"}
        return conn.execute(_TRAVERSE, params).fetchall()

    def path(
        self, conn: Conn, filt: WalkFilter, source: str, target: str, max_depth: int
    ) -> list[str]:
        params = {**_params(filt, max_depth), "source": source, "target": target}
        row = conn.execute(_PATH, params).fetchone()
        return [] if row is None or row[0] is None else [str(node_id) for node_id in row[0]]

    region_sql = _REGION


WALKS = SqlWalks(POSTGRES, _Steps())
