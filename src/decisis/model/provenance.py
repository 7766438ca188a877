"""Provenance entries: who or what made a record, how, from which source, how sure.

One entry is one ``provenance.recorded`` ledger event about one node or edge (its
``entity``), in the words of W3C PROV: the ``activity`` that made or changed the record,
the ``agent`` associated with it and that agent's ``agent_type`` (``AgentType``) and
``role``, the ``source`` document it came from (with the git blob and commit it was read
from, when there are ones), a ``confidence`` from 0 to 1, when the activity started and
ended, its ``outcome`` and ``error``. Keys an entry does not have are absent from the
payload, never ``null``. ``check_provenance`` is the fold's check of a payload, so every
backend refuses the same entries with the same error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from decisis.errors import InvalidInput
from decisis.model.enums import AgentType
from decisis.model.times import format_time, parse_time
from decisis.model.validation import (
    check_confidence,
    check_enum,
    check_id,
    check_storable,
)

__all__ = ["PROVENANCE_FIELDS", "Provenance", "check_provenance", "provenance_payload"]

MAX_NAME_LENGTH = 200  # activity, agent, role, outcome
MAX_SOURCE_LENGTH = 2_000  # a path or a URL
MAX_ERROR_LENGTH = 2_000
_GIT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}").fullmatch  # SHA-1 or SHA-256 object ids

_TEXT_LIMITS = {
    "activity": MAX_NAME_LENGTH,
    "agent": MAX_NAME_LENGTH,
    "role": MAX_NAME_LENGTH,
    "source": MAX_SOURCE_LENGTH,
    "outcome": MAX_NAME_LENGTH,
    "error": MAX_ERROR_LENGTH,
}
_GIT_FIELDS = ("source_blob", "source_commit")
_TIME_FIELDS = ("started_at", "ended_at")
PROVENANCE_FIELDS = (
    "entity",
    "activity",
    "agent",
    "agent_type",
    "role",
    "source",
    "source_blob",
    "source_commit",
    "confidence",
    "started_at",
    "ended_at",
    "outcome",
    "error",
)

_FIELD_SET = frozenset(PROVENANCE_FIELDS)
_AGENT_TYPES = frozenset(t.value for t in AgentType)


@dataclass(frozen=True, slots=True)
class Provenance:
    """One provenance entry as read back from the ledger.

    ``seq`` and ``recorded_at`` are the ledger event's (``seq`` is ``None`` for an entry
    still waiting in a batch); the rest is its payload. ``source_blob`` is the git blob id
    of the bytes read, ``source_commit`` the commit whose tree holds that blob at the
    source's path; both are ``None`` outside a git work tree.
    """

    entity: str
    activity: str
    recorded_at: datetime
    seq: int | None = None
    agent: str | None = None
    agent_type: AgentType | None = None
    role: str | None = None
    source: str | None = None
    source_blob: str | None = None
    source_commit: str | None = None
    confidence: float | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    outcome: str | None = None
    error: str | None = None

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], recorded_at: datetime, seq: int | None = None
    ) -> Provenance:
        """The entry a checked ``provenance.recorded`` payload holds."""
        entry = check_provenance(payload)
        values: dict[str, Any] = {name: entry.get(name) for name in PROVENANCE_FIELDS}
        if values["agent_type"] is not None:
            values["agent_type"] = AgentType(values["agent_type"])
        for name in _TIME_FIELDS:
            if values[name] is not None:
                values[name] = parse_time(values[name], name)
        return cls(recorded_at=recorded_at, seq=seq, **values)

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON data, every field present (``None`` where it has none)."""
        out: dict[str, Any] = {"seq": self.seq, "recorded_at": format_time(self.recorded_at)}
        for name in PROVENANCE_FIELDS:
            value = getattr(self, name)
            if isinstance(value, datetime):
                value = format_time(value)
            elif isinstance(value, AgentType):
                value = value.value
            out[name] = value
        return out


