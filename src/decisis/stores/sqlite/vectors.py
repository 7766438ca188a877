"""Vectors in SQLite: one float32 BLOB per (graph, space, node), ranked by numpy.

SQLite has no vector type and no vector index, so ``nearest`` ranks by brute force:
the space's blobs are read once into a matrix that the store keeps
(``MatrixCache``) until the space's version changes, and each query only asks
SQLite which nodes to leave out (tombstoned, or not valid at ``as_of``). Blobs are
little-endian float32, ``dim * 4`` bytes, so they come back exactly as they were
put. Vectors are derived data, outside the ledger (see ``decisis.stores.base``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from decisis.model import format_time
from decisis.stores.base import VectorHit, VectorLike
from decisis.stores.sqlite.rows import live, valid_at
from decisis.stores.vectors import (
    MatrixCache,
    SpaceMatrix,
    VectorBatch,
    check_ids,
    check_nodes,
    check_query,
    dim_mismatch,
    new_version,
    stored_in_order,
    wanted_ids,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


__all__ = ["delete", "get", "nearest", "put", "spaces"]

_FLOAT32 = "<f4"  # little-endian float32, as numpy names it

_NODES = """
    SELECT id, tombstoned_at FROM nodes
    WHERE graph = ? AND id IN (SELECT value FROM json_each(?))
"""
_UPSERT = """
    INSERT INTO vectors (graph, space, id, vector, digest) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (graph, space, id) DO UPDATE SET vector = excluded.vector,
                                                 digest = excluded.digest
"""
_LIVE = f"""
    SELECT v.id, v.vector, v.digest FROM vectors v
    JOIN nodes n ON n.graph = v.graph AND n.id = v.id
    WHERE v.graph = :graph AND v.space = :space AND {live("n")}
