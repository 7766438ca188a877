"""A plan in steps: its lines, numbered or bulleted items, and the sentences in them.

A plan comes as an agent or a person writes it: a numbered list, bullets, one step a line,
or a paragraph of sentences. Each of those is a step; the markers are taken off. A sentence
ends at ``.``, ``!``, ``?`` or ``;`` followed by a space and a capital or a digit, so a
dotted name (``puppetmaster.stack.internal``, ``v1.2``) stays inside its step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from decisis.errors import InvalidInput

__all__ = ["MAX_PLAN_CHARS", "MAX_STEPS", "Step", "split_steps"]

MAX_PLAN_CHARS = 20_000
MAX_STEPS = 200

_MARKER = re.compile(
    r"^\s*(?:[-*+\u2022>]+|\(?\d{1,3}[.):]|\(?[a-z][.)]|step\s+\d{1,3}\s*[:.)-])\s+", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"'(\[]?[A-Z0-9])")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a plan: its place (from 1) and its words as written."""

    number: int
    text: str


def _items(plan: str) -> list[str]:
    out = []
    for line in plan.splitlines():
        text = _MARKER.sub("", line, count=1).strip()
        if not text:
            continue
        out += [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]
    return out


def split_steps(plan: object) -> list[Step]:
    """The steps of ``plan``; ``InvalidInput`` for no text, too much, or too many steps."""
    if not isinstance(plan, str) or not plan.strip():
        raise InvalidInput("plan", "is empty", "a plan: steps as lines, list items or sentences")
    if len(plan) > MAX_PLAN_CHARS:
        raise InvalidInput("plan", f"is {len(plan)} characters", f"at most {MAX_PLAN_CHARS}")
    items = _items(plan)
    if len(items) > MAX_STEPS:
        raise InvalidInput("plan", f"has {len(items)} steps", f"at most {MAX_STEPS} steps")
    return [Step(number, text) for number, text in enumerate(items, 1)]
