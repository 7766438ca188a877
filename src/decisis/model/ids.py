"""Time-ordered identifiers (ULID: 48-bit milliseconds + 80 random bits, Crockford base32).

Sorting ids sorts by creation time, so "newest first" needs no extra column and
people can shorten an id to a unique prefix, as with git.
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["ID_ALPHABET", "ID_LENGTH", "is_id_prefix", "new_id"]

ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case
ID_LENGTH = 26
_RANDOM_BITS = 80

_lock = threading.Lock()
_last_ms = -1
_last_random = 0


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        value, digit = divmod(value, 32)
        chars.append(ID_ALPHABET[digit])
    return "".join(reversed(chars))


def new_id() -> str:
    """Return a new id, strictly greater than every id this process made before."""
    global _last_ms, _last_random
    with _lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms <= _last_ms:
            now_ms = _last_ms
            _last_random += 1
            if _last_random >= 1 << _RANDOM_BITS:  # pragma: no cover - 2**80 ids in one ms
                now_ms += 1
                _last_random = int.from_bytes(os.urandom(10), "big") >> 1
        else:
            _last_random = int.from_bytes(os.urandom(10), "big") >> 1  # room to increment
        _last_ms = now_ms
        return _encode(now_ms, 10) + _encode(_last_random, 16)


def is_id_prefix(text: str) -> bool:
    """True when ``text`` could be the start of an id (used to check prefixes before a query)."""
    return 0 < len(text) <= ID_LENGTH and all(c in ID_ALPHABET for c in text.lower())
