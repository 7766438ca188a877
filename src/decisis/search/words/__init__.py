"""Word data that search reads: stop words, abbreviations, two names for one thing.

Each list is a TOML file beside this module; every entry says where it comes from. Entries
of general English or engineering usage (and, for stop words, the words every decision
record writes) are kept; an entry that came from one corpus or one question set stays in the
file, for the record, and is not kept in the default lists (``KEPT_ORIGINS``).
"""

from __future__ import annotations

import functools
import tomllib
from importlib.resources import files
from typing import Any

__all__ = ["KEPT_ORIGINS", "abbreviations", "same_names", "stop_words"]

KEPT_ORIGINS = frozenset({"english", "engineering", "decision records"})


def _entries(name: str, table: str) -> list[dict[str, Any]]:
    data = tomllib.loads(files(__name__).joinpath(name).read_text(encoding="utf-8"))
    return [e for e in data.get(table, []) if e.get("origin") in KEPT_ORIGINS]


@functools.cache
def stop_words() -> frozenset[str]:
    """Function words, question words and words every decision record uses."""
    return frozenset(e["word"] for e in _entries("stop_words.toml", "word"))


@functools.cache
def abbreviations() -> dict[str, str]:
    """Short form -> the words it stands for."""
    return {e["short"]: e["long"] for e in _entries("abbreviations.toml", "abbreviation")}


@functools.cache
def same_names() -> dict[str, str]:
    """A word -> the name it is read as."""
    return {e["word"]: e["same_as"] for e in _entries("same_names.toml", "name")}
