"""Search: ranking records for a question, by words and by meaning.

The package import stays light (no numpy): the embedder registry is plain Python, and
an embedder's implementation is imported only when :func:`get_embedder` builds it.
"""

from decisis.search.embedding import (
    DEFAULT_EMBEDDER,
    EMBEDDERS,
    Embedder,
    EmbedderFactory,
    EmbedderRegistry,
    embedder_names,
    get_embedder,
    register_embedder,
)

__all__ = [
    "DEFAULT_EMBEDDER",
    "EMBEDDERS",
    "Embedder",
    "EmbedderFactory",
    "EmbedderRegistry",
    "embedder_names",
    "get_embedder",
    "register_embedder",
]
