"""Checks that refuse bad input at the edge of the model, naming the field and what is allowed.

Limits are generous for people and tight enough that hostile input (a megabyte
label, metadata nested a thousand deep, NaN in JSON) never reaches a store.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeVar

from decisis.errors import InvalidInput
from decisis.model.ids import ID_LENGTH, is_id_prefix

__all__ = [
    "MAX_AGENT_LENGTH",
    "MAX_LABEL_LENGTH",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
    "MAX_RATIONALE_LENGTH",
    "check_agent",
    "check_confidence",
    "check_enum",
    "check_id",
    "check_label",
    "check_metadata",
    "check_rationale",
]

MAX_LABEL_LENGTH = 500
MAX_RATIONALE_LENGTH = 20_000
MAX_AGENT_LENGTH = 200
MAX_METADATA_BYTES = 64 * 1024
MAX_METADATA_DEPTH = 16

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


def _check_text(value: object, field: str, limit: int, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInput(field, f"expected text, got {type(value).__name__}")
    if "\x00" in value:
        raise InvalidInput(field, "contains a NUL character", "text without NUL characters")
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


def check_confidence(value: object, field: str = "confidence") -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(field, f"expected a number, got {type(value).__name__}", "0.0 to 1.0")
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
    if value is None or isinstance(value, bool | int | str):
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
    _check_json(value, field, 1)
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    size = len(encoded.encode("utf-8"))
    if size > MAX_METADATA_BYTES:
        raise InvalidInput(field, f"is {size} bytes as JSON", f"at most {MAX_METADATA_BYTES} bytes")
    loaded: dict[str, Any] = json.loads(encoded)  # a deep copy with tuples made lists
    return loaded
