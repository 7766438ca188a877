"""Traversals inside DuckDB: breadth first, each walk one statement of recursive CTEs.

A plain recursive CTE over ``(id, depth)`` revisits a node once for every path
length that reaches it, which explodes on dense graphs. DuckDB's ``USING KEY``
form (DuckDB >= 1.3) keeps one row per node id instead: each iteration's working
table is just the frontier found at the previous depth, ``recurring.<cte>`` is
every node found so far, and a step follows the walkable edges from the frontier
to nodes not yet found, grouped by node. So every node and edge is touched at
most once. The walkable edges (live, of the asked types, valid at ``as_of``, to a
node that shows) are selected once per statement, a column scan DuckDB does fast.

Tie rules, the same as the memory store's: a node reached from several parents
at the previous depth records the smallest ``(parent id, edge type)`` pair as
``via``/``edge_type`` (``hop`` = "<parent id> <edge type>", and the space sorts
below every id character). ``path_between`` measures distances to the target
with a backward walk (stopping once the source is found), then steps forward
from the source, always to the smallest id one step closer: the
lexicographically smallest shortest path.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import duckdb

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType, format_time
from decisis.stores.base import Direction, Reached
from decisis.stores.duckdb_store.rows import (
    EDGE_COLUMNS,
    NODE_COLUMNS,
    edge_from_row,
    node_from_row,
    valid_at,
)
from decisis.stores.row_records import reached_from_rows

__all__ = ["path_between", "supersession_region", "traverse"]

Conn = duckdb.DuckDBPyConnection

_ENDS = {"out": ("source", "target"), "in": ("target", "source")}


class _Filter:
    """The SQL that decides which edges a walk may use (edge ``e``, the node it
    reaches ``n``), and its parameters."""

    def __init__(
        self, graph: str, edge_types: Sequence[EdgeType] | None, as_of: datetime | None
    ) -> None:
        self.params: dict[str, Any] = {"graph": graph}
        parts = ["e.tombstoned_at IS NULL", "n.tombstoned_at IS NULL"]
        if edge_types is not None:
            parts.append("list_contains($types::VARCHAR[], e.type)")
            self.params["types"] = [t.value for t in edge_types]
        if as_of is not None:
            parts += [valid_at("e"), valid_at("n")]
            self.params["as_of"] = format_time(as_of)
        self.sql = " AND ".join(parts)

    def node_visible(self, conn: Conn, node_id: str, *, timed: bool = True) -> bool:
        """Whether ``node_id`` may start or end a walk; ``NotFound`` when it is absent.
        With ``timed=False`` only a tombstone hides it, not ``as_of``."""
        timed_sql = f" AND {valid_at('n')}" if timed and "as_of" in self.params else ""
        params = {"graph": self.params["graph"], "id": node_id}
        if timed_sql:
            params["as_of"] = self.params["as_of"]
        row = conn.execute(
            f"SELECT n.tombstoned_at IS NULL{timed_sql} FROM nodes n"
            " WHERE n.graph = $graph AND n.id = $id",
            params,
        ).fetchone()
        if row is None:
            raise NotFound("node", node_id, self.params["graph"])
        return bool(row[0])


def _links(direction: Direction, where: str) -> str:
    """``links(near, far, type)``: the edges a walk along ``direction`` may follow."""
    near, far = _ENDS[direction]
    return f"""links AS MATERIALIZED (
        SELECT e.{near} AS near, e.{far} AS far, e.type
        FROM edges e JOIN nodes n ON n.graph = $graph AND n.id = e.{far}
        WHERE e.graph = $graph AND {where}
    )"""


def _walk(name: str, start: str, *, stop: str = "") -> str:
    """``name(id, depth, hop)``: every node ``start`` reaches over ``links`` within
    ``$max_depth`` hops, each once at its smallest depth. With ``stop`` (a parameter),
    no level is expanded once that node has been found."""
    until = f"AND NOT EXISTS (SELECT 1 FROM recurring.{name} x WHERE x.id = {stop})" if stop else ""
    return f"""{name}(id, depth, hop) USING KEY (id) AS (
        SELECT {start}::VARCHAR, 0, NULL::VARCHAR
        UNION
        SELECT k.far, any_value(w.depth) + 1, MIN(k.near || ' ' || k.type)
        FROM {name} w JOIN links k ON k.near = w.id
        WHERE w.depth < $max_depth
          AND NOT EXISTS (SELECT 1 FROM recurring.{name} r WHERE r.id = k.far) {until}
        GROUP BY k.far
    )"""


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
    sql = f"""
        WITH RECURSIVE {_links(direction, filt.sql)}, {_walk("walk", "$start")}
        SELECT {NODE_COLUMNS}, w.depth, w.hop
        FROM walk w JOIN nodes n ON n.graph = $graph AND n.id = w.id
        WHERE w.depth > 0
        ORDER BY w.depth, w.id
    """
    params = {**filt.params, "start": start, "max_depth": max_depth}
    return reached_from_rows(conn.execute(sql, params).fetchall(), node_from_row)


# ``dist`` walks back from the target over ``links`` (near = target end); ``path`` then
# steps forward from the source, each step to the smallest id one hop closer.
_PATH = """
    WITH RECURSIVE {links}, {dist},
    total AS (SELECT depth FROM dist WHERE id = $source),
    path(pos, id) AS (
        SELECT 0, $source::VARCHAR WHERE EXISTS (SELECT 1 FROM total)
        UNION ALL
        SELECT any_value(p.pos) + 1, MIN(k.near)
        FROM path p
        JOIN links k ON k.far = p.id
        JOIN dist d ON d.id = k.near
        CROSS JOIN total
        WHERE d.depth = total.depth - p.pos - 1
        GROUP BY p.id
    )
    SELECT id FROM path ORDER BY pos
