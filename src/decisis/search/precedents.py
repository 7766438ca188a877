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
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.errors import DecisisError, InvalidInput
from decisis.model import Node, NodeType
from decisis.search.fusion import fuse
from decisis.stores import Store
from decisis.stores.base import VectorHit

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
        vote = _VectorVote(store, graph, embedder, as_of)
        cosines = vote.rank(pool, text, fetch)
        ranked = sorted((i for i in cosines if cosines[i] > 0), key=lambda i: (-cosines[i], i))
        rankings["vector"] = ranked[:fetch]
    fused = fuse(rankings, limit=k)
    if embedder is not None:
        cosines.update(vote.cosines([f.doc for f in fused if f.doc not in cosines]))
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


class _VectorVote:
    """The vector voter: decision vectors kept current in the store, ranked by the store.

    Only digests are read to find the vectors to embed again (a decision new or changed
    since); the ranking is the store's ``nearest`` over the pool, so a query reads no
    vector it does not rank. Vectors that cannot be kept (a past view, a read-only file)
    are held here and scored beside the store's."""

    def __init__(self, store: Store, graph: str, embedder: Any, as_of: datetime | None) -> None:
        self.store, self.graph, self.embedder, self.as_of = store, graph, embedder, as_of
        self.space = space_of(embedder)
        self.held: dict[str, Any] = {}  # id -> vector computed now and not stored
        self.query: Any = None

    def rank(self, pool: list[Node], text: str, fetch: int) -> dict[str, float]:
        """The cosine of ``text`` with the ``fetch`` closest of ``pool`` (and with any vector
        computed now and not stored)."""
        import numpy as np

        self._refresh(pool)
        self.query = np.asarray(self.embedder.embed([text])[0], dtype=np.float32)
        stored = [n.id for n in pool if n.id not in self.held]
        hits: list[VectorHit] = []
        if stored:
            hits = self.store.nearest(
                self.graph, self.space, self.query, fetch, ids=stored, as_of=self.as_of
            )
        cosines = {hit.id: float(hit.score) for hit in hits}
        cosines.update(self.cosines(list(self.held)))
        return cosines

    def cosines(self, ids: list[str]) -> dict[str, float]:
        """The cosine of the query with each of ``ids`` that has a vector (after ``rank``)."""
        import numpy as np

        if not ids or self.query is None:
            return {}
        vectors = {i: self.held[i] for i in ids if i in self.held}
        rest = [i for i in ids if i not in vectors]
        if rest:
            with suppress(DecisisError):  # the space gone meanwhile: no cosine to show
                vectors.update(self.store.get_vectors(self.graph, self.space, rest))
        norm = float(np.linalg.norm(self.query))
        out = {}
        for node_id, vector in vectors.items():
            row = np.asarray(vector, dtype=np.float32)
            scale = norm * float(np.linalg.norm(row))
            out[node_id] = float(row @ self.query) / scale if scale else 0.0
        return out

    def _refresh(self, pool: list[Node]) -> None:
        """Embed, in batches, the decisions whose stored vector is missing or stale; keep
        them in the store when it can (a live graph), else hold them."""
        digests = {n.id: _digest(n) for n in pool}
        try:
            # The pool is most of the space: reading the space whole beats naming every id.
            have = self.store.vector_digests(self.graph, self.space)
        except DecisisError:
            have = {}
        missing = [n for n in pool if have.get(n.id) != digests[n.id]]
        writable = self.as_of is None
        for start in range(0, len(missing), _BATCH):
            batch = missing[start : start + _BATCH]
            rows = self.embedder.embed([_embedded_text(n) for n in batch])
            computed = {n.id: rows[i] for i, n in enumerate(batch)}
            if writable:
                try:
                    kept = {i: digests[i] for i in computed}
                    self.store.put_vectors(self.graph, self.space, computed, digests=kept)
                    continue
                except DecisisError:  # a read-only file, a node just tombstoned: hold them
                    writable = False
            self.held.update(computed)
