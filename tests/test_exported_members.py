"""The public API is deliberate: every public name of the facade modules is exported.

As httpx's ``tests/test_exported_members.py``: the names a user can import from a package
face (``from decisis import X``, and ``from decisis import *``) are exactly those its
``__all__`` declares. Public means not starting with ``_`` (``__version__`` aside), the
names it loads on first use (``_LAZY``, ``_HOMES``) included, and the package's own
submodules left out (they are reached as ``decisis.graph``, not as names of it).
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

import decisis
import decisis.errors
import decisis.model

# Package faces whose every public name is declared: the top level, and the faces of the
# JSON forms and the agent tools.
FACES = ("decisis", "decisis.forms", "decisis.agent")
PUBLIC_DUNDERS = {"__version__"}


def _is_own_module(value: object, package: ModuleType) -> bool:
    return isinstance(value, ModuleType) and value.__name__.startswith(package.__name__ + ".")


def _importable(package: ModuleType) -> set[str]:
    """The public names ``package`` offers now, and those it loads on first use."""
    names = {
        name
        for name, value in vars(package).items()
        if (not name.startswith("_") or name in PUBLIC_DUNDERS)
        and not _is_own_module(value, package)
    }
    for table in ("_LAZY", "_HOMES"):
        names |= set(getattr(package, table, {}))
    return names


def _undeclared(package: ModuleType) -> list[str]:
    """Names importable but not in ``__all__``, and names ``__all__`` has that are not."""
    return sorted(_importable(package) ^ set(package.__all__))


def test_a_planted_public_name_is_found() -> None:
    """The check can fail: a stray import, a new class, a lazy name, a stale entry."""
    face = ModuleType("decisis")
    face.__dict__.update(
        __all__=["Graph", "Gone"],
        __version__="0",
        Graph=object,
        Any=object,  # a ``from typing import Any`` left public
        _private=1,
        _LAZY={"PlanCheck": "decisis.plans"},
        graph=ModuleType("decisis.graph"),  # a submodule: not a name of the face
        json=ModuleType("json"),  # ``import json``: a name of the face
    )
    assert _undeclared(face) == ["Any", "Gone", "PlanCheck", "__version__", "json"]


@pytest.mark.parametrize("name", FACES)
def test_every_importable_name_is_declared(name: str) -> None:
    import decisis.cli.app  # the doors load submodules: their names must not leak
    import decisis.web

    assert decisis.cli.app and decisis.web
    package = importlib.import_module(name)
    assert _undeclared(package) == [], f"{name}: declare these in __all__ or make them private"


@pytest.mark.parametrize("name", FACES)
def test_every_declared_name_resolves(name: str) -> None:
    package = importlib.import_module(name)
    for member in package.__all__:
        assert getattr(package, member) is not None, member
    with pytest.raises(AttributeError, match="no attribute"):
        _ = package.NoSuchName


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
