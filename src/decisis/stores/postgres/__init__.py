"""The PostgreSQL backend for teams: ``postgresql://user@host:port/database``.

Needs the ``postgres`` extra (psycopg 3 and psycopg-pool). Modules: ``schema``
(named migrations), ``writes`` (``append`` and the fold's rules in SQL, one lock
per graph), ``queries`` (records, lists, full-text search, ledger), ``walks``
(traversals), ``rows`` (record <-> row mapping), ``store`` (the pool and the
``Store`` methods).
"""

from decisis.errors import MissingExtra

try:
    import psycopg  # noqa: F401
    import psycopg_pool  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("PostgreSQL store", "postgres") from exc

from decisis.stores.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
