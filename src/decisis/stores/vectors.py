"""What every backend shares about vectors: argument checks and brute-force ranking.

Vectors are derived data (see ``decisis.stores.base``): they sit beside the node
tables, outside the ledger. The checks here run before a backend touches storage,
so every backend refuses the same input with the same error and writes nothing.
Vectors are kept as float32, exactly as given (not normalised), so a caller that
reads them back computes exactly what it would have from its own copy.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from decisis.errors import Conflict, InvalidInput, NotFound
from decisis.stores.base import VectorHit, VectorItems, VectorLike
from decisis.stores.checks import check_aware, check_limit

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


__all__ = [
    "MAX_DIM",
    "MAX_SPACE_LENGTH",
    "MatrixCache",
    "SpaceMatrix",
    "VectorBatch",
    "check_batch",
    "check_ids",
    "check_nearest",
    "check_nodes",
    "check_query",
    "check_space",
    "dim_mismatch",
    "new_version",
    "rank",
    "stored_in_order",
    "wanted_ids",
]

MAX_DIM = 16_000  # pgvector's limit for a vector column; far above any text embedder
MAX_SPACE_LENGTH = 300


@dataclass(frozen=True, slots=True)
class VectorBatch:
    """Checked vectors for one ``put_vectors`` call: ids, one float32 row each, digests."""

    ids: list[str]
    matrix: NDArray[np.float32]  # shape (len(ids), dim), every value finite
    digests: list[str | None]

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])


def check_space(space: object) -> str:
    if not isinstance(space, str) or not space or space != space.strip():
        raise InvalidInput(
            "space", f"{space!r} is not a space name", "non-empty text without outer spaces"
        )
    if len(space) > MAX_SPACE_LENGTH:
        raise InvalidInput("space", f"is {len(space)} characters long", f"<= {MAX_SPACE_LENGTH}")
    return space


def check_ids(ids: Sequence[str] | None, name: str = "ids") -> list[str] | None:
    """``None`` or a list of id strings (a lone string is refused: it is not a list of ids)."""
    if ids is None:
        return None
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise InvalidInput(name, f"{ids!r} is not a list of node ids", "a list of strings")
    out = list(ids)
    for node_id in out:
        if not isinstance(node_id, str):
            raise InvalidInput(name, f"{node_id!r} is not a node id", "strings")
    return out


def _as_vector(value: object, where: str) -> NDArray[np.float32]:
    """One vector as float32: numbers only, one dimension, at least one value, all finite."""
    import numpy as np

    if isinstance(value, str | bytes | Mapping):
        raise InvalidInput("vector", f"{where}: {type(value).__name__} is not a vector", _NUMBERS)
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise InvalidInput("vector", f"{where}: not a vector ({exc})", _NUMBERS) from None
    if array.dtype.kind not in "iuf":
        raise InvalidInput("vector", f"{where}: holds {array.dtype} values", _NUMBERS)
    if array.ndim != 1 or array.size == 0:
        raise InvalidInput("vector", f"{where}: has shape {array.shape}", _NUMBERS)
    if array.size > MAX_DIM:
        raise InvalidInput("vector", f"{where}: has {array.size} values", f"<= {MAX_DIM}")
    with np.errstate(over="ignore"):  # a float64 beyond float32's range becomes inf: refused
        out = array.astype(np.float32)
    if not np.isfinite(out).all():
        raise InvalidInput("vector", f"{where}: holds NaN or an infinity (as float32)", _NUMBERS)
    return out


_NUMBERS = "a non-empty 1-D list or array of finite numbers"


def _pairs(items: VectorItems) -> list[tuple[Any, Any]]:
    if isinstance(items, Mapping):
        return list(items.items())
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise InvalidInput("items", f"{type(items).__name__} is not a list of pairs", _PAIRS)
    pairs = []
    for item in items:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise InvalidInput("items", f"{item!r:.60} is not a (node id, vector) pair", _PAIRS)
        pairs.append((item[0], item[1]))
    return pairs


_PAIRS = "(node id, vector) pairs or a mapping of node id to vector"


def check_batch(items: VectorItems, digests: Mapping[str, str] | None) -> VectorBatch:
    """Every check that needs no storage: ids, numbers, one dimension, digests."""
    import numpy as np

    if digests is not None and not isinstance(digests, Mapping):
        raise InvalidInput("digests", f"{type(digests).__name__} is not a mapping", "id -> text")
    ids: list[str] = []
    rows: list[NDArray[np.float32]] = []
    seen: set[str] = set()
    for node_id, value in _pairs(items):
        if not isinstance(node_id, str) or not node_id:
            raise InvalidInput("items", f"{node_id!r} is not a node id", "non-empty strings")
        if node_id in seen:
            raise InvalidInput("items", f"node {node_id} is given twice", "one vector per node")
        seen.add(node_id)
        row = _as_vector(value, f"node {node_id}")
        if rows and row.size != rows[0].size:
            raise InvalidInput(
                "vector",
                f"node {node_id}: dimension {row.size} differs from the batch's {rows[0].size}",
                f"{rows[0].size} numbers",
            )
        ids.append(node_id)
        rows.append(row)
    tags = [None if digests is None else digests.get(i) for i in ids]
    for node_id, tag in zip(ids, tags, strict=True):
        if tag is not None and not isinstance(tag, str):
            raise InvalidInput("digests", f"node {node_id}: {tag!r} is not text", "strings")
    matrix = np.stack(rows) if rows else np.zeros((0, 1), dtype=np.float32)
    return VectorBatch(ids, matrix, tags)


def dim_mismatch(space: str, expected: int, given: int, node_id: str | None = None) -> InvalidInput:
    """The error for a vector whose length is not its space's dimension."""
    who = f"node {node_id}: " if node_id is not None else ""
    return InvalidInput(
        "vector",
        f"{who}dimension {given} does not match space {space!r}, which holds dimension {expected}",
        f"{expected} numbers",
    )


