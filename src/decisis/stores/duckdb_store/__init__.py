"""The DuckDB backend, embedded and analytical: ``duckdb:///path/to/file.duckdb`` or
``duckdb://:memory:``.

Needs the ``duckdb`` extra. Modules: ``schema`` (named migrations), ``writes``
(``append`` and the fold's rules in SQL), ``queries`` (records, lists, search
over an inverted index of words, ledger), ``walks`` (traversals as recursive
CTEs), ``rows`` (record <-> row mapping), ``store`` (the connection and the
``Store`` methods). The package is named ``duckdb_store`` so it can never shadow
the ``duckdb`` library.
"""

from decisis.errors import MissingExtra

try:
    import duckdb  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("DuckDB store", "duckdb") from exc

from decisis.stores.duckdb_store.store import DuckDBStore

__all__ = ["DuckDBStore"]
