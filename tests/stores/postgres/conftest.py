"""Fixtures for the PostgreSQL-only tests: a throwaway schema, its URL, a store on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from decisis.stores.postgres import PostgresStore
from tests.stores.postgres.server import drop_schema, new_schema, schema_url


@pytest.fixture
def schema() -> Iterator[str]:
    name = new_schema()
    try:
        yield name
    finally:
        drop_schema(name)


@pytest.fixture
def pg_url(schema: str) -> str:
    return schema_url(schema)


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_url)
    try:
        yield store
    finally:
        store.close()