def check_query(query: VectorLike, space: str, dim: int | None) -> NDArray[np.float32]:
    """The query as float32, of the space's dimension when the space exists."""
    vector = _as_vector(query, "query")
    if dim is not None and vector.size != dim:
        raise dim_mismatch(space, dim, vector.size)
    return vector


def check_nearest(k: int, as_of: datetime | None) -> int:
    """``k`` as a row limit (``check_limit``: one past 64 bits is that many) once checked."""
    check_aware(as_of, "as_of")
    return check_limit(k, "k", required=True)


def check_nodes(graph: str, ids: Sequence[str], tombstoned: Mapping[str, bool]) -> None:
    """A vector may be put only on a node that exists and is not tombstoned; ``tombstoned``
    maps each existing node among ``ids`` to whether it is."""
    for node_id in ids:
        if node_id not in tombstoned:
            raise NotFound("node", node_id, graph)
        if tombstoned[node_id]:
            raise Conflict(f"node {node_id} is tombstoned: it takes no new vectors")


@dataclass(frozen=True, slots=True)
class SpaceMatrix:
    """A space's vectors stacked for brute force, with each row's norm: built once per
    version of the space and reused by every query until the space changes."""

    ids: list[str]
    matrix: NDArray[np.float32]  # one row per id
    norms: NDArray[np.float32]
    positions: dict[str, int]

    @classmethod
    def build(cls, ids: Sequence[str], matrix: NDArray[np.float32]) -> SpaceMatrix:
        import numpy as np

        rows = np.ascontiguousarray(matrix, dtype=np.float32).reshape(len(ids), -1)
        norms = np.linalg.norm(rows, axis=1).astype(np.float32)
        return cls(list(ids), rows, norms, {node_id: i for i, node_id in enumerate(ids)})

    def nearest(
        self,
        query: NDArray[np.float32],
        k: int,
        *,
        among: Sequence[str] | None = None,
        exclude: Collection[str] = (),
    ) -> list[VectorHit]:
        """The ``k`` rows with the highest cosine with ``query``, best first, ties by id,
        among ``among`` (default: all) less ``exclude``; zero rows (and a zero query) are
        similar to nothing."""
        import numpy as np

        query_norm = float(np.linalg.norm(query))
        if k <= 0 or query_norm == 0.0:
            return []
        if among is None:
            rows = np.arange(len(self.ids))
            scores = self.matrix @ (query / query_norm)
        else:
            rows = np.array(sorted({self.positions[i] for i in among if i in self.positions}))
            rows = rows.astype(np.int64)
            scores = np.zeros(len(self.ids), dtype=np.float32)
            scores[rows] = self.matrix[rows] @ (query / query_norm)
        keep = rows[self.norms[rows] > 0]
        if exclude:
            gone = {self.positions[i] for i in exclude if i in self.positions}
            keep = keep[~np.isin(keep, np.fromiter(gone, dtype=np.int64, count=len(gone)))]
        cosines = scores[keep] / self.norms[keep]
        if len(keep) > k:  # the k best, plus any tied with the k-th, before sorting
            kth = -np.partition(-cosines, k - 1)[k - 1]
            chosen = cosines >= kth
            keep, cosines = keep[chosen], cosines[chosen]
        ids = self.ids
        best = sorted(
            zip(cosines.tolist(), keep.tolist(), strict=True), key=lambda c: (-c[0], ids[c[1]])
        )
        return [VectorHit(ids[i], float(c)) for c, i in best[:k]]