"""


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
    sql = _PATH.format(links=_links("in", filt.sql), dist=_walk("dist", "$target", stop="$source"))
    params = {**filt.params, "source": source, "target": target, "max_depth": max_depth}
    return [str(row[0]) for row in conn.execute(sql, params).fetchall()]


def _region_sql(timed: bool) -> str:
    """``shown``: the supersedes edges that show, to a newer record that shows; ``pairs``:
    the (old, new) pairs followed (the rule of ``base.Store``); ``region``: the records
    reached from the start over them. Like ``links`` above, the edges are selected once
    per statement, a column scan."""
    when = f" AND {valid_at('e')} AND {valid_at('n')}" if timed else ""
    return f"""
        WITH RECURSIVE shown AS MATERIALIZED (
            SELECT e.* FROM edges e JOIN nodes n ON n.graph = $graph AND n.id = e.source
            WHERE e.graph = $graph AND e.type = 'supersedes'
              AND e.tombstoned_at IS NULL AND n.tombstoned_at IS NULL{when}
        ),
        pairs AS MATERIALIZED (
            SELECT target AS old, source AS new FROM shown
            GROUP BY target, source
            HAVING NOT bool_or(state = 'rejected')
               AND (bool_or(state IN ('stated', 'confirmed'))
                    OR coalesce(sum(confidence), 0) >= $floor)
        ),
        region(id) AS (
            SELECT id FROM nodes WHERE graph = $graph AND id = $start AND tombstoned_at IS NULL
            UNION
            SELECT p.new FROM region r JOIN pairs p ON p.old = r.id
        )
        SELECT {EDGE_COLUMNS}
        FROM shown e JOIN pairs p ON p.old = e.target AND p.new = e.source
        WHERE e.target IN (SELECT id FROM region)
        ORDER BY e.id
    """


_REGION = {timed: _region_sql(timed) for timed in (False, True)}


def supersession_region(
    conn: Conn, graph: str, start: str, *, floor: float, as_of: datetime | None
) -> list[Edge]:
    """The supersedes edges followed forward from ``start``, ordered by id: one statement
    (``UNION`` keeps each record once, so cycles end)."""
    params: dict[str, Any] = {"graph": graph, "start": start, "floor": floor}
    if as_of is not None:
        params["as_of"] = format_time(as_of)
    rows = conn.execute(_REGION[as_of is not None], params).fetchall()
    if not rows:
        _Filter(graph, None, None).node_visible(conn, start, timed=False)  # NotFound if absent
    return [edge_from_row(row) for row in rows]
