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
