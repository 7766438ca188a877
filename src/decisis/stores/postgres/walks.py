"""Traversals inside PostgreSQL: breadth first, one set-based statement per level.

A recursive CTE over ``(id, depth)`` revisits a node once for every path length
that reaches it, which explodes on dense graphs. Instead each level is one
``INSERT … SELECT`` into a session-private temporary table (``WALK_TABLE``,
created when the pool opens a connection, emptied at every commit): it follows
every walkable edge from the nodes found at the previous depth to nodes not
seen yet, so every node and edge is touched at most once. The caller holds one
REPEATABLE READ transaction around the levels, so all of them see one snapshot.

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
from decisis.model import EdgeType
from decisis.stores.base import Direction, Reached
from decisis.stores.postgres.rows import NODE_COLUMNS, node_from_row, valid_at

__all__ = ["WALK_TABLE", "path_between", "traverse"]

Conn = psycopg.Connection[tuple[Any, ...]]

# hop = "<parent id> <edge type>": a separator below every id character makes the
# "C" order of hops the order of (parent, type) pairs, so MIN picks the pair.
WALK_TABLE = """CREATE TEMPORARY TABLE IF NOT EXISTS decisis_walk (
    id text COLLATE "C" PRIMARY KEY,
    depth integer NOT NULL,
    hop text COLLATE "C"
) ON COMMIT DELETE ROWS"""
_ENDS = {"out": ("source", "target"), "in": ("target", "source")}


class _Filter:
    """The SQL that decides which edges a traversal may walk, and its parameters."""

    def __init__(
        self, graph: str, edge_types: Sequence[EdgeType] | None, as_of: datetime | None
    ) -> None:
        self.params: dict[str, Any] = {"graph": graph}
        parts = ["e.tombstoned_at IS NULL", "n.tombstoned_at IS NULL"]
        if edge_types is not None:
            parts.append("e.type = ANY(%(types)s::text[])")
            self.params["types"] = [t.value for t in edge_types]
        if as_of is not None:
            parts += [valid_at("e"), valid_at("n")]
            self.params["as_of"] = as_of
        self.sql = " AND ".join(parts)

    def node_visible(self, conn: Conn, node_id: str, *, timed: bool = True) -> bool:
        """Whether ``node_id`` may start or end a walk; ``NotFound`` when it is absent.
        With ``timed=False`` only a tombstone hides it, not ``as_of``."""
        row = conn.execute(
            "SELECT tombstoned_at IS NULL"
            + (f" AND {valid_at('n')}" if timed and "as_of" in self.params else "")
            + " FROM nodes n WHERE n.graph = %(graph)s AND n.id = %(id)s",
            {**self.params, "id": node_id},
        ).fetchone()
        if row is None:
            raise NotFound("node", node_id, self.params["graph"])
        return bool(row[0])


def _expand_sql(direction: Direction, where: str) -> str:
    near, far = _ENDS[direction]
    return f"""
        INSERT INTO pg_temp.decisis_walk (id, depth, hop)
        SELECT e.{far}, %(depth)s + 1, MIN((e.{near} || ' ' || e.type) COLLATE "C")
        FROM pg_temp.decisis_walk w
        JOIN edges e ON e.graph = %(graph)s AND e.{near} = w.id
        JOIN nodes n ON n.graph = %(graph)s AND n.id = e.{far}
        WHERE w.depth = %(depth)s AND {where}
          AND NOT EXISTS (SELECT 1 FROM pg_temp.decisis_walk x WHERE x.id = e.{far})
        GROUP BY e.{far}
    """


def _walk(
    conn: Conn,
    start: str,
    direction: Direction,
    filt: _Filter,
    max_depth: int,
    *,
    stop_at: str | None = None,
) -> None:
    """Fill the walk table level by level from ``start``, up to ``max_depth`` or ``stop_at``."""
    conn.execute("DELETE FROM pg_temp.decisis_walk")
    conn.execute("INSERT INTO pg_temp.decisis_walk (id, depth) VALUES (%s, 0)", (start,))
    sql = _expand_sql(direction, filt.sql)
    for depth in range(max_depth):
        if stop_at is not None and _depth_of(conn, stop_at) is not None:
            return
        if conn.execute(sql, {**filt.params, "depth": depth}).rowcount == 0:
            return


def _depth_of(conn: Conn, node_id: str) -> int | None:
    row = conn.execute(
        "SELECT depth FROM pg_temp.decisis_walk WHERE id = %s", (node_id,)
    ).fetchone()
    return None if row is None else int(row[0])


_REACHED = f"""
    SELECT {NODE_COLUMNS}, w.depth, w.hop
    FROM pg_temp.decisis_walk w JOIN nodes n ON n.graph = %(graph)s AND n.id = w.id
    WHERE w.depth > 0
    ORDER BY w.depth, w.id
"""


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
    filt = _Filter(graph, edge_types, as_of)
    if not filt.node_visible(conn, start, timed=False):
        return []
    _walk(conn, start, direction, filt, max_depth)
    rows = conn.execute(_REACHED, {"graph": graph}).fetchall()
    reached = []
    for row in rows:
        via, _, type_name = row[-1].partition(" ")
        reached.append(Reached(node_from_row(row), int(row[-2]), via, EdgeType(type_name)))
    return reached


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
    filt = _Filter(graph, edge_types, as_of)
    if not (filt.node_visible(conn, source) & filt.node_visible(conn, target)):
        return []
    _walk(conn, target, "in", filt, max_depth, stop_at=source)
    distance = _depth_of(conn, source)
    if distance is None:
        return []
    path = [source]
    step = f"""
        SELECT MIN(e.target) FROM edges e
        JOIN pg_temp.decisis_walk w ON w.id = e.target AND w.depth = %(closer)s
        JOIN nodes n ON n.graph = %(graph)s AND n.id = e.target
        WHERE e.graph = %(graph)s AND e.source = %(current)s AND {filt.sql}
    """
    for closer in range(distance - 1, -1, -1):
        params = {**filt.params, "current": path[-1], "closer": closer}
        row = conn.execute(step, params).fetchone()
        path.append(str(row[0]) if row is not None else "")
    return path