def rank(
    ids: Sequence[str], matrix: NDArray[np.float32], query: NDArray[np.float32], k: int
) -> list[VectorHit]:
    """Brute force over rows given once (see ``SpaceMatrix`` to rank one space often)."""
    if not len(ids):
        return []
    return SpaceMatrix.build(ids, matrix).nearest(query, k)


class MatrixCache:
    """The ``SpaceMatrix`` of the last few spaces a store ranked, each valid while its
    space's version (a token every write to the space replaces) stays the same.

    Reading a space's vectors out of storage costs far more than ranking them (with
    SQLite, 20 times more at 50,000 x 384), and spaces change rarely.
    """

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._kept: dict[tuple[str, str], tuple[str, SpaceMatrix]] = {}
        self._lock = threading.Lock()

    def get(
        self, graph: str, space: str, version: str, load: Callable[[], SpaceMatrix]
    ) -> SpaceMatrix:
        with self._lock:
            kept = self._kept.get((graph, space))
        if kept is not None and kept[0] == version:
            return kept[1]
        built = load()
        with self._lock:
            self._kept.pop((graph, space), None)
            while len(self._kept) >= self._size:
                self._kept.pop(next(iter(self._kept)))
            self._kept[(graph, space)] = (version, built)
        return built


def new_version() -> str:
    """A fresh version token for a space that was just written to."""
    return uuid.uuid4().hex


def wanted_ids(ids: list[str] | None, digests: Mapping[str, str] | None) -> list[str] | None:
    """The ids a ``get_vectors`` call reads (``None``: all): ``ids`` without repeats,
    narrowed to ``digests``' keys when digests are given."""
    if digests is not None and not isinstance(digests, Mapping):
        raise InvalidInput("digests", f"{type(digests).__name__} is not a mapping", "id -> text")
    if digests is not None:
        ids = [k for k in digests if isinstance(k, str)] if ids is None else ids
        ids = [i for i in ids if i in digests]
    return None if ids is None else list(dict.fromkeys(ids))


def stored_in_order(
    rows: Iterable[tuple[Any, Any, Any]],
    wanted: list[str] | None,
    digests: Mapping[str, str] | None,
    convert: Callable[[Any], NDArray[np.float32]],
) -> dict[str, NDArray[np.float32]]:
    """``get_vectors``' answer from a backend's rows ``(id, stored vector, digest)``: rows
    whose digest is not the one asked for left out, the rest converted, in ``wanted``'s
    order (by id when all were wanted)."""
    found = {
        str(node_id): convert(vector)
        for node_id, vector, digest in rows
        if digests is None or digest == digests.get(str(node_id))
    }
    order = sorted(found) if wanted is None else [i for i in wanted if i in found]
    return {node_id: found[node_id] for node_id in order}
