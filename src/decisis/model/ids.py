"""Time-ordered identifiers (ULID: 48-bit milliseconds + 80 random bits, Crockford base32).

Sorting ids sorts by creation time, so "newest first" needs no extra column and
people can shorten an id to a unique prefix, as with git.
"""

from __future__ import annotations

import base64
import os
import threading
import time

__all__ = [
    "ID_ALPHABET",
    "ID_LENGTH",
    "ID_PREFIX_MEANS",
    "ID_PREFIX_PATTERN",
    "is_id",
    "is_id_prefix",
    "new_id",
]

ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case
ID_LENGTH = 26
# What ``is_id_prefix`` accepts (any case, white space around it), as a JSON Schema pattern
# for interfaces that describe their arguments (the web API's OpenAPI document).
ID_PREFIX_PATTERN = rf"^\s*[{ID_ALPHABET}{ID_ALPHABET.upper()}]{{1,{ID_LENGTH}}}\s*$"
ID_PREFIX_MEANS = f"an id or a unique prefix of one (1 to {ID_LENGTH} Crockford base32 characters)"
_RANDOM_BITS = 80
_STEP_SHIFT = 2  # 72 random bits >> 2: steps below 2**70, ~500 ids a millisecond before a carry
# ... and at least 2**65, so ids made in one millisecond differ within their first three random
# characters (the bits from 65 up): the 13-character prefixes handed to agents
# (``decisis.agent.handlers.SHORT_ID_LENGTH``) never collide within a process. With steps from
# 1 up, one pair in 32 shared those 13 characters, and a prefix an agent was given turned
# ambiguous when the next record came in the same millisecond.
_MIN_STEP = 1 << 65


def _fresh_random() -> int:
    """A random start in the lower half of the range, so steps have room to count up."""
    return int.from_bytes(os.urandom(10), "big") >> 1


def _encode(value: int, length: int) -> str:
    """``value`` as ``length`` Crockford digits, digit by digit: the plain form of what
    ``_encode_id`` writes (tests hold the two to the same characters)."""
    chars = []
    for _ in range(length):
        value, digit = divmod(value, 32)
        chars.append(ID_ALPHABET[digit])
    return "".join(reversed(chars))


_FROM_RFC4648 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", ID_ALPHABET)


def _encode_id(ms: int, random: int) -> str:
    """``_encode(ms, 10) + _encode(random, 16)`` in C: the 130 bits as 20 bytes (30 zero
    bits first), base32 (RFC 4648) written, the 6 zero characters dropped, and the
    alphabet turned into Crockford's."""
    value = ((ms % (1 << 50)) << _RANDOM_BITS) | random
    return base64.b32encode(value.to_bytes(20, "big"))[6:].decode("ascii").translate(_FROM_RFC4648)


class _Generator:
    """Monotonic within a process: ids made in the same millisecond count up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = -1
        self._last_random = 0

    def __call__(self) -> str:
        with self._lock:
            now_ms = time.time_ns() // 1_000_000
            if now_ms <= self._last_ms:
                # Step by a random amount, not +1: ids made in one millisecond then differ
                # within their first random characters, so their short prefixes stay short.
                now_ms = self._last_ms
                self._last_random += _MIN_STEP + (
                    int.from_bytes(os.urandom(9), "big") >> _STEP_SHIFT
                )
                if self._last_random >= 1 << _RANDOM_BITS:
                    now_ms += 1
                    self._last_random = _fresh_random()
            else:
                self._last_random = _fresh_random()
            self._last_ms = now_ms
            return _encode_id(now_ms, self._last_random)


_generate = _Generator()


def new_id() -> str:
    """Return a new id, strictly greater than every id this process made before."""
    return _generate()


def is_id_prefix(text: str) -> bool:
    """True when ``text`` could be the start of an id (used to check prefixes before a query)."""
    # strip() drops every leading and trailing alphabet character: nothing is left when
    # every character is one (in C, where a generator over the characters was not)
    return 0 < len(text) <= ID_LENGTH and not text.lower().strip(ID_ALPHABET)


def is_id(text: str) -> bool:
    """True when ``text`` is a whole id (ledger entities also name rules: ``rule:<name>``)."""
    return len(text) == ID_LENGTH and is_id_prefix(text)
