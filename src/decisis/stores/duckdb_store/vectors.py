"""Vectors in DuckDB: a ``FLOAT[]`` list per (graph, space, node), ranked inside DuckDB.

``nearest`` is one statement: DuckDB's built-in ``list_cosine_similarity`` over the
space's vectors of live nodes (no extension needed). A fixed-size ``FLOAT[n]``
column cannot hold spaces of different dimensions, and casting each list to
``FLOAT[n]`` for ``array_cosine_similarity`` measured twice as slow, so the lists
are ranked as they are stored. A batch travels as registered numpy columns, not
as parameters: 50,000 vectors of 384 values load in about 2 s instead of 90 s.

Vectors are derived data, outside the ledger (see ``decisis.stores.base``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import duckdb
import numpy as np
from numpy.typing import NDArray

from decisis.model import format_time
from decisis.stores.base import VectorHit, VectorLike
from decisis.stores.duckdb_store.rows import valid_at
from decisis.stores.vectors import (
    VectorBatch,
    check_ids,
    check_nodes,
    check_query,
    dim_mismatch,
    stored_in_order,
    wanted_ids,
)

__all__ = ["delete", "get", "nearest", "put", "spaces"]

Conn = duckdb.DuckDBPyConnection

_AMONG = " AND v.id IN (SELECT unnest($ids::VARCHAR[]))"
_LIVE = """
    FROM vectors v JOIN nodes n ON n.graph = v.graph AND n.id = v.id
    WHERE v.graph = $graph AND v.space = $space AND n.tombstoned_at IS NULL
"""
_NEAREST = """
    SELECT id, score FROM (
        SELECT v.id, list_cosine_similarity(v.vector, $query::FLOAT[]) AS score {live}
    ) WHERE NOT isnan(score)
    ORDER BY score DESC, id LIMIT $k
"""


def space_dim(conn: Conn, graph: str, space: str) -> int | None:
    row = conn.execute(
        "SELECT dim FROM vector_spaces WHERE graph = $graph AND space = $space",
        {"graph": graph, "space": space},
    ).fetchone()
    return None if row is None else int(row[0])


def put(conn: Conn, graph: str, space: str, batch: VectorBatch) -> int:
    """Check the batch against storage, then replace the rows (in the caller's transaction)."""
    if not batch.ids:
        return 0
    dim = space_dim(conn, graph, space)
    if dim is not None and dim != batch.dim:
        raise dim_mismatch(space, dim, batch.dim, batch.ids[0])
    params: dict[str, Any] = {"graph": graph, "space": space, "ids": batch.ids}
    rows = conn.execute(
        "SELECT id, tombstoned_at FROM nodes WHERE graph = $graph"
        " AND id IN (SELECT unnest($ids::VARCHAR[]))",
        {"graph": graph, "ids": batch.ids},
    ).fetchall()
    check_nodes(graph, batch.ids, {str(i): gone is not None for i, gone in rows})
    if dim is None:
        conn.execute(
            "INSERT INTO vector_spaces (graph, space, dim) VALUES ($graph, $space, $dim)",
            {"graph": graph, "space": space, "dim": batch.dim},
        )
    conn.execute(
        "DELETE FROM vectors WHERE graph = $graph AND space = $space"
        " AND id IN (SELECT unnest($ids::VARCHAR[]))",
        params,
    )
    _insert(conn, graph, space, batch)
    return len(batch.ids)


def _column(values: Sequence[Any] | NDArray[Any]) -> NDArray[Any]:
    """An object column, so DuckDB reads strings as VARCHAR and arrays as FLOAT[] lists."""
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


def _insert(conn: Conn, graph: str, space: str, batch: VectorBatch) -> None:
    name = f"decisis_vectors_{uuid.uuid4().hex}"  # a private view of the batch's columns
    frame = {
        "id": _column(batch.ids),
        "vector": _column(batch.matrix),
        "digest": _column(batch.digests),
    }
    conn.register(name, frame)
    try:
        conn.execute(
            "INSERT INTO vectors (graph, space, id, vector, digest)"  # name: a uuid, not input
            f" SELECT $graph, $space, id, vector::FLOAT[], digest::VARCHAR FROM {name}",
            {"graph": graph, "space": space},
        )
    finally:
        conn.unregister(name)


def get(
    conn: Conn,
    graph: str,
    space: str,
    ids: Sequence[str] | None,
    digests: Mapping[str, str] | None,
) -> dict[str, NDArray[np.float32]]:
    wanted = wanted_ids(check_ids(ids), digests)
    if wanted is not None and not wanted:
        return {}
    sql = "SELECT v.id, v.vector, v.digest" + _LIVE
    params: dict[str, Any] = {"graph": graph, "space": space}
    if wanted is not None:
        sql += _AMONG
        params["ids"] = wanted
    columns = conn.execute(sql + " ORDER BY v.id", params).fetchnumpy()
    rows = zip(columns["id"], columns["vector"], columns["digest"], strict=True)
    return stored_in_order(rows, wanted, digests, _as_float32)


def digests(conn: Conn, graph: str, space: str, ids: list[str] | None) -> dict[str, str | None]:
    sql = "SELECT v.id, v.digest" + _LIVE
    params: dict[str, Any] = {"graph": graph, "space": space}
    if ids is not None:
        sql += _AMONG
        params["ids"] = ids
    return {str(row[0]): row[1] for row in conn.execute(sql, params).fetchall()}


def _as_float32(vector: Any) -> NDArray[np.float32]:
    return np.asarray(vector, dtype=np.float32)


def nearest(
    conn: Conn,
    graph: str,
    space: str,
    query: VectorLike,
    k: int,
    ids: Sequence[str] | None,
    as_of: datetime | None,
) -> list[VectorHit]:
    among = check_ids(ids)
    dim = space_dim(conn, graph, space)
    vector = check_query(query, space, dim)
    if dim is None or k == 0 or (among is not None and not among) or not vector.any():
        return []
    live = _LIVE
    params: dict[str, Any] = {"graph": graph, "space": space, "query": vector.tolist(), "k": k}
    if among is not None:
        live += _AMONG
        params["ids"] = among
    if as_of is not None:
        live += " AND " + valid_at("n")
        params["as_of"] = format_time(as_of)
    rows = conn.execute(_NEAREST.format(live=live), params).fetchall()
    return [VectorHit(str(node_id), float(score)) for node_id, score in rows]


def delete(conn: Conn, graph: str, space: str, ids: Sequence[str] | None) -> int:
    among = check_ids(ids)
    params: dict[str, Any] = {"graph": graph, "space": space}
    sql = "DELETE FROM vectors WHERE graph = $graph AND space = $space"
    if among is not None:
        sql += " AND id IN (SELECT unnest($ids::VARCHAR[]))"
        params["ids"] = among
    row = conn.execute(sql, params).fetchone()
    if among is None:
        conn.execute(
            "DELETE FROM vector_spaces WHERE graph = $graph AND space = $space",
            {"graph": graph, "space": space},
        )
    return int(row[0]) if row is not None else 0


def spaces(conn: Conn, graph: str) -> dict[str, int]:
    rows = conn.execute(
        "SELECT space, dim FROM vector_spaces WHERE graph = $graph ORDER BY space",
        {"graph": graph},
    ).fetchall()
    return {str(space): int(dim) for space, dim in rows}
