"""The vector vote, when ``decisis.search.embedding`` provides an embedder; else no vote.

Record vectors are computed once per view (title and decision text) and kept on it.
Everything else works without vectors: they are one vote among several.
"""

from __future__ import annotations

from typing import Any

from decisis.adr.view import AdrView

__all__ = ["similarities"]

_NO_EMBEDDER: list[bool] = []


def _embedder() -> Any | None:
    if _NO_EMBEDDER:
        return None
    try:
        from decisis.search import embedding  # type: ignore[attr-defined,unused-ignore]

        return embedding.get_embedder()
    except Exception:  # no module yet, no model file, no numpy: vectors simply do not vote
        _NO_EMBEDDER.append(True)
        return None


def similarities(view: AdrView, question: str, limit: int) -> dict[str, float]:
    """The ``limit`` records most similar to ``question``, with their cosine."""
    embedder = _embedder()
    if embedder is None or not view.records:
        return {}
    keys = list(view.records)
    matrix = view.cache.get("vectors")
    if matrix is None:
        texts = [f"{view.records[k].label}. {view.meta(k).get('summary') or ''}" for k in keys]
        matrix = view.cache["vectors"] = embedder.embed(texts)
    query = embedder.embed([question])[0]
    scores = matrix @ query
    best = scores.argsort()[::-1][:limit]
    return {keys[int(i)]: float(scores[int(i)]) for i in best}
