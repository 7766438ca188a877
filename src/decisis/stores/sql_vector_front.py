"""``SqlVectorFront``: the vector methods of the ``Store`` protocol, checked once for the
SQL backends.

Each backend keeps vectors its own way (SQLite blobs, DuckDB lists, PostgreSQL with
or without pgvector) and runs them in its own transactions, but the arguments are
checked the same way before any of it, so that part is written here and the
backend gives the rest as ``_put_vectors``, ``_get_vectors``, ``_nearest`` and
``_delete_vectors``, called with checked arguments only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from decisis.stores.base import VectorHit, VectorItems, VectorLike
from decisis.stores.vectors import (
    VectorBatch,
    check_batch,
    check_ids,
    check_nearest,
    check_space,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Ids", "SqlVectorFront"]

Ids = Sequence[str] | None  # which nodes' vectors, or all of them


class SqlVectorFront(ABC):
    """Argument checks for the vector methods, then the backend's own hook."""

    @abstractmethod
    def _put_vectors(self, graph: str, space: str, batch: VectorBatch) -> int: ...

    @abstractmethod
    def _get_vectors(
        self, graph: str, space: str, ids: Ids, digests: Mapping[str, str] | None
    ) -> dict[str, NDArray[np.float32]]: ...

    @abstractmethod
    def _vector_digests(
        self, graph: str, space: str, ids: list[str] | None
    ) -> dict[str, str | None]: ...

    @abstractmethod
    def _nearest(
        self, graph: str, space: str, query: VectorLike, k: int, ids: Ids, as_of: datetime | None
    ) -> list[VectorHit]: ...

    @abstractmethod
    def _delete_vectors(self, graph: str, space: str, ids: Ids) -> int: ...

    def put_vectors(
        self,
        graph: str,
        space: str,
        items: VectorItems,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> int:
        batch = check_batch(items, digests)
        return self._put_vectors(graph, check_space(space), batch)

    def get_vectors(
        self,
        graph: str,
        space: str,
        ids: Sequence[str] | None = None,
        *,
        digests: Mapping[str, str] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        return self._get_vectors(graph, check_space(space), ids, digests)

    def vector_digests(
        self, graph: str, space: str, ids: Sequence[str] | None = None
    ) -> dict[str, str | None]:
        wanted = check_ids(ids)
        if wanted is not None and not wanted:
            return {}
        return self._vector_digests(graph, check_space(space), wanted)

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
        space = check_space(space)
        k = check_nearest(k, as_of)
        return self._nearest(graph, space, query, k, ids, as_of)

    def delete_vectors(self, graph: str, space: str, ids: Sequence[str] | None = None) -> int:
        return self._delete_vectors(graph, check_space(space), ids)
