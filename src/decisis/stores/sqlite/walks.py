"""Traversals inside SQLite: breadth first, one set-based statement per level.

SQLite's recursive CTEs may neither aggregate nor read the table they build, so one
over ``(id, depth)`` would revisit a node once for every path length that reaches it,
which explodes on dense graphs. Instead each level is one ``INSERT … SELECT`` into a
connection-private temp table: it follows every walkable edge from the nodes found at
the previous depth to nodes not seen yet, so every node and edge is touched at most
once, and the work stays in the database. The caller holds one read transaction
around the levels, so all of them see the same snapshot. The filter, the checks, the
tie rules and the records are ``sql_walks``'s, shared with the other backends.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from decisis.stores.base import Direction
from decisis.stores.sql_walks import ENDS, SqlWalks, WalkFilter
from decisis.stores.sqlite.rows import EDGE_FIELDS, NODE_FIELDS, SQLITE, columns, valid_at

__all__ = ["TEMP_TABLES", "WALKS"]

TEMP_TABLES = (
    # hop = "<parent id> <edge type>" (see ``sql_walks``). No index on depth: keeping one
    # cost more per level than the scan of the found nodes it saves.
    """CREATE TEMP TABLE IF NOT EXISTS walk (
        id TEXT PRIMARY KEY,
        depth INTEGER NOT NULL,
        hop TEXT
    ) WITHOUT ROWID""",
)


def _expand_sql(direction: Direction, filt: WalkFilter) -> str:
    near, far = ENDS[direction]
    # CROSS JOIN fixes the loop order: from the (small) frontier into the edge index. The
    # far node is checked once per node found (HAVING), not once per edge reaching it.
    return f"""
        INSERT INTO temp.walk (id, depth, hop)
        SELECT e.{far}, :depth + 1, MIN(e.{near} || ' ' || e.type)
        FROM temp.walk w
        CROSS JOIN edges e ON e.graph = :graph AND e.{near} = w.id
        WHERE w.depth = :depth AND {filt.edge_sql}
          AND NOT EXISTS (SELECT 1 FROM temp.walk x WHERE x.id = e.{far})
        GROUP BY e.{far}
        HAVING (SELECT {filt.node_sql} FROM nodes n WHERE n.graph = :graph AND n.id = e.{far})
    """


def _walk(
    conn: sqlite3.Connection,
    start: str,
    direction: Direction,
    filt: WalkFilter,
    max_depth: int,
    *,
    stop_at: str | None = None,
) -> None:
    """Fill ``temp.walk`` level by level from ``start``, up to ``max_depth`` or ``stop_at``."""
    conn.execute("DELETE FROM temp.walk")
    conn.execute("INSERT INTO temp.walk (id, depth, hop) VALUES (?, 0, NULL)", (start,))
    sql = _expand_sql(direction, filt)
    for depth in range(max_depth):
        if stop_at is not None and _depth_of(conn, stop_at) is not None:
            return
        if conn.execute(sql, {**filt.params, "depth": depth}).rowcount == 0:
            return


def _depth_of(conn: sqlite3.Connection, node_id: str) -> int | None:
    row = conn.execute("SELECT depth FROM temp.walk WHERE id = ?", (node_id,)).fetchone()
    return None if row is None else int(row[0])


_REACHED = f"""
    SELECT {columns("n", NODE_FIELDS)}, w.depth, w.hop
    FROM temp.walk w CROSS JOIN nodes n ON n.graph = :graph AND n.id = w.id
    WHERE w.depth > 0
    ORDER BY w.depth, w.id
"""


def _followed(timed: bool) -> str:
    """SQL true when edge ``e`` (``e.source`` replacing ``e.target``) may be followed: it
    shows, its newer record shows, and its pair of records passes (see ``base.Store``)."""

    def when(alias: str) -> str:
        return f" AND {valid_at(alias)}" if timed else ""

    return f"""e.tombstoned_at IS NULL{when("e")}
        AND EXISTS (SELECT 1 FROM nodes n WHERE n.graph = :graph AND n.id = e.source
                    AND n.tombstoned_at IS NULL{when("n")})
        AND (SELECT MAX(p.state = 'rejected') = 0
                    AND (MAX(p.state IN ('stated', 'confirmed')) = 1
                         OR TOTAL(p.confidence) >= :floor)
             FROM edges p
             WHERE p.graph = :graph AND p.target = e.target AND p.type = 'supersedes'
               AND p.source = e.source AND p.tombstoned_at IS NULL{when("p")})"""


def _region_sql(timed: bool) -> str:
    # CROSS JOIN fixes the loop order: from the region into the target index of edges.
    follow = f"""FROM region r
        CROSS JOIN edges e ON e.graph = :graph AND e.target = r.id AND e.type = 'supersedes'
        WHERE {_followed(timed)}"""
    return f"""
        WITH RECURSIVE region(id) AS (
            SELECT id FROM nodes WHERE graph = :graph AND id = :start AND tombstoned_at IS NULL
            UNION
            SELECT e.source {follow}
        )
        SELECT {columns("e", EDGE_FIELDS)} {follow}
        ORDER BY e.id
    """


_REGION = {timed: _region_sql(timed) for timed in (False, True)}


class _Steps:
    """SQLite's statements for ``SqlWalks`` (see the module docstring)."""

    def reach(
        self,
        conn: sqlite3.Connection,
        filt: WalkFilter,
        start: str,
        direction: Direction,
        max_depth: int,
    ) -> list[Any]:
        try:
            _walk(conn, start, direction, filt, max_depth)
            return conn.execute(_REACHED, {"graph": filt.graph}).fetchall()
        finally:
            conn.execute("DELETE FROM temp.walk")

    def path(
        self, conn: sqlite3.Connection, filt: WalkFilter, source: str, target: str, max_depth: int
    ) -> list[str]:
        try:
            _walk(conn, target, "in", filt, max_depth, stop_at=source)
            distance = _depth_of(conn, source)
            if distance is None:
                return []
            path = [source]
            step = f"""
                SELECT MIN(e.target) FROM edges e INDEXED BY edges_by_source
                CROSS JOIN temp.walk w ON w.id = e.target AND w.depth = :closer
                CROSS JOIN nodes n ON n.graph = :graph AND n.id = e.target
                WHERE e.graph = :graph AND e.source = :current AND {filt.sql}
            """
            for closer in range(distance - 1, -1, -1):
                params = {**filt.params, "current": path[-1], "closer": closer}
                path.append(str(conn.execute(step, params).fetchone()[0]))
            return path
        finally:
            conn.execute("DELETE FROM temp.walk")

    region_sql = _REGION


WALKS = SqlWalks(SQLITE, _Steps())
