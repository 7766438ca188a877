"""The memory store's vectors: ``(graph, space)`` to ``{node id: (vector, digest)}``.

Derived data beside the graph, like the other backends' vector tables (see
``decisis.stores.base``). ``nearest`` ranks a stacked copy of the space, built on the
first query after a change and kept until the next one. ``VectorMethods`` is the
``Store`` half that ``MemoryStore`` inherits, so memory.py keeps to the graph.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from decisis.model import Node
from decisis.stores.base import VectorHit, VectorItems, VectorLike
from decisis.stores.vectors import (
    SpaceMatrix,
    check_batch,
    check_ids,
    check_nearest,
    check_nodes,
    check_query,
    check_space,
    dim_mismatch,
    wanted_ids,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


__all__ = ["MemoryVectors", "VectorMethods"]


@dataclass
class _Space:
    dim: int
    rows: dict[str, tuple[NDArray[np.float32], str | None]] = field(default_factory=dict)
    stacked: SpaceMatrix | None = None  # built by the first ``nearest`` after a change
    left_out: tuple[object, list[str]] | None = None  # (ledger head, as_of), ids not shown


class MemoryVectors:
    """Every graph's vector spaces, held in Python.

    The store calls it under its own lock and passes its nodes as ``lookup``, so
    tombstones and ``as_of`` apply here the way the SQL backends apply them by a join.
    """

    def __init__(self) -> None:
        self._spaces: dict[tuple[str, str], _Space] = {}

    def put(
        self,
        graph: str,
        space: str,
        items: VectorItems,
        digests: Mapping[str, str] | None,
        lookup: Mapping[str, Node],
    ) -> int:
        space = check_space(space)
        batch = check_batch(items, digests)
        if not batch.ids:
            return 0
        known = self._spaces.get((graph, space))
        if known is not None and batch.dim != known.dim:
            raise dim_mismatch(space, known.dim, batch.dim, batch.ids[0])
        seen = {i: node.tombstoned for i in batch.ids if (node := lookup.get(i)) is not None}
        check_nodes(graph, batch.ids, seen)
        target = self._spaces.setdefault((graph, space), _Space(batch.dim))
        for node_id, row, tag in zip(batch.ids, batch.matrix, batch.digests, strict=True):
            target.rows[node_id] = (row.copy(), tag)
        target.stacked = target.left_out = None
        return len(batch.ids)

    def get(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None,
        digests: Mapping[str, str] | None,
        lookup: Mapping[str, Node],
    ) -> dict[str, NDArray[np.float32]]:
        space = check_space(space)
        wanted = wanted_ids(check_ids(ids), digests)
        known = self._spaces.get((graph, space))
        rows = {} if known is None else known.rows
        out = {}
        for node_id in sorted(rows) if wanted is None else wanted:
            found = rows.get(node_id)
            node = lookup.get(node_id)
            if found is None or node is None or node.tombstoned:
                continue
            if digests is not None and found[1] != digests.get(node_id):
                continue
            out[node_id] = found[0].copy()
        return out

    def digests(
        self, graph: str, space: str, ids: Sequence[str] | None, lookup: Mapping[str, Node]
    ) -> dict[str, str | None]:
        space = check_space(space)
        wanted = check_ids(ids)
        known = self._spaces.get((graph, space))
        rows = {} if known is None else known.rows
        out: dict[str, str | None] = {}
        for node_id in sorted(rows) if wanted is None else dict.fromkeys(wanted):
            found, node = rows.get(node_id), lookup.get(node_id)
            if found is not None and node is not None and not node.tombstoned:
                out[node_id] = found[1]
        return out

    def nearest(
        self,
        graph: str,
        space: str,
        query: VectorLike,
        k: int,
        ids: Sequence[str] | None,
        as_of: datetime | None,
        lookup: Mapping[str, Node],
        head: int,
    ) -> list[VectorHit]:
        """``head`` is the graph's ledger ``seq``: which nodes are left out is kept until it
        (or ``as_of``) changes."""
        import numpy as np

        space = check_space(space)
        k = check_nearest(k, as_of)
        among = check_ids(ids)
        known = self._spaces.get((graph, space))
        vector = check_query(query, space, None if known is None else known.dim)
        if known is None or not known.rows:
            return []
        if known.stacked is None:
            ids_in = sorted(known.rows)
            known.stacked = SpaceMatrix.build(ids_in, np.stack([known.rows[i][0] for i in ids_in]))
        if among is not None:
            exclude = _hidden(among, lookup, as_of)
        elif known.left_out is not None and known.left_out[0] == (head, as_of):
            exclude = known.left_out[1]
        else:
            exclude = _hidden(known.stacked.ids, lookup, as_of)
            known.left_out = ((head, as_of), exclude)
        return known.stacked.nearest(vector, k, among=among, exclude=exclude)

    def delete(self, graph: str, space: str, ids: Sequence[str] | None) -> int:
        space = check_space(space)
        among = check_ids(ids)
        known = self._spaces.get((graph, space))
        if known is None:
            return 0
        if among is None:
            del self._spaces[(graph, space)]
            return len(known.rows)
        known.stacked = known.left_out = None
        return sum(known.rows.pop(i, None) is not None for i in set(among))

    def spaces(self, graph: str) -> dict[str, int]:
        return {s: v.dim for (g, s), v in sorted(self._spaces.items()) if g == graph}


def _hidden(ids: Sequence[str], lookup: Mapping[str, Node], as_of: datetime | None) -> list[str]:
    """The ids whose node is absent, tombstoned, or not valid at ``as_of``."""
    return [
        node_id
        for node_id in ids
        if (node := lookup.get(node_id)) is None
        or node.tombstoned
        or (as_of is not None and not node.valid_at(as_of))
    ]


class VectorMethods:
    """The vector methods of ``MemoryStore``: each takes the store's lock and hands its
    nodes (``_node_map``, which also refuses a closed store) to ``MemoryVectors``."""

    _lock: threading.RLock
    _vectors: MemoryVectors
    head: Callable[[str], tuple[int, str]]  # the store's own ``head``

    def _node_map(self, graph: str) -> Mapping[str, Node]:
        raise NotImplementedError

    def put_vectors(
        self,
        graph: str,
        space: str,
        items: VectorItems,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> int:
        with self._lock:
            return self._vectors.put(graph, space, items, digests, self._node_map(graph))

    def get_vectors(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        with self._lock:
            return self._vectors.get(graph, space, ids, digests, self._node_map(graph))

    def vector_digests(
        self, graph: str, space: str, ids: Sequence[str] | None = None
    ) -> dict[str, str | None]:
        with self._lock:
            return self._vectors.digests(graph, space, ids, self._node_map(graph))

    def nearest(
        self,
        graph: str,
        space: str,
        query: VectorLike,
        k: int = 10,
        *,
        ids: Sequence[str] | None = None,
        as_of: datetime | None = None,
    ) -> list[VectorHit]:
        """Brute force with numpy over the space, stacked once per change."""
        with self._lock:
            nodes, seq = self._node_map(graph), self.head(graph)[0]
            return self._vectors.nearest(graph, space, query, k, ids, as_of, nodes, seq)

    def delete_vectors(self, graph: str, space: str, ids: Sequence[str] | None = None) -> int:
        with self._lock:
            self._node_map(graph)
            return self._vectors.delete(graph, space, ids)

    def vector_spaces(self, graph: str) -> dict[str, int]:
        with self._lock:
            self._node_map(graph)
            return self._vectors.spaces(graph)
