"""``SqlDialect``: how one SQL backend spells what the shared SQL modules write once.

SQLite, DuckDB and PostgreSQL read the same tables with the same statements but for a few
spellings: the form of a named parameter (``:name``, ``$name``, ``%(name)s``), how a list of
values is tested for membership (a JSON parameter read with ``json_each``, a ``VARCHAR[]``,
a ``text[]``), what a time travels as (canonical text, or a ``datetime`` for
``timestamptz``), how the ledger's ``at`` column is named, and a few planner hints. The
shared modules (``sql_reads`` first) write their statements with ``:name`` parameters and
ask the dialect for the rest, so each backend keeps only its own ``SqlDialect`` value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.model import Edge, Event, Node

__all__ = [
    "MAX_SEARCH_TERMS",
    "SqlDialect",
    "json_list",
    "live",
    "search_terms",
    "value_list",
    "words",
]

MAX_SEARCH_TERMS = 32
# A word is a run of letters and digits, lower-cased: the words every backend searches for.
_WORD = re.compile(r"[^\W_]+")
# ``:name`` but not the second colon of a ``::type`` cast.
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def words(text: str) -> list[str]:
    """The words of ``text``, lower-cased, in order: what every backend's search indexes."""
    return _WORD.findall(text.lower())


def search_terms(text: str) -> list[str]:
    """The distinct words of ``text`` in order of appearance, at most ``MAX_SEARCH_TERMS``:
    the same words on every backend."""
    return list(dict.fromkeys(words(text)))[:MAX_SEARCH_TERMS]


def value_list(values: Sequence[Any]) -> list[str]:
    """Enum members (or strings) as their string values: a list parameter."""
    return [str(getattr(v, "value", v)) for v in values]


def json_list(values: Sequence[Any]) -> str:
    """``value_list`` as one JSON text, for SQLite's ``json_each``."""
    return json.dumps(value_list(values))


@dataclass(frozen=True)
class SqlDialect:
    """One backend's spellings (see the module docstring).

    ``positional`` is a positional parameter (``?``, ``%s``); ``param_form`` makes a named
    parameter from its name (``"${}"``); ``member_form`` tests
    ``{column}`` against the list parameter ``{param}`` (already in ``param_form``), whose
    value ``list_value`` makes; ``time_value`` turns an aware ``datetime`` into what a time
    column compares with. ``event_columns`` selects a ledger row for ``event_from_row``,
    ``at`` names its time column. The edge-list hints: ``one_direction_per_query`` lists a
    node's edges both ways as two one-direction statements, ``endpoint_order`` orders a
    node's edges (SQLite's ``+e.id`` keeps the planner on the endpoint index), and
    ``joins_only_to_filter`` joins the endpoint nodes only when a filter reads them.
    """

    positional: str
    param_form: str
    member_form: str
    list_value: Callable[[Sequence[Any]], object]
    time_value: Callable[[datetime], object]
    node_from_row: Callable[[Sequence[Any]], Node]
    edge_from_row: Callable[[Sequence[Any]], Edge]
    event_from_row: Callable[[Sequence[Any]], Event]
    event_columns: str
    at: str = "at"
    one_direction_per_query: bool = False
    endpoint_order: str = "e.id"
    joins_only_to_filter: bool = False

    def param(self, name: str) -> str:
        """The parameter ``name`` as this dialect writes it."""
        return self.param_form.format(name)

    def sql(self, text: str) -> str:
        """``text`` with each ``:name`` parameter in this dialect's form."""
        return _NAMED.sub(lambda m: self.param(m.group(1)), text)

    def member(self, column: str, param: str) -> str:
        """SQL true when ``column`` is one of the list parameter ``param``."""
        return self.member_form.format(column=column, param=self.param(param))

    def valid_at(self, alias: str, param: str = "as_of") -> str:
        """SQL for ``Node.valid_at``: known by then, and holding in the world then."""
        a, t = alias, self.param(param)
        return (
            f"({a}.recorded_at <= {t} AND {a}.valid_from <= {t}"
            f" AND ({a}.valid_until IS NULL OR {t} < {a}.valid_until))"
        )


def live(alias: str) -> str:
    """SQL true when the record aliased ``alias`` is not tombstoned."""
    return f"{alias}.tombstoned_at IS NULL"
