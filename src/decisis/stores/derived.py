"""Derived data kept beside a graph: what readers work out from the records, kept so that
a new process need not work it out again.

A body is text (JSON, as the reader chooses) in a *space* (the reader's name and its
engine version, so an engine that counts differently never reads another's bodies), one
per *item* (a record's id, say), tagged with the digest of what it was made from. A reader
asks with the digests it expects and reads a stale body as missing, then puts the ones it
made again. Like vectors, derived data is not in the ledger: ``verify``, replay, ``at(t)``
and export neither cover nor carry it, and anything can make it again from the records.

``SqlDerived`` is the table ``derived (graph, space, item, digest, body)`` through one SQL
dialect (SQLite, PostgreSQL and DuckDB share it); ``check_items`` is every backend's
argument check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from decisis.errors import InvalidInput

__all__ = ["DerivedItems", "SqlDerived", "check_items", "check_names", "pick"]

DerivedItems = Mapping[str, tuple[str, str]]
"""Bodies to keep: item -> (digest of what it was made from, body)."""

_CHUNK = 500  # items per ``IN (...)``: under every backend's parameter limit


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(what, f"{type(value).__name__} is not text", "strings")
    if "\x00" in value:
        raise InvalidInput(what, "holds a NUL character", "text without NUL")
    return value


def check_names(space: object, items: Sequence[str] | None = None) -> list[str] | None:
    """The space as a non-empty string and ``items`` as a list of strings (or ``None``),
    else ``InvalidInput`` naming what was wrong."""
    if not _text(space, "space"):
        raise InvalidInput("space", "is empty", "a non-empty name")
    if items is None:
        return None
    if isinstance(items, str):
        raise InvalidInput("items", "is one string", "a sequence of item names")
    return [_text(item, "item") for item in items]


def check_items(space: object, items: object) -> list[tuple[str, str, str]]:
    """``(item, digest, body)`` rows of ``items``, each checked, before anything is written."""
    check_names(space)
    if not isinstance(items, Mapping):
        raise InvalidInput(
            "items", f"{type(items).__name__} is not a mapping", "item -> (digest, body)"
        )
    rows = []
    for item, value in items.items():
        if not (isinstance(value, tuple) and len(value) == 2):
            raise InvalidInput(f"items[{item!r}]", "is not a pair", "(digest, body) strings")
        name = _text(item, "item")
        if not name:
            raise InvalidInput("item", "is empty", "a non-empty name")
        rows.append((name, _text(value[0], "digest"), _text(value[1], "body")))
    return rows


def pick(
    found: Mapping[str, tuple[str, str]],
    items: Sequence[str] | None,
    digests: Mapping[str, str] | None,
) -> dict[str, str]:
    """The bodies of ``found`` (item -> (digest, body)) asked for: ``items`` (default all),
    and with ``digests`` only the items in it whose body was put with that digest."""
    wanted: Any = found if items is None else items
    if digests is not None:
        wanted = [i for i in (digests if items is None else items) if i in digests]
    out = {}
    for item in wanted:
        row = found.get(item)
        if row is not None and (digests is None or digests.get(item) == row[0]):
            out[item] = row[1]
    return out


@dataclass(frozen=True)
class SqlDerived:
    """The ``derived`` table through one SQL dialect: ``p`` is its placeholder."""

    p: str = "?"

    def put(self, conn: Any, graph: str, space: str, rows: list[tuple[str, str, str]]) -> int:
        p = self.p
        sql = (
            "INSERT INTO derived (graph, space, item, digest, body) "
            f"VALUES ({p}, {p}, {p}, {p}, {p}) "
            "ON CONFLICT (graph, space, item) DO UPDATE SET digest = excluded.digest, "
            "body = excluded.body"
        )
        many = getattr(conn, "executemany", None)
        if many is None:  # psycopg: a cursor's, in the connection's transaction
            many = conn.cursor().executemany
        if rows:
            many(sql, [(graph, space, *row) for row in rows])
        return len(rows)

    def get(
        self, conn: Any, graph: str, space: str, items: list[str] | None
    ) -> dict[str, tuple[str, str]]:
        p = self.p
        base = f"SELECT item, digest, body FROM derived WHERE graph = {p} AND space = {p}"
        if items is None:
            rows = conn.execute(base, (graph, space)).fetchall()
        else:
            rows = []
            unique = list(dict.fromkeys(items))
            for start in range(0, len(unique), _CHUNK):
                chunk = unique[start : start + _CHUNK]
                marks = ", ".join([p] * len(chunk))
                found = conn.execute(f"{base} AND item IN ({marks})", (graph, space, *chunk))
                rows += found.fetchall()
        return {str(item): (str(digest), str(body)) for item, digest, body in rows}

    def delete(self, conn: Any, graph: str, space: str, items: list[str] | None) -> int:
        p = self.p
        where = f"WHERE graph = {p} AND space = {p}"
        if items is None:
            (count,) = conn.execute(
                f"SELECT COUNT(*) FROM derived {where}", (graph, space)
            ).fetchone()
            conn.execute(f"DELETE FROM derived {where}", (graph, space))
            return int(count)
        gone = 0
        unique = list(dict.fromkeys(items))
        for start in range(0, len(unique), _CHUNK):
            chunk = unique[start : start + _CHUNK]
            marks = ", ".join([p] * len(chunk))
            params = (graph, space, *chunk)
            (count,) = conn.execute(
                f"SELECT COUNT(*) FROM derived {where} AND item IN ({marks})", params
            ).fetchone()
            conn.execute(f"DELETE FROM derived {where} AND item IN ({marks})", params)
            gone += int(count)
        return gone

    def spaces(self, conn: Any, graph: str) -> dict[str, int]:
        rows = conn.execute(
            f"SELECT space, COUNT(*) FROM derived WHERE graph = {self.p} GROUP BY space",
            (graph,),
        ).fetchall()
        return {str(space): int(n) for space, n in sorted(rows)}
