"""A no-model embedder: hashed words and character n-grams, for when no table can be loaded.

It knows no meaning, only spelling: "deploy", "deploying" and "deployment" share
n-grams and land near each other, "cluster" and "Kubernetes" do not. It exists so that
code paths built on vectors still run where the shipped model cannot be used (a
stripped-down install, a test that wants no data files), and as the floor the
other embedders are measured against.

Each distinct word (lower-cased, accents and punctuation split off as for BERT, a few
function words dropped) adds its own feature (weight 1) and its character 3- to
5-grams with boundary marks (each ``1/sqrt(n)`` for ``n`` grams, so together they weigh
as much as the word), times ``1 + ln(count)``.
Features are hashed with CRC-32 (stable across processes, unlike ``hash()``) into
``dim`` signed buckets, then the vector is L2-normalised.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from decisis.errors import InvalidInput
from decisis.search.embed_wordpiece import basic_tokenize

__all__ = ["HashingEmbedder"]

_RECIPE = "v1"
_NGRAMS = (3, 4, 5)
_CACHE_LIMIT = 100_000
_STOP_WORDS = (
    "a an and are as at be but by can do does for from had has have how i if in into is "
    "it its of on or our should so than that the their then there these they this to was "
    "we were what when where which who why will with would you your"
)
_STOP = frozenset(_STOP_WORDS.split())


class HashingEmbedder:
    """Signed feature hashing of words and character n-grams; no model, no data files."""

    def __init__(self, dim: int = 512):
        if not isinstance(dim, int) or dim < 16:
            raise InvalidInput("dim", f"{dim!r} is too small", "an integer >= 16")
        self._dim = dim
        self._cache: dict[str, tuple[NDArray[np.int64], NDArray[np.float32]]] = {}

    @property
    def name(self) -> str:
        """``hashing:<dim>:<recipe>``: the recipe version changes if the features do."""
        return f"hashing:{self._dim}:{_RECIPE}"

    @property
    def dim(self) -> int:
        """Number of hash buckets."""
        return self._dim

    def _features(self, word: str) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        marked = f"<{word}>"
        grams = [marked[i : i + n] for n in _NGRAMS for i in range(len(marked) - n + 1)]
        keys = [f"w:{word}", *grams]
        # The n-grams together weigh as much (in L2) as the word itself.
        weights = [1.0] + [1.0 / math.sqrt(len(grams))] * len(grams) if grams else [1.0]
        hashes = [zlib.crc32(k.encode("utf-8")) for k in keys]
        index = np.array([h % self._dim for h in hashes], dtype=np.int64)
        signed = [w if h >> 31 else -w for h, w in zip(hashes, weights, strict=True)]
        value = np.array(signed, dtype=np.float32)
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[word] = (index, value)
        return index, value

    def _vector(self, text: str) -> NDArray[np.float32]:
        counts = Counter(
            w for w in basic_tokenize(text) if w not in _STOP and any(c.isalnum() for c in w)
        )
        if not counts:
            return np.zeros(self._dim, dtype=np.float32)
        parts = [self._features(w) for w in counts]
        tf = [1.0 + math.log(c) for c in counts.values()]
        index = np.concatenate([p[0] for p in parts])
        value = np.concatenate([p[1] * t for p, t in zip(parts, tf, strict=True)])
        return np.bincount(index, weights=value, minlength=self._dim).astype(np.float32)

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One unit row per text (zero for a text with no words)."""
        if isinstance(texts, str):
            raise InvalidInput("texts", "expected a sequence of strings, got one string")
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._vector(text)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out
