"""The public API is deliberate: every public name of the facade modules is exported."""

from __future__ import annotations

import decisis
import decisis.errors
import decisis.model


def test_all_is_sorted_and_resolves() -> None:
    assert decisis.__all__ == sorted(decisis.__all__)
    for name in decisis.__all__:
        assert hasattr(decisis, name), name


def test_every_error_and_model_type_is_exported() -> None:
    for module in (decisis.errors, decisis.model):
        for name in module.__all__:
            if name[0].isupper() and not name.isupper():
                assert name in decisis.__all__ or name in {"EventDraft"}, (
                    f"{module.__name__}.{name} is public but not exported from decisis"
                )


def test_errors_share_one_base() -> None:
    for name in decisis.errors.__all__:
        value = getattr(decisis.errors, name)
        if isinstance(value, type):
            assert issubclass(value, decisis.DecisisError), name
    assert issubclass(decisis.InvalidInput, ValueError)
    assert issubclass(decisis.NotFound, LookupError)


def test_the_facade_offers_the_names_the_front_doors_import() -> None:
    """``decisis.graph`` re-exports what the doors print and open (``tests/test_imports.py``
    keeps them out of ``decisis.stores``); ``VerifyReport`` loads on first use."""
    import decisis.graph
    import decisis.stores
    import decisis.stores.replay

    for name in decisis.graph.__all__:
        assert hasattr(decisis.graph, name), name
    for name in ("DEFAULT_MAX_DEPTH", "Reached", "SearchHit", "Store", "open_store"):
        assert getattr(decisis.graph, name) is getattr(decisis.stores, name)
    assert decisis.graph.VerifyReport is decisis.stores.replay.VerifyReport
    assert decisis.VerifyReport is decisis.stores.replay.VerifyReport
