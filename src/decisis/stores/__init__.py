"""Layer 2: storage backends behind one ``Store`` protocol, chosen by URL.

``open_store("sqlite:///path.db")``, ``"memory://"``; later ``"postgresql://…"`` and
``"duckdb:///path"``. Backends register an opener for their URL scheme with
``register_backend``; the built-ins are registered the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from decisis.errors import UnsupportedStore
from decisis.stores.base import DEFAULT_MAX_DEPTH, Direction, Reached, SearchHit, Store

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "Direction",
    "Reached",
    "SearchHit",
    "Store",
    "open_store",
    "register_backend",
]

Opener = Callable[[str], Store]
_BACKENDS: dict[str, Opener] = {}


def register_backend(scheme: str, opener: Opener) -> None:
    """Make ``open_store`` hand URLs starting with ``scheme://`` to ``opener``."""
    _BACKENDS[scheme] = opener


def _open_memory(url: str) -> Store:
    from decisis.stores.memory import MemoryStore

    return MemoryStore(url)


def _open_sqlite(url: str) -> Store:
    from decisis.stores.sqlite import SQLiteStore

    return SQLiteStore.from_url(url)


def _open_postgres(url: str) -> Store:
    from decisis.stores.postgres import PostgresStore  # MissingExtra without psycopg

    return PostgresStore.from_url(url)


def _open_duckdb(url: str) -> Store:
    from decisis.stores.duckdb_store import DuckDBStore  # MissingExtra without duckdb

    return DuckDBStore.from_url(url)


register_backend("memory", _open_memory)
register_backend("sqlite", _open_sqlite)
register_backend("postgresql", _open_postgres)
register_backend("duckdb", _open_duckdb)


def open_store(url: str) -> Store:
    """Open the store a URL names; the scheme picks the backend."""
    scheme, sep, _ = url.partition("://")
    if not sep or scheme not in _BACKENDS:
        raise UnsupportedStore(
            f"cannot open store {url!r}: use one of "
            + ", ".join(f"{s}://" for s in sorted(_BACKENDS))
            + " (e.g. sqlite:///path/to/decisis.db or memory://)"
        )
    return _BACKENDS[scheme](url)
