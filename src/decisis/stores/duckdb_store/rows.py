"""How records and events map to DuckDB rows, and the SQL fragments the queries share.

The row shape is the SQLite backend's, reused as it is: the same column lists,
timestamps as the canonical text of ``decisis.model.format_time`` (fixed width,
so comparing strings compares times, and every instant round-trips to the
microsecond), metadata and payloads as canonical JSON text. Column lists and
fragments are constants, never user input; every value is a bound ``$name``
parameter.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from decisis.stores.sql_dialect import value_list, words
from decisis.stores.sqlite.rows import (
    EDGE_FIELDS,
    NODE_FIELDS,
    SQLITE,
    canonical_json,
    columns,
    edge_from_row,
    edge_values,
    event_from_row,
    live,
    node_from_row,
    node_values,
)

__all__ = [
    "DUCKDB",
    "EDGE_COLUMNS",
    "EDGE_FIELDS",
    "EVENT_COLUMNS",
    "NODE_COLUMNS",
    "NODE_FIELDS",
    "canonical_json",
    "columns",
    "edge_from_row",
    "edge_values",
    "event_from_row",
    "live",
    "node_from_row",
    "node_values",
    "term_counts",
    "valid_at",
]

NODE_COLUMNS = columns("n", NODE_FIELDS)
# "at" is a keyword in DuckDB (AT TIME ZONE), so the ledger column is always quoted.
EVENT_COLUMNS = (
    'graph, seq, kind, entity, payload, "at", prev_checksum, checksum, '
    "invalidated_at, invalidated_reason"
)
EDGE_COLUMNS = columns("e", EDGE_FIELDS)

DUCKDB = replace(
    SQLITE,
    param_form="${}",
    member_form="list_contains({param}::VARCHAR[], {column})",
    list_value=value_list,
    event_columns=EVENT_COLUMNS,
    at='"at"',
    one_direction_per_query=False,
    endpoint_order="e.id",
    joins_only_to_filter=True,
)
"""DuckDB's spellings: SQLite's row shape and readers (times as canonical text), with
``$name`` parameters, lists as one ``VARCHAR[]`` and the ledger's ``"at"`` quoted."""
valid_at = DUCKDB.valid_at


def term_counts(label: str, rationale: str | None) -> tuple[dict[str, float], float]:
    """A node's words for the search index: each word's weighted count (a label word
    counts twice, a rationale word once) and the node's length counted the same way."""
    in_label = words(label)
    in_rationale = words(rationale or "")
    counts: Counter[str] = Counter()
    for word in in_label:
        counts[word] += 2
    counts.update(in_rationale)
    return {word: float(n) for word, n in counts.items()}, 2.0 * len(in_label) + len(in_rationale)
