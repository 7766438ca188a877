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
