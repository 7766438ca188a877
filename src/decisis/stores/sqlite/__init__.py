"""The SQLite backend: the embedded default, ``sqlite:///path/to/decisis.db``.

Modules: ``schema`` (named migrations), ``writes`` (``append`` and the fold's
rules in SQL), ``queries`` (records, lists, search, ledger), ``walks``
(traversals), ``rows`` (record <-> row mapping), ``store`` (the connection and
the ``Store`` methods).
"""

from decisis.stores.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
