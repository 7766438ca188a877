"""Precedents by meaning: the graph's own decisions closest to a situation described in words.

Full text finds decisions that share the question's words; people describe a situation in
other words ("where do we keep login state?" for a decision about Redis sessions). So two
rankings vote, fused by reciprocal rank (``decisis.search.fusion``): the store's full-text
search and the cosine of the text's vector with each decision's vector. Without an embedder
(none installed, or its model missing) only full text votes.

Decision vectors are derived data kept in the store (space ``<embedder>:decision``), each
tagged with a digest of the text embedded (label and rationale). A query first embeds, in
batches, the decisions that have no current vector and keeps them, so vectors follow the
decisions as they are recorded without ever slowing or failing a write; a read-only view
(``Graph.at``) computes them and keeps nothing. Correction questions (observations the
ADR learning keeps) are never precedents; ingested ADR records are, unless left out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.errors import DecisisError, InvalidInput
from decisis.model import Node, NodeType
from decisis.search.fusion import fuse
from decisis.stores import Store

__all__ = [
    "DECISION_SPACE",
    "Precedent",
    "is_correction_question",
    "is_ingested_record",
    "precedents",
]

DECISION_SPACE = "decision"
_RECIPE = "label-and-rationale-v1"  # part of every digest: a new recipe makes vectors stale
_BATCH = 256  # decisions embedded per call of the embedder
_FETCH = 4  # each voter ranks this many times k, so fusion has room to reorder
_MAX_K = 100
_MAX_TEXT = 4000
_NO_EMBEDDER: list[bool] = []


@dataclass(frozen=True, slots=True)
class Precedent:
    """A decision found for a situation: its fused score, each voter's rank, the cosine."""

    node: Node
    score: float
    ranks: dict[str, int]  # "fulltext" and/or "vector" -> the rank each gave
    similarity: float | None  # cosine of the text's vector with the decision's, if any


def is_correction_question(node: Node) -> bool:
    """A question a correction stored (``decisis.adr``'s learning), not a decision."""
    return node.metadata.get("kind") == "adr-question"


def is_ingested_record(node: Node) -> bool:
    """A decision read from an ADR file by ``ingest``."""
    return node.metadata.get("kind") == "adr"


def precedents(
    store: Store,
    graph: str,
    text: str,
    *,
    k: int = 5,
    types: Sequence[NodeType | str] | None = None,
    records: bool = True,
    as_of: datetime | None = None,
    embedder: Any | None = None,
) -> list[Precedent]:
    """The ``k`` nodes of ``types`` (default: decisions) closest to ``text``, best first.

    ``records=False`` leaves out decisions ingested from ADRs. ``embedder`` defaults to
    ``decisis.search.embedding.get_embedder()``; ``as_of`` asks the graph as it was then
    (and keeps no vectors)."""
    wanted = _check(text, k, types)
    if embedder is None:
        embedder = _default_embedder()

    def eligible(node: Node) -> bool:
        return (
            node.type in wanted
            and not node.tombstoned
            and not is_correction_question(node)
            and (records or not is_ingested_record(node))
        )

    pool = [n for n in store.nodes(graph, types=sorted(wanted), as_of=as_of) if eligible(n)]
    if not pool:
        return []
    by_id = {n.id: n for n in pool}
    fetch = min(k * _FETCH, len(pool))
    found = store.search(graph, text, limit=fetch + 16, as_of=as_of)
    rankings: dict[str, list[str]] = {
        "fulltext": [hit.node.id for hit in found if hit.node.id in by_id][:fetch]
    }
    cosines: dict[str, float] = {}
    if embedder is not None:
        cosines = _cosines(store, graph, embedder, pool, text, writable=as_of is None)
        ranked = sorted((i for i in cosines if cosines[i] > 0), key=lambda i: (-cosines[i], i))
        rankings["vector"] = ranked[:fetch]
    fused = fuse(rankings, limit=k)
    return [Precedent(by_id[f.doc], f.score, f.votes, cosines.get(f.doc)) for f in fused]


def _check(text: object, k: object, types: Sequence[NodeType | str] | None) -> set[NodeType]:
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text", "is empty", "words describing the situation")
    if len(text) > _MAX_TEXT:
        raise InvalidInput("text", f"is {len(text)} characters long", f"<= {_MAX_TEXT}")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= _MAX_K:
        raise InvalidInput("k", f"{k!r} is not a whole number from 1 to {_MAX_K}", f"1..{_MAX_K}")
    if types is None:
        return {NodeType.DECISION}
    if isinstance(types, str) or not types:
        raise InvalidInput("types", f"{types!r} is not a list of node types", list(NodeType))
    out = set()
    for value in types:
        try:
            out.add(NodeType(value))
        except ValueError:
            raise InvalidInput("types", f"{value!r} is not a node type", list(NodeType)) from None
    return out


def _default_embedder() -> Any | None:
    if _NO_EMBEDDER:
        return None
    try:
        from decisis.search.embedding import get_embedder

        return get_embedder()
    except Exception:  # no numpy, no model file: full text alone votes
        _NO_EMBEDDER.append(True)
        return None


def _embedded_text(node: Node) -> str:
    return f"{node.label}. {node.rationale or ''}".strip()


def _digest(node: Node) -> str:
    text = "\0".join([_RECIPE, node.label, node.rationale or ""])
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def space_of(embedder: Any) -> str:
    """The store space of decision vectors for ``embedder`` (its name names its space)."""
    return f"{getattr(embedder, 'name', type(embedder).__name__)}:{DECISION_SPACE}"


def _cosines(
    store: Store, graph: str, embedder: Any, pool: list[Node], text: str, *, writable: bool
) -> dict[str, float]:
    """The cosine of ``text`` with every node of ``pool``: stored vectors where current,
    the rest embedded in batches (and kept, when ``writable``)."""
    import numpy as np

    space = space_of(embedder)
    digests = {n.id: _digest(n) for n in pool}
    try:
        vectors = store.get_vectors(graph, space, list(digests), digests=digests)
    except DecisisError:
        vectors = {}
    missing = [n for n in pool if n.id not in vectors]
    for start in range(0, len(missing), _BATCH):
        batch = missing[start : start + _BATCH]
        rows = embedder.embed([_embedded_text(n) for n in batch])
        computed = {n.id: rows[i] for i, n in enumerate(batch)}
        vectors.update(computed)
        if writable:
            try:
                store.put_vectors(graph, space, computed, digests={i: digests[i] for i in computed})
            except DecisisError:  # a read-only file, a node just tombstoned: compute again
                writable = False
    query = np.asarray(embedder.embed([text])[0], dtype=np.float32)
    ids = [n.id for n in pool]
    matrix = np.vstack([np.asarray(vectors[i], dtype=np.float32) for i in ids])
    scores = matrix @ query  # embedder vectors are unit length (or zero)
    return {i: float(s) for i, s in zip(ids, scores, strict=True)}