"""
_AMONG = " AND v.id IN (SELECT value FROM json_each(:ids))"


def _space(conn: sqlite3.Connection, graph: str, space: str) -> tuple[int, str] | None:
    """The space's dimension and version, or None when it has no vectors."""
    row = conn.execute(
        "SELECT dim, version FROM vector_spaces WHERE graph = ? AND space = ?", (graph, space)
    ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def space_dim(conn: sqlite3.Connection, graph: str, space: str) -> int | None:
    found = _space(conn, graph, space)
    return None if found is None else found[0]


def put(conn: sqlite3.Connection, graph: str, space: str, batch: VectorBatch) -> int:
    """Check the batch against storage, then write it (inside the caller's transaction)."""
    if not batch.ids:
        return 0
    dim = space_dim(conn, graph, space)
    if dim is not None and dim != batch.dim:
        raise dim_mismatch(space, dim, batch.dim, batch.ids[0])
    rows = conn.execute(_NODES, (graph, json.dumps(batch.ids))).fetchall()
    check_nodes(graph, batch.ids, {str(i): gone is not None for i, gone in rows})
    conn.execute(
        "INSERT INTO vector_spaces (graph, space, dim, version) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (graph, space) DO UPDATE SET version = excluded.version",
        (graph, space, batch.dim, new_version()),
    )
    blobs = batch.matrix.astype(_FLOAT32, copy=False)
    conn.executemany(
        _UPSERT,
        (
            (graph, space, node_id, blobs[i].tobytes(), batch.digests[i])
            for i, node_id in enumerate(batch.ids)
        ),
    )
    return len(batch.ids)


def _rows(
    conn: sqlite3.Connection,
    graph: str,
    space: str,
    ids: list[str] | None,
) -> list[tuple[str, bytes, str | None]]:
    sql = _LIVE
    params: dict[str, Any] = {"graph": graph, "space": space}
    if ids is not None:
        sql += _AMONG
        params["ids"] = json.dumps(ids)
    return [(str(r[0]), bytes(r[1]), r[2]) for r in conn.execute(sql + " ORDER BY v.id", params)]


def get(
    conn: sqlite3.Connection,
    graph: str,
    space: str,
    ids: Sequence[str] | None,
    digests: Mapping[str, str] | None,
) -> dict[str, NDArray[np.float32]]:
    wanted = wanted_ids(check_ids(ids), digests)
    if wanted is not None and not wanted:
        return {}
    rows = _rows(conn, graph, space, wanted)
    return stored_in_order(rows, wanted, digests, _from_blob)


def digests(
    conn: sqlite3.Connection, graph: str, space: str, ids: list[str] | None
) -> dict[str, str | None]:
    sql = _LIVE.replace("v.id, v.vector, v.digest", "v.id, v.digest", 1)
    params: dict[str, Any] = {"graph": graph, "space": space}
    if ids is not None:
        sql += _AMONG
        params["ids"] = json.dumps(ids)
    return {str(row[0]): row[1] for row in conn.execute(sql, params)}


def _from_blob(blob: bytes) -> NDArray[np.float32]:
    import numpy as np

    return np.frombuffer(blob, dtype=_FLOAT32).astype(np.float32)


def nearest(
    conn: sqlite3.Connection,
    cache: MatrixCache,
    graph: str,
    space: str,
    query: VectorLike,
    k: int,
    ids: Sequence[str] | None,
    as_of: datetime | None,
) -> list[VectorHit]:
    """Run in a read transaction, so the version, the matrix and the exclusions agree."""
    among = check_ids(ids)
    found = _space(conn, graph, space)
    vector = check_query(query, space, None if found is None else found[0])
    if found is None or k == 0 or (among is not None and not among):
        return []
    dim, version = found
    stacked = cache.get(graph, space, version, lambda: _load(conn, graph, space, dim))
    return stacked.nearest(vector, k, among=among, exclude=_left_out(conn, graph, as_of))


def _load(conn: sqlite3.Connection, graph: str, space: str, dim: int) -> SpaceMatrix:
    import numpy as np

    rows = conn.execute(
        "SELECT id, vector FROM vectors WHERE graph = ? AND space = ? ORDER BY id", (graph, space)
    ).fetchall()
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=_FLOAT32).reshape(len(rows), dim)
    return SpaceMatrix.build([str(r[0]) for r in rows], matrix)


def _left_out(conn: sqlite3.Connection, graph: str, as_of: datetime | None) -> set[str]:
    """The graph's nodes that ``nearest`` must not return: tombstoned, or not valid then."""
    sql = "SELECT n.id FROM nodes n WHERE n.graph = :graph AND (NOT " + live("n")
    params: dict[str, Any] = {"graph": graph}
    if as_of is not None:
        sql += " OR NOT " + valid_at("n")
        params["as_of"] = format_time(as_of)
    return {str(row[0]) for row in conn.execute(sql + ")", params)}


def delete(conn: sqlite3.Connection, graph: str, space: str, ids: Sequence[str] | None) -> int:
    among = check_ids(ids)
    conn.execute(
        "UPDATE vector_spaces SET version = ? WHERE graph = ? AND space = ?",
        (new_version(), graph, space),
    )
    if among is None:
        removed = conn.execute(
            "DELETE FROM vectors WHERE graph = ? AND space = ?", (graph, space)
        ).rowcount
        conn.execute("DELETE FROM vector_spaces WHERE graph = ? AND space = ?", (graph, space))
        return int(removed)
    return int(
        conn.execute(
            "DELETE FROM vectors WHERE graph = ? AND space = ?"
            " AND id IN (SELECT value FROM json_each(?))",
            (graph, space, json.dumps(sorted(set(among)))),
        ).rowcount
    )


def spaces(conn: sqlite3.Connection, graph: str) -> dict[str, int]:
    rows = conn.execute(
        "SELECT space, dim FROM vector_spaces WHERE graph = ? ORDER BY space", (graph,)
    ).fetchall()
    return {str(space): int(dim) for space, dim in rows}
