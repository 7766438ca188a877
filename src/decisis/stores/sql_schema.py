"""Schema migrations run the same way on every SQL backend, and the tables they share.

A backend lists its ``Migration`` steps and says how it reads the recorded version and
holds one transaction; ``Migrator`` applies each missing step in one transaction with the
``schema_migrations`` row that records it, unless another process did first, and refuses
a database newer than the code (guessing at a schema we do not know could corrupt it).
``ColumnTypes`` spells the Merkle, checkpoint and derived tables, which are the same on
every backend but for their column types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Generic, TypeVar

from decisis.errors import StoreError
from decisis.model import utc_now
from decisis.stores.dbapi_writes import Connection
from decisis.stores.sql_dialect import SqlDialect

__all__ = ["ColumnTypes", "Migration", "Migrator"]

C = TypeVar("C", bound=Connection)


@dataclass(frozen=True)
class Migration(Generic[C]):
    """One named step: its statements, then an optional data step on the connection."""

    version: int
    name: str
    statements: tuple[str, ...]
    then: Callable[[C], None] | None = None


@dataclass(frozen=True)
class Migrator(Generic[C]):
    """A backend's ``steps`` (by version), its ``record_table`` DDL, ``version_of`` (the
    highest recorded version, 0 for a new database) and ``transact`` (run the work in one
    transaction: committed when it returns, rolled back when it raises)."""

    steps: Sequence[Migration[C]]
    record_table: str
    dialect: SqlDialect
    version_of: Callable[[C], int]
    transact: Callable[[C, Callable[[C], None]], None]

    @property
    def newest(self) -> int:
        return self.steps[-1].version

    def migrate(self, conn: C, *, upto: int | None = None, where: str = "database") -> int:
        """Bring the schema up to ``upto`` (default: the newest); return the version reached.

        A database newer than this code is refused with ``StoreError``: guessing at a
        schema we do not know could corrupt it.
        """
        target = self.newest if upto is None else upto
        current = self.version_of(conn)
        self._refuse_newer(current, where)
        for step in self.steps:
            if current < step.version <= target:
                self.transact(conn, partial(self._apply, step=step, where=where))
        reached = self.version_of(conn)
        self._refuse_newer(reached, where)
        return reached

    def _apply(self, conn: C, *, step: Migration[C], where: str) -> None:
        conn.execute(self.record_table)
        current = self.version_of(conn)
        self._refuse_newer(current, where)
        if current >= step.version:  # another process applied it first
            return
        for statement in step.statements:
            conn.execute(statement)  # constants of the backend's schema, never user input
        if step.then is not None:
            step.then(conn)
        p = self.dialect.positional
        conn.execute(
            f"INSERT INTO schema_migrations (version, name, applied_at) VALUES ({p}, {p}, {p})",
            (step.version, step.name, self.dialect.time_value(utc_now())),
        )

    def _refuse_newer(self, version: int, where: str) -> None:
        if version > self.newest:
            raise StoreError(
                f"{where} has schema version {version}, newer than this decisis knows "
                f"({self.newest}); upgrade decisis to open it"
            )


@dataclass(frozen=True)
class ColumnTypes:
    """A backend's column types for the shared tables: ``key`` for names and ids (sorted by
    code point), ``text`` for other text, ``small`` and ``big`` integers, ``blob`` bytes,
    and ``clustered``, what follows a table stored in its primary key's order."""

    key: str
    text: str
    small: str
    big: str
    blob: str
    clustered: str = ""

    def merkle(self) -> tuple[str, ...]:
        """The Merkle tree over the ledger and the checkpoints signed of it
        (``decisis.stores.merkle``): derived data beside the ledger, not in it."""
        k = self.key
        return (
            f"""CREATE TABLE merkle_nodes (
        graph {k} NOT NULL,
        level {self.small} NOT NULL,
        idx {self.big} NOT NULL,
        hash {self.blob} NOT NULL,
        PRIMARY KEY (graph, level, idx)
    ){self.clustered}""",
            f"""CREATE TABLE merkle_heads (
        graph {k} PRIMARY KEY,
        size {self.big} NOT NULL,
        frontier {self.blob} NOT NULL
    )""",
            f"""CREATE TABLE checkpoints (
        graph {k} NOT NULL,
        size {self.big} NOT NULL,
        signed_at {k} NOT NULL,
        key_id {k} NOT NULL,
        document {k} NOT NULL,
        PRIMARY KEY (graph, size, signed_at, key_id)
    )""",
        )

    def derived(self) -> tuple[str, ...]:
        """What readers derive from the records and keep between processes
        (``decisis.stores.derived``): per graph, space and item, a body and the digest of
        what it was made from. Not in the ledger."""
        k = self.key
        return (
            f"""CREATE TABLE derived (
        graph {k} NOT NULL,
        space {k} NOT NULL,
        item {k} NOT NULL,
        digest {k} NOT NULL,
        body {self.text} NOT NULL,
        PRIMARY KEY (graph, space, item)
    ){self.clustered}""",
        )
