"""Traversals inside DuckDB: breadth first, each walk one statement of recursive CTEs.

A plain recursive CTE over ``(id, depth)`` revisits a node once for every path
length that reaches it, which explodes on dense graphs. DuckDB's ``USING KEY``
form (DuckDB >= 1.3) keeps one row per node id instead: each iteration's working
table is just the frontier found at the previous depth, ``recurring.<cte>`` is
every node found so far, and a step follows the walkable edges from the frontier
to nodes not yet found, grouped by node. So every node and edge is touched at
most once. The walkable edges (``sql_walks.WalkFilter``) are selected once per
statement, a column scan DuckDB does fast. The checks, the tie rules and the
records are ``sql_walks``'s, shared with the other backends.
"""

from __future__ import annotations

from typing import Any

import duckdb

from decisis.stores.base import Direction
from decisis.stores.duckdb_store.rows import DUCKDB, EDGE_COLUMNS, NODE_COLUMNS, valid_at
from decisis.stores.sql_walks import ENDS, SqlWalks, WalkFilter

__all__ = ["WALKS"]

Conn = duckdb.DuckDBPyConnection


def _links(direction: Direction, where: str) -> str:
    """``links(near, far, type)``: the edges a walk along ``direction`` may follow."""
    near, far = ENDS[direction]
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


class _Steps:
    """DuckDB's statements for ``SqlWalks`` (see the module docstring)."""

    def reach(
        self, conn: Conn, filt: WalkFilter, start: str, direction: Direction, max_depth: int
    ) -> list[Any]:
        sql = f"""
            WITH RECURSIVE {_links(direction, filt.sql)}, {_walk("walk", "$start")}
            SELECT {NODE_COLUMNS}, w.depth, w.hop
            FROM walk w JOIN nodes n ON n.graph = $graph AND n.id = w.id
            WHERE w.depth > 0
            ORDER BY w.depth, w.id
        """
        params = {**filt.params, "start": start, "max_depth": max_depth}
        return conn.execute(sql, params).fetchall()

    def path(
        self, conn: Conn, filt: WalkFilter, source: str, target: str, max_depth: int
    ) -> list[str]:
        sql = _PATH.format(
            links=_links("in", filt.sql), dist=_walk("dist", "$target", stop="$source")
        )
        params = {**filt.params, "source": source, "target": target, "max_depth": max_depth}
        return [str(row[0]) for row in conn.execute(sql, params).fetchall()]

    region_sql = _REGION


WALKS = SqlWalks(DUCKDB, _Steps())
