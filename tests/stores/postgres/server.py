"""The PostgreSQL server the tests use, and throwaway schemas on it.

The URL comes from ``DECISIS_TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``). Each store gets a schema of its
own, named at random and dropped when the store closes, so tests (and parallel
runs) never see each other's rows. No server answering is a test failure, not a
skip: the message says how to point the tests at one.
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import quote

import psycopg
import pytest
from psycopg import sql

from decisis.stores.postgres import PostgresStore

URL_ENV = "DECISIS_TEST_POSTGRES_URL"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


def server_url() -> str:
    return os.environ.get(URL_ENV) or DEFAULT_URL


def admin(url: str | None = None) -> psycopg.Connection[tuple[object, ...]]:
    """An autocommit connection to the test server, or a loud failure saying how to get one."""
    url = url or server_url()
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"The PostgreSQL tests need a server, and none answers at {url}: {exc}\n"
            f"Start one (e.g. `pg_ctlcluster 15 main start`, or initdb --auth=trust + pg_ctl) "
            f"or point the tests at one: {URL_ENV}=postgresql://USER@HOST:PORT/DATABASE",
            pytrace=False,
        )


def new_schema(url: str | None = None) -> str:
    """Create an empty, uniquely named schema on the test server."""
    name = f"decisis_test_{uuid.uuid4().hex[:16]}"
    with admin(url) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    return name


def drop_schema(name: str, url: str | None = None) -> None:
    with admin(url) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def schema_url(name: str, url: str | None = None) -> str:
    """The server URL with ``search_path`` set to ``name``: decisis works inside that schema."""
    url = url or server_url()
    option = quote(f"-csearch_path={name}", safe="")
    return f"{url}{'&' if '?' in url else '?'}options={option}"


class ThrowawayStore(PostgresStore):
    """A ``PostgresStore`` in a fresh schema that is dropped when the store closes."""

    def __init__(self) -> None:
        self.schema = new_schema()
        try:
            super().__init__(schema_url(self.schema))
        except BaseException:
            drop_schema(self.schema)
            raise
        self._dropped = False

    def close(self) -> None:
        super().close()
        if not self._dropped:
            self._dropped = True
            drop_schema(self.schema)
