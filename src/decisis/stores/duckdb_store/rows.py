"""How records and events map to DuckDB rows, and the SQL fragments the queries share.

The row shape is the SQLite backend's, reused as it is: the same column lists,
timestamps as the canonical text of ``decisis.model.format_time`` (fixed width,
so comparing strings compares times, and every instant round-trips to the
microsecond), metadata and payloads as canonical JSON text. Column lists and
fragments are constants, never user input; every value is a bound ``$name``
parameter.
"""

from __future__ import annotations

import re
from collections import Counter

from decisis.stores.sqlite.rows import (
    EDGE_FIELDS,
    NODE_FIELDS,
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
    "EDGE_COLUMNS",
    "EDGE_FIELDS",
    "EVENT_COLUMNS",
    "MAX_SEARCH_TERMS",
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
    "search_terms",
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
MAX_SEARCH_TERMS = 32
# A word is a run of letters and digits, lower-cased: the words the other backends match.
_WORD = re.compile(r"[^\W_]+")


def search_terms(text: str) -> list[str]:
    """The distinct words of ``text`` in order of appearance, at most ``MAX_SEARCH_TERMS``."""
    return list(dict.fromkeys(_WORD.findall(text.lower())))[:MAX_SEARCH_TERMS]


def term_counts(label: str, rationale: str | None) -> tuple[dict[str, float], float]:
    """A node's words for the search index: each word's weighted count (a label word
    counts twice, a rationale word once) and the node's length counted the same way."""
    in_label = _WORD.findall(label.lower())
    in_rationale = _WORD.findall((rationale or "").lower())
    counts: Counter[str] = Counter()
    for word in in_label:
        counts[word] += 2
    counts.update(in_rationale)
    return {word: float(n) for word, n in counts.items()}, 2.0 * len(in_label) + len(in_rationale)


def valid_at(alias: str, param: str = "as_of") -> str:
    """SQL for ``Node.valid_at``: known by then, and holding in the world then."""
    a, t = alias, f"${param}"
    return (
        f"({a}.recorded_at <= {t} AND {a}.valid_from <= {t}"
        f" AND ({a}.valid_until IS NULL OR {t} < {a}.valid_until))"
    )
