"""Checks that refuse bad input at the edge of the model, naming the field and what is allowed.

Limits are generous for people and tight enough that hostile input (a megabyte
label, metadata nested a thousand deep, NaN in JSON) never reaches a store. Each is a
named constant, and the error that refuses a value names it.

Text is refused when some backend cannot keep it: a NUL character (PostgreSQL's
``text`` has none; SQLite and DuckDB would take it, so the same graph could not be
copied between them) or a lone surrogate (U+D800 to U+DFFF, which UTF-8 cannot
encode: no backend can write it). The checks run for every door, since the records
themselves and the ``Graph`` verbs make them.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

from decisis.errors import DecisisError, InvalidInput
from decisis.model.ids import ID_LENGTH, is_id_prefix

__all__ = [
    "MAX_AGENT_LENGTH",
    "MAX_BATCH_CHANGES",
    "MAX_GRAPH_NAME_LENGTH",
    "MAX_LABEL_LENGTH",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
    "MAX_METADATA_INT_DIGITS",
    "MAX_OPTIONS",
    "MAX_RATIONALE_LENGTH",
    "MAX_REASON_LENGTH",
    "check_agent",
    "check_change_count",
    "check_confidence",
    "check_enum",
    "check_graph_name",
    "check_id",
    "check_label",
    "check_metadata",
    "check_note",
    "check_rationale",
    "check_reason",
    "check_storable",
    "loads_json",
]

MAX_LABEL_LENGTH = 500
MAX_RATIONALE_LENGTH = 20_000
MAX_AGENT_LENGTH = 200
MAX_METADATA_BYTES = 64 * 1024
MAX_METADATA_DEPTH = 16
# A whole number in metadata: Python writes and reads back at most 4,300 digits as JSON
# text by default (``sys.int_max_str_digits``), so a longer one could not be written, or
# read back by another process; metadata holds 64 KiB anyway.
MAX_METADATA_INT_DIGITS = 4_300
_INT_BOUND = 10**MAX_METADATA_INT_DIGITS
MAX_GRAPH_NAME_LENGTH = 100
# Why a node or edge was tombstoned: a sentence or two. The corrections' own are ~50.
MAX_REASON_LENGTH = 1_000
# Options of one decision (chosen and rejected together): a decision weighs a handful, and
# each is two ledger events in the one append. 20,000 options held SQLite's write lock for
# 12.8 s, past the 10 s other writers wait (``BUSY_TIMEOUT_MS``); 200 took 0.2 to 0.35 s
# on the 2-core machine of ``docs/benchmarks.md`` at load 5.
MAX_OPTIONS = 200
# Changes in one append the ``Graph`` verbs make (a ``graph.batch()`` block): 10,000 held
# SQLite's write lock 4.4 s at load 5.6 on that machine (the 40,001 of 20,000 options,
# 12.8 s), inside the 10 s other writers wait. ``import`` and ``adr ingest`` land whole
# files in one append and are not bound by it: a 50,000-record ingest, or the copy of a
# large graph (``decisis copy``), lands whole or not at all.
MAX_BATCH_CHANGES = 10_000

E = TypeVar("E", bound=StrEnum)


def check_enum(enum: type[E], value: object, field: str) -> E:
    """Return ``value`` as a member of ``enum`` or refuse it, listing the members."""
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum(value.strip().lower())
        except ValueError:
            pass
    raise InvalidInput(field, f"unknown value {value!r}", [m.value for m in enum])


def check_storable(value: str, field: str) -> str:
    """``value`` unless it holds a character some backend cannot store: NUL, or a lone
    surrogate (which is not text UTF-8 can encode)."""
    if "\x00" in value:
        raise InvalidInput(field, "contains a NUL character", "text without NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            field,
            f"holds a lone surrogate {value[exc.start]!r} at position {exc.start}",
            "text that UTF-8 can encode (no lone surrogates U+D800 to U+DFFF)",
        ) from None
    return value


def _check_text(value: object, field: str, limit: int, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInput(field, f"expected text, got {type(value).__name__}")
    check_storable(value, field)
    text = value.strip()
    if required and not text:
        raise InvalidInput(field, "is empty", f"1 to {limit} characters")
    if len(text) > limit:
        raise InvalidInput(field, f"is {len(text)} characters long", f"at most {limit} characters")
    return text or None


def check_label(value: object, field: str = "label") -> str:
    text = _check_text(value, field, MAX_LABEL_LENGTH, required=True)
    assert text is not None
    return text


def check_rationale(value: object, field: str = "rationale") -> str | None:
    return _check_text(value, field, MAX_RATIONALE_LENGTH, required=False)


def check_agent(value: object, field: str = "agent") -> str | None:
    return _check_text(value, field, MAX_AGENT_LENGTH, required=False)


def check_reason(value: object, field: str = "reason") -> str:
    """Why a record was tombstoned: required, at most ``MAX_REASON_LENGTH`` characters."""
    if value is None or (isinstance(value, str) and not value.strip()):
        allowed = f"1 to {MAX_REASON_LENGTH} characters"
        raise InvalidInput(field, "a tombstone needs a reason", allowed)
    text = _check_text(value, field, MAX_REASON_LENGTH, required=True)
    assert text is not None
    return text


def check_note(value: object, field: str = "note") -> str | None:
    """A short optional note (why a record is re-affirmed): at most ``MAX_REASON_LENGTH``."""
    return _check_text(value, field, MAX_REASON_LENGTH, required=False)


def check_graph_name(value: object, field: str = "graph") -> str:
    """A graph's name, stripped: 1 to ``MAX_GRAPH_NAME_LENGTH`` characters every backend
    stores alike."""
    allowed = f"1 to {MAX_GRAPH_NAME_LENGTH} characters"
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_GRAPH_NAME_LENGTH:
        raise InvalidInput(field, f"{value!r:.120} is not a graph name", allowed)
    return check_storable(value.strip(), field)


def check_change_count(count: int, field: str = "batch") -> None:
    """Refuse one append of more than ``MAX_BATCH_CHANGES`` changes from the ``Graph`` verbs."""
    if count > MAX_BATCH_CHANGES:
        raise InvalidInput(
            field,
            f"would write {count} changes in one transaction",
            f"at most {MAX_BATCH_CHANGES} changes a batch: land them in several batches",
        )


def check_confidence(value: object, field: str = "confidence") -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(field, f"expected a number, got {type(value).__name__}", "0.0 to 1.0")
    if isinstance(value, int) and not 0 <= value <= 1:  # before float(): 10**400 overflows
        shown = f"{value!r}" if abs(value) < 10**20 else "a whole number that large"
        raise InvalidInput(field, f"{shown} is out of range", "0.0 to 1.0")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise InvalidInput(field, f"{value!r} is out of range", "0.0 to 1.0")
    return number


def check_id(value: object, field: str = "id") -> str:
    """A full id as stored (26 characters of Crockford base32)."""
    if not isinstance(value, str) or len(value) != ID_LENGTH or not is_id_prefix(value):
        raise InvalidInput(field, f"{value!r} is not an id", f"{ID_LENGTH} base32 characters")
    return value.lower()


def _check_json(value: Any, field: str, depth: int) -> None:
    if depth > MAX_METADATA_DEPTH:
        raise InvalidInput(field, "is nested too deeply", f"at most {MAX_METADATA_DEPTH} levels")
    if value is None or isinstance(value, bool | str):
        return
    if isinstance(value, int):
        if abs(value) >= _INT_BOUND:
            raise InvalidInput(
                field,
                f"holds a whole number of more than {MAX_METADATA_INT_DIGITS} digits",
                f"whole numbers of at most {MAX_METADATA_INT_DIGITS} digits (larger ones as text)",
            )
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(field, f"holds {value!r}", "finite numbers (JSON has no NaN)")
        return
    if isinstance(value, list | tuple):
        for item in value:
            _check_json(item, field, depth + 1)
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInput(field, f"has a non-text key {key!r}", "text keys")
            _check_json(item, field, depth + 1)
        return
    raise InvalidInput(
        field,
        f"holds a {type(value).__name__}",
        "JSON data: objects, arrays, text, numbers, true, false, null",
    )


def check_metadata(value: object, field: str = "metadata") -> dict[str, Any]:
    """Metadata is JSON data, kept as data: never turned into code or attribute names."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInput(
            field, f"expected an object, got {type(value).__name__}", "a JSON object"
        )
    if not value:  # most records have none: nothing to check or copy
        return {}
    _check_json(value, field, 1)
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    size = len(_encodable_json(encoded, field).encode("utf-8"))
    if size > MAX_METADATA_BYTES:
        raise InvalidInput(field, f"is {size} bytes as JSON", f"at most {MAX_METADATA_BYTES} bytes")
    loaded: dict[str, Any] = json.loads(encoded)  # a deep copy with tuples made lists
    return loaded


