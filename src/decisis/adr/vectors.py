"""The vector vote, when ``decisis.search.embedding`` provides an embedder; else no vote.

Record vectors are computed once per view (title and decision text) and kept on it.
Everything else works without vectors: they are one vote among several.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from decisis.adr.view import AdrView

__all__ = ["question_similarities", "similarities"]

_NO_EMBEDDER: list[bool] = []
_QUERY_CACHE = 256
_KEPT: dict[Any, Any] = {}  # (node id, content hash) -> record vector; "embedder" -> its name
_KEPT_LIMIT = 200_000


def _embedder() -> Any | None:
    if _NO_EMBEDDER:
        return None
    try:
        from decisis.search import embedding  # type: ignore[attr-defined,unused-ignore]

        return embedding.get_embedder()
    except Exception:  # no module yet, no model file, no numpy: vectors simply do not vote
        _NO_EMBEDDER.append(True)
        return None


def _record_vectors(embedder: Any, view: AdrView, keys: Sequence[str]) -> Any:
    """One unit vector a record: the mean of its title-and-decision and title-and-body
    vectors (chosen on the development questions: better than either alone).

    A view is rebuilt whenever the ledger moves (every correction), while records rarely
    change: vectors are kept across views by node id and content hash, per embedder.
    """
    import numpy as np

    name = str(getattr(embedder, "name", type(embedder).__name__))
    if _KEPT.get("embedder") != name:
        _KEPT.clear()
        _KEPT["embedder"] = name
    ident = {k: (view.records[k].id, str(view.meta(k).get("content_hash") or "")) for k in keys}
    missing = [k for k in keys if ident[k] not in _KEPT]
    if missing:
        if len(_KEPT) + len(missing) > _KEPT_LIMIT:
            _KEPT.clear()
            _KEPT["embedder"] = name
        short = [f"{view.records[k].label}. {view.records[k].rationale or ''}" for k in missing]
        long = [f"{view.records[k].label}. {view.meta(k).get('text') or ''}" for k in missing]
        matrix = embedder.embed(short) + embedder.embed(long)
        norms = (matrix * matrix).sum(axis=1, keepdims=True) ** 0.5
        norms[norms == 0] = 1.0
        for k, row in zip(missing, matrix / norms, strict=True):
            _KEPT[ident[k]] = row
    return np.stack([_KEPT[ident[k]] for k in keys])


def _query_vector(embedder: Any, view: AdrView, text: str) -> Any:
    cache = view.cache.setdefault("query-vectors", {})
    vector = cache.get(text)
    if vector is None:
        if len(cache) >= _QUERY_CACHE:
            cache.clear()
        vector = cache[text] = embedder.embed([text])[0]
    return vector


def question_similarities(view: AdrView, question: str, ids: Sequence[str]) -> dict[str, float]:
    """Cosine of ``question`` with remembered questions (node ids), when an embedder is
    available (else empty)."""
    embedder = _embedder()
    if embedder is None or not ids:
        return {}
    labels = {n.id: n.label for n in view.questions}
    cache = view.cache.setdefault("question-vectors", {})
    missing = [i for i in ids if i not in cache and i in labels]
    if missing:
        for i, vector in zip(missing, embedder.embed([labels[i] for i in missing]), strict=True):
            cache[i] = vector
    query = _query_vector(embedder, view, question)
    return {i: float(cache[i] @ query) for i in ids if i in cache}


def similarities(
    view: AdrView, question: str, limit: int, also: Sequence[str] = ()
) -> dict[str, float]:
    """The ``limit`` records most similar to ``question``, and those in ``also``, with their
    cosine."""
    embedder = _embedder()
    if embedder is None or not view.records:
        return {}
    keys = list(view.records)
    matrix = view.cache.get("vectors")
    if matrix is None:
        matrix = view.cache["vectors"] = _record_vectors(embedder, view, keys)
    query = _query_vector(embedder, view, question)
    scores = matrix @ query
    best = scores.argsort()[::-1][:limit]
    out = {keys[int(i)]: float(scores[int(i)]) for i in best}
    positions = view.cache.get("vector-positions")
    if positions is None:
        positions = view.cache["vector-positions"] = {k: i for i, k in enumerate(keys)}
    for key in also:
        i = positions.get(key)
        if i is not None:
            out.setdefault(key, float(scores[i]))
    return out
