"""Which ledger entries are about a record: the one rule every store's ``history`` keeps.

The SQL backends narrow the ledger with their indexes to a superset of these entries
and apply ``is_about`` to what comes back, so the rule is written once, here.
"""

from __future__ import annotations

from decisis.model import Event

__all__ = ["is_about"]


def is_about(event: Event, record_id: str) -> bool:
    """The record is the entry's entity, or its payload's ``new`` (a supersede names the
    record that replaces ``old`` there)."""
    return record_id in (event.entity, event.payload.get("new"))
