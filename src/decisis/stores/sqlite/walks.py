"""Traversals inside SQLite: breadth first, one set-based statement per level.

A recursive CTE over ``(id, depth)`` revisits a node once for every path length
that reaches it, which explodes on dense graphs. Instead each level is one
``INSERT … SELECT`` into a connection-private temp table: it follows every
walkable edge from the nodes found at the previous depth to nodes not seen yet,
so every node and edge is touched at most once, and the work stays in the
database. The caller holds one read transaction around the levels, so all of
them see the same snapshot.

Tie rules, the same as the memory store's: a node reached from several parents
at the previous depth records the smallest ``(parent id, edge type)`` pair as
``via``/``edge_type``. ``path_between`` measures distances to the target with a
backward search, then walks forward from the source, always to the smallest id
one step closer: that is the lexicographically smallest shortest path.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType, format_time
from decisis.stores.base import Direction, Reached
from decisis.stores.row_records import reached_from_rows
from decisis.stores.sqlite.rows import (
    EDGE_FIELDS,
    NODE_FIELDS,
    columns,
    edge_from_row,
    node_from_row,
    valid_at,
)

__all__ = ["TEMP_TABLES", "path_between", "supersession_region", "traverse"]

TEMP_TABLES = (
    # hop = "<parent id> <edge type>": a separator below every id character makes the
    # text order of hops the order of (parent, type) pairs, so MIN picks the pair.
    """CREATE TEMP TABLE IF NOT EXISTS walk (
        id TEXT PRIMARY KEY,
        depth INTEGER NOT NULL,
        hop TEXT
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS temp.walk_by_depth ON walk (depth)",
)
_ENDS = {"out": ("source", "target"), "in": ("target", "source")}


class _Filter:
    """The SQL that decides which edges a traversal may walk, and its parameters."""

    def __init__(
        self, graph: str, edge_types: Sequence[EdgeType] | None, as_of: datetime | None
    ) -> None:
        self.params: dict[str, Any] = {"graph": graph}
        parts = ["e.tombstoned_at IS NULL", "n.tombstoned_at IS NULL"]
        if edge_types is not None:
            parts.append("e.type IN (SELECT value FROM json_each(:types))")
            self.params["types"] = json.dumps([t.value for t in edge_types])
        if as_of is not None:
            parts += [valid_at("e"), valid_at("n")]
            self.params["as_of"] = format_time(as_of)
        self.sql = " AND ".join(parts)

    def node_visible(self, conn: sqlite3.Connection, node_id: str, *, timed: bool = True) -> bool:
        """Whether ``node_id`` may start or end a walk; ``NotFound`` when it is absent.
        With ``timed=False`` only a tombstone hides it, not ``as_of``."""
        row = conn.execute(
            "SELECT tombstoned_at IS NULL"
            + (f" AND {valid_at('n')}" if timed and "as_of" in self.params else "")
            + " FROM nodes n WHERE n.graph = :graph AND n.id = :id",
            {**self.params, "id": node_id},
        ).fetchone()
        if row is None:
            raise NotFound("node", node_id, self.params["graph"])
        return bool(row[0])


def _expand_sql(direction: Direction, where: str) -> str:
    near, far = _ENDS[direction]
    # CROSS JOIN fixes the loop order: from the (small) frontier into the edge index.
    return f"""
        INSERT INTO temp.walk (id, depth, hop)
        SELECT e.{far}, :depth + 1, MIN(e.{near} || ' ' || e.type)
        FROM temp.walk w
        CROSS JOIN edges e ON e.graph = :graph AND e.{near} = w.id
        CROSS JOIN nodes n ON n.graph = :graph AND n.id = e.{far}
        WHERE w.depth = :depth AND {where}
          AND NOT EXISTS (SELECT 1 FROM temp.walk x WHERE x.id = e.{far})
        GROUP BY e.{far}
    """


def _walk(
    conn: sqlite3.Connection,
    start: str,
    direction: Direction,
    filt: _Filter,
    max_depth: int,
    *,
    stop_at: str | None = None,
) -> None:
    """Fill ``temp.walk`` level by level from ``start``, up to ``max_depth`` or ``stop_at``."""
    conn.execute("DELETE FROM temp.walk")
    conn.execute("INSERT INTO temp.walk (id, depth, hop) VALUES (?, 0, NULL)", (start,))
    sql = _expand_sql(direction, filt.sql)
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


def traverse(
    conn: sqlite3.Connection,
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
    filt = _Filter(graph, edge_types, as_of)
    if not filt.node_visible(conn, start, timed=False):
        return []
    try:
        _walk(conn, start, direction, filt, max_depth)
        rows = conn.execute(_REACHED, {"graph": graph}).fetchall()
    finally:
        conn.execute("DELETE FROM temp.walk")
    return reached_from_rows(rows, node_from_row)


def path_between(
    conn: sqlite3.Connection,
    graph: str,
    source: str,
    target: str,
    *,
    edge_types: Sequence[EdgeType] | None,
    max_depth: int,
    as_of: datetime | None,
) -> list[str]:
    """The lexicographically smallest shortest path ``source -> target``, or ``[]``."""
    filt = _Filter(graph, edge_types, as_of)
    if not (filt.node_visible(conn, source) & filt.node_visible(conn, target)):
        return []
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


def supersession_region(
    conn: sqlite3.Connection, graph: str, start: str, *, floor: float, as_of: datetime | None
) -> list[Edge]:
    """The supersedes edges followed forward from ``start``, ordered by id: one recursive
    statement (``UNION`` keeps each record once, so cycles end)."""
    params: dict[str, Any] = {"graph": graph, "start": start, "floor": floor}
    if as_of is not None:
        params["as_of"] = format_time(as_of)
    rows = conn.execute(_REGION[as_of is not None], params).fetchall()
    if not rows:
        _Filter(graph, None, None).node_visible(conn, start, timed=False)  # NotFound if absent
    return [edge_from_row(row) for row in rows]
