"""Full-text rank from the store: bm25 over FTS5 on SQLite, word overlap in memory.

A thin seam so that callers rank by the store's own index without knowing which
backend answers; a store that has no index of its own gives an empty list.
"""

from __future__ import annotations

from decisis.graph import Graph
from decisis.search.text import terms, words

__all__ = ["fulltext_rank"]


def fulltext_rank(graph: Graph, question: str, limit: int = 20) -> list[str]:
    """Node ids best first for the content words of ``question`` (stop words left out)."""
    content = [w for w in words(question) if terms(w)]
    if not content:
        return []
    return [hit.node.id for hit in graph.search(" ".join(content), limit=limit)]
