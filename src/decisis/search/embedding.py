"""Embedders: texts to unit vectors, so a question can find a record written in other words.

Full-text rank finds records that share the question's words; engineers often ask in
words the record never uses ("container orchestration" for a record about Kubernetes).
An :class:`Embedder` maps texts into a vector space where such texts land close together.

Embedders are found by name in a registry, and the built-ins are registered the same
way a plugin would register its own::

    register_embedder("my-model", lambda **options: MyEmbedder(**options))
    embedder = get_embedder("my-model")      # or get_embedder() for the default

Built-ins:

- ``static-minilm`` (the default): a static embedding table distilled from
  all-MiniLM-L6-v2, shipped in the package, run with numpy; offline, no torch.
- ``hashing``: character n-gram hashing; no model at all, only for when nothing else fits.
- ``sentence-transformers``: the full transformer, through the ``embeddings`` extra.

This module imports nothing heavy: an implementation is imported when it is first asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from decisis.errors import InvalidInput

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

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

DEFAULT_EMBEDDER = "static-minilm"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of one fixed dimension.

    ``name`` identifies the vector space, not just the implementation (for example
    ``static-minilm:3f9c0a1b2c4d``): vectors are comparable only when their embedders'
    names are equal, so a store should keep the name beside the vectors it saves and
    re-embed when it changes. A text with nothing the embedder knows (empty, or only
    unknown symbols) gets the zero vector, which is similar to nothing.
    """

    @property
    def name(self) -> str:
        """The vector space these vectors live in."""
        ...

    @property
    def dim(self) -> int:
        """The length of every vector."""
        ...

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One row per text, shape ``(len(texts), dim)``, each of norm 1 (or all zero)."""
        ...


EmbedderFactory = Callable[..., Embedder]
"""Builds an embedder from keyword options; called by :func:`get_embedder`."""


class EmbedderRegistry:
    """Names to factories. The module-level functions use one shared instance."""

    def __init__(self) -> None:
        self._factories: dict[str, EmbedderFactory] = {}

    def register(self, name: str, factory: EmbedderFactory, *, replace: bool = False) -> None:
        """Make ``factory`` available as ``get(name)``; a taken name needs ``replace=True``."""
        if not name or name != name.strip():
            raise InvalidInput("embedder", f"name {name!r} must be non-empty, without outer spaces")
        if name in self._factories and not replace:
            raise InvalidInput(
                "embedder", f"{name!r} is already registered; pass replace=True to override it"
            )
        self._factories[name] = factory

    def names(self) -> list[str]:
        """The registered names, sorted."""
        return sorted(self._factories)

    def get(self, name: str | None = None, **options: Any) -> Embedder:
        """Build the embedder registered as ``name`` (default :data:`DEFAULT_EMBEDDER`)."""
        chosen = DEFAULT_EMBEDDER if name is None else name
        factory = self._factories.get(chosen)
        if factory is None:
            raise InvalidInput("embedder", f"unknown embedder {chosen!r}", allowed=self.names())
        return factory(**options)


EMBEDDERS = EmbedderRegistry()
"""The registry that :func:`get_embedder` reads and plugins register into."""


def register_embedder(name: str, factory: EmbedderFactory, *, replace: bool = False) -> None:
    """Make ``factory`` available as ``get_embedder(name)``.

    Registering a taken name is refused unless ``replace`` is true, so two plugins
    cannot silently shadow each other.
    """
    EMBEDDERS.register(name, factory, replace=replace)


def embedder_names() -> list[str]:
    """The registered names, sorted."""
    return EMBEDDERS.names()


def get_embedder(name: str | None = None, **options: Any) -> Embedder:
    """The embedder registered as ``name`` (default: :data:`DEFAULT_EMBEDDER`), given ``options``.

    Raises :class:`~decisis.errors.InvalidInput` for an unknown name and
    :class:`~decisis.errors.MissingExtra` when the embedder needs an extra that is not installed.
    The default is loaded once per process; later calls return the same object.
    """
    return EMBEDDERS.get(name, **options)


# The built-ins, registered like any plugin; each imports its module only when asked for.


def _static_minilm(**options: Any) -> Embedder:
    from decisis.search.embed_static import load_static_embedder

    return load_static_embedder(**options)


def _hashing(**options: Any) -> Embedder:
    from decisis.search.embed_hashing import HashingEmbedder

    return HashingEmbedder(**options)


def _sentence_transformers(**options: Any) -> Embedder:
    from decisis.search.embed_st import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(**options)


register_embedder(DEFAULT_EMBEDDER, _static_minilm)
register_embedder("hashing", _hashing)
register_embedder("sentence-transformers", _sentence_transformers)