def provenance_payload(
    entity: str,
    activity: str,
    *,
    agent: str | None = None,
    agent_type: AgentType | str | None = None,
    role: str | None = None,
    source: str | None = None,
    source_blob: str | None = None,
    source_commit: str | None = None,
    confidence: float | None = None,
    started_at: datetime | str | None = None,
    ended_at: datetime | str | None = None,
    outcome: str | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    """A checked payload: texts stripped, the agent type and times in their stored form,
    the fields given as ``None`` left out."""
    texts = {
        "activity": activity,
        "agent": agent,
        "role": role,
        "source": source,
        "outcome": outcome,
        "error": error,
    }
    payload: dict[str, Any] = {"entity": check_id(entity, "entity")}
    for name, value in texts.items():
        if value is not None:
            payload[name] = value.strip() if isinstance(value, str) else value
    if agent_type is not None:
        payload["agent_type"] = check_enum(AgentType, agent_type, "agent_type").value
    for name, git_id in (("source_blob", source_blob), ("source_commit", source_commit)):
        if git_id is not None:
            payload[name] = git_id.strip().lower() if isinstance(git_id, str) else git_id
    if confidence is not None:
        payload["confidence"] = check_confidence(confidence)
    for name, when in (("started_at", started_at), ("ended_at", ended_at)):
        if when is not None:
            payload[name] = format_time(parse_time(when, name))
    return check_provenance(payload)


def check_provenance(payload: dict[str, Any]) -> dict[str, Any]:
    """Refuse an entry no reader could trust: an unknown key, a text that is empty, too
    long or unstorable, an agent type outside ``AgentType``, a confidence outside 0..1, a
    time that does not parse, an end before the start, a git id that is not one."""
    unknown = sorted(payload.keys() - _FIELD_SET)
    if unknown:
        raise InvalidInput(
            f"payload.{unknown[0]}", "is not a provenance field", ", ".join(PROVENANCE_FIELDS)
        )
    check_id(payload.get("entity"), "payload.entity")
    if payload["entity"] != payload["entity"].lower():
        raise InvalidInput("payload.entity", "is not in stored (lower-case) form", "a full id")
    for name, limit in _TEXT_LIMITS.items():
        if name in payload or name == "activity":
            _check_entry_text(payload.get(name), f"payload.{name}", limit)
    _check_kinds(payload)
    if "confidence" in payload:
        if payload["confidence"] is None:
            raise InvalidInput("payload.confidence", "is null", "0.0 to 1.0, or no key")
        check_confidence(payload["confidence"], "payload.confidence")
    times = {}
    for name in _TIME_FIELDS:
        if name in payload:
            if not isinstance(payload[name], str):
                raise InvalidInput(f"payload.{name}", "is not a time", "an ISO 8601 time")
            times[name] = parse_time(payload[name], f"payload.{name}")
    if len(times) == 2 and times["ended_at"] < times["started_at"]:
        raise InvalidInput("payload.ended_at", "is before started_at", "a time at or after it")
    return payload


def _check_kinds(payload: dict[str, Any]) -> None:
    """The agent type and the git ids: values of closed forms."""
    if "agent_type" in payload:
        kind = payload["agent_type"]
        if not isinstance(kind, str) or kind not in _AGENT_TYPES:
            raise InvalidInput(
                "payload.agent_type",
                f"unknown agent type {kind!r:.80}",
                [t.value for t in AgentType],
            )
    for name in _GIT_FIELDS:
        if name in payload:
            value = payload[name]
            if not isinstance(value, str) or not _GIT_ID(value):
                raise InvalidInput(
                    f"payload.{name}",
                    f"{value!r:.80} is not a git object id",
                    "40 (SHA-1) or 64 (SHA-256) lower-case hex digits",
                )


def _check_entry_text(value: object, field: str, limit: int) -> None:
    if not isinstance(value, str):
        raise InvalidInput(field, f"expected text, got {type(value).__name__}", f"1 to {limit}")
    check_storable(value, field)
    if not value.strip():
        raise InvalidInput(field, "is empty", f"1 to {limit} characters")
    if len(value) > limit:
        raise InvalidInput(field, f"is {len(value)} characters long", f"at most {limit}")
