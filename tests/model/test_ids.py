"""Ids: time-ordered, and ids made in one millisecond keep short prefixes apart."""

from __future__ import annotations

import pytest

from decisis.agent.handlers import SHORT_ID_LENGTH
from decisis.model import ids


def test_ids_made_in_one_millisecond_differ_within_the_agents_prefix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ids.time, "time_ns", lambda: 1_764_000_000_000 * 1_000_000)
    generator = ids._Generator()
    made = [generator() for _ in range(400)]
    assert made == sorted(made) and len(set(made)) == len(made)
    same_ms = [i for i in made if i[:10] == made[0][:10]]
    assert len(same_ms) > 300  # the carry into the next millisecond is rare
    prefixes = [i[:SHORT_ID_LENGTH] for i in same_ms]
    assert len(set(prefixes)) == len(prefixes)


def test_new_ids_are_valid_and_increase() -> None:
    made = [ids.new_id() for _ in range(1000)]
    assert made == sorted(made) and all(ids.is_id(i) for i in made)


@pytest.mark.parametrize(
    ("ms", "random"),
    [(0, 0), (1, 1), ((1 << 50) - 1, (1 << 80) - 1), (1_764_700_000_000, 1 << 79), (12345, 987)],
)
def test_an_id_is_written_as_the_digit_by_digit_encoding(ms: int, random: int) -> None:
    """The fast writer (RFC 4648 base32 turned Crockford) gives the characters the plain
    digit-by-digit encoding gives."""
    assert ids._encode_id(ms, random) == ids._encode(ms, 10) + ids._encode(random, 16)
