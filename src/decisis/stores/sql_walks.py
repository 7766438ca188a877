"""``SqlWalks``: the traversals of every SQL backend, written once over its ``SqlDialect``.

What a walk may follow (live edges of the asked types, valid at ``as_of``, to a node that
shows), which start or end is visible, what an absent one answers, and how the reached
rows become ``Reached`` records are the same on SQLite, DuckDB and PostgreSQL, so they
live here. Each backend hands over only the statements that truly differ
(``WalkSteps``): SQLite fills a temp table level by level (its recursive CTEs may not
aggregate, nor read the table they build), DuckDB runs one ``USING KEY`` recursive CTE,
PostgreSQL one call of its PL/pgSQL functions.

The rule every backend keeps, the memory store's: breadth first, each node once at its
smallest depth, ordered by (depth, id); a node reached from several parents at the
previous depth records the smallest ``(parent id, edge type)`` pair as
``via``/``edge_type`` (the hop ``"<parent id> <edge type>"``: the space sorts below every
id character, so the text order of hops is the order of pairs). ``path_between``
measures distances to the target with a backward walk, then steps forward from the
source, always to the smallest id one step closer: the lexicographically smallest
shortest path. ``as_of`` filters the edges and nodes walked but not the start itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from decisis.errors import NotFound
from decisis.model import Edge, EdgeType
from decisis.stores.base import Direction, Reached
from decisis.stores.row_records import reached_from_rows
from decisis.stores.sql_dialect import SqlDialect, live

__all__ = ["ENDS", "SqlWalks", "WalkFilter", "WalkSteps"]

C = TypeVar("C")
C_contra = TypeVar("C_contra", contravariant=True)
Rows = Sequence[Sequence[Any]]

# (near end, far end) of an edge walked in each direction.
ENDS: dict[str, tuple[str, str]] = {"out": ("source", "target"), "in": ("target", "source")}


class WalkFilter:
    """The SQL that decides which edges a walk may use (edge ``e``, the node it reaches
    ``n``), in the dialect's spelling, and its parameters."""

    def __init__(
        self,
        dialect: SqlDialect,
        graph: str,
        edge_types: Sequence[EdgeType] | None,
        as_of: datetime | None,
    ) -> None:
        self.dialect = dialect
        self.graph = graph
        self.edge_types = edge_types
        self.as_of = as_of
        self.params: dict[str, Any] = {"graph": graph}
        edge, node = [live("e")], [live("n")]
        if edge_types is not None:
            edge.append(dialect.member("e.type", "types"))
            self.params["types"] = dialect.list_value(edge_types)
        if as_of is not None:
            edge.append(dialect.valid_at("e"))
            node.append(dialect.valid_at("n"))
            self.params["as_of"] = dialect.time_value(as_of)
        self.edge_sql = " AND ".join(edge)
        """True when edge ``e`` may be followed (whatever node it leads to)."""
        self.node_sql = " AND ".join(node)
        """True when node ``n`` may be walked to."""
        self.sql = f"{self.edge_sql} AND {self.node_sql}"
        """Both: the edge ``e`` to the node ``n`` may be walked."""

    def node_visible(self, conn: Any, node_id: str, *, timed: bool = True) -> bool:
        """Whether ``node_id`` may start or end a walk; ``NotFound`` when it is absent.
        With ``timed=False`` only a tombstone hides it, not ``as_of``."""
        return node_visible(self.dialect, conn, self.graph, node_id, self.as_of if timed else None)


def node_visible(
    dialect: SqlDialect, conn: Any, graph: str, node_id: str, as_of: datetime | None
) -> bool:
    """Whether ``node_id`` is live (and valid at ``as_of``, when given); ``NotFound`` when
    the graph has no such node."""
    params: dict[str, Any] = {"graph": graph, "id": node_id}
    timed = ""
    if as_of is not None:
        timed = f" AND {dialect.valid_at('n')}"
        params["as_of"] = dialect.time_value(as_of)
    sql = f"SELECT {live('n')}{timed} FROM nodes n WHERE n.graph = :graph AND n.id = :id"
    row = conn.execute(dialect.sql(sql), params).fetchone()
    if row is None:
        raise NotFound("node", node_id, graph)
    return bool(row[0])


class WalkSteps(Protocol[C_contra]):
    """What one backend runs for a walk: the statements that truly differ."""

    def reach(
        self, conn: C_contra, filt: WalkFilter, start: str, direction: Direction, max_depth: int, /
    ) -> Rows:
        """Rows of every node reached from ``start``: the node's columns, then its depth and
        its hop, ordered by (depth, id)."""
        ...

    def path(
        self, conn: C_contra, filt: WalkFilter, source: str, target: str, max_depth: int, /
    ) -> list[str]:
        """The lexicographically smallest shortest path (ids), or ``[]``."""
        ...

    @property
    def region_sql(self) -> Mapping[bool, str]:
        """The statement (untimed, timed) listing the supersedes edges' rows followed
        forward from ``start``, by id; parameters ``graph``, ``start``, ``floor`` and, when
        timed, ``as_of``."""
        ...


class SqlWalks(Generic[C]):
    """A backend's ``walks`` (the ``sql_front.Walks`` protocol): the checks and records
    written once, the statements from its ``WalkSteps``."""

    def __init__(self, dialect: SqlDialect, steps: WalkSteps[C]) -> None:
        self.dialect = dialect
        self.steps = steps

    def traverse(
        self,
        conn: C,
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
        filt = WalkFilter(self.dialect, graph, edge_types, as_of)
        if not filt.node_visible(conn, start, timed=False):
            return []
        rows = self.steps.reach(conn, filt, start, direction, max_depth)
        return reached_from_rows(rows, self.dialect.node_from_row)

    def path_between(
        self,
        conn: C,
        graph: str,
        source: str,
        target: str,
        *,
        edge_types: Sequence[EdgeType] | None,
        max_depth: int,
        as_of: datetime | None,
    ) -> list[str]:
        """The lexicographically smallest shortest path ``source -> target``, or ``[]``."""
        filt = WalkFilter(self.dialect, graph, edge_types, as_of)
        if not (filt.node_visible(conn, source) & filt.node_visible(conn, target)):
            return []
        return self.steps.path(conn, filt, source, target, max_depth)

    def supersession_region(
        self, conn: C, graph: str, start: str, *, floor: float, as_of: datetime | None
    ) -> list[Edge]:
        """The supersedes edges followed forward from ``start``, ordered by id: one recursive
        statement (``UNION`` keeps each record once, so cycles end)."""
        params: dict[str, Any] = {"graph": graph, "start": start, "floor": floor}
        if as_of is not None:
            params["as_of"] = self.dialect.time_value(as_of)
        run: Any = conn  # every backend's connection runs a statement the DB-API way
        rows = run.execute(self.steps.region_sql[as_of is not None], params).fetchall()
        if not rows:
            node_visible(self.dialect, conn, graph, start, None)  # NotFound when absent
        edge_from_row = self.dialect.edge_from_row
        return [edge_from_row(row) for row in rows]