def _encodable_json(encoded: str, field: str) -> str:
    """JSON text (``ensure_ascii=False``) unless a string or key in it holds a lone
    surrogate; NUL is fine there, as JSON writes it ``\\u0000``."""
    try:
        encoded.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            field,
            f"holds a lone surrogate {encoded[exc.start]!r} in a text or key",
            "text that UTF-8 can encode (no lone surrogates U+D800 to U+DFFF)",
        ) from None
    return encoded


def loads_json(
    text: str,
    field: str,
    allowed: str,
    *,
    where: str = "",
    error: type[InvalidInput] = InvalidInput,
    parse_constant: Callable[[str], Any] | None = None,
) -> Any:
    """``json.loads`` for text from outside (a file, an option). What Python's reader raises
    past its own limits becomes ``error`` naming ``field`` (``where`` begins the problem,
    e.g. the file and line): a document nested deeper than it goes (``RecursionError``) or
    a whole number longer than it reads (``ValueError``). A syntax error stays a
    ``json.JSONDecodeError``, which each caller words for its own input."""
    try:
        return json.loads(text, parse_constant=parse_constant)
    except (json.JSONDecodeError, DecisisError):
        raise
    except RecursionError:
        problem = "is nested too deeply to read (arrays or objects inside each other)"
        raise error(field, where + problem, allowed) from None
    except ValueError:
        digits = sys.get_int_max_str_digits()
        problem = f"holds a whole number too long to read (more than {digits} digits)"
        raise error(field, where + problem, allowed) from None
