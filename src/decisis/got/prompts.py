"""Prompt templates for each kind of model call, and how they are filled in.

Templates use ``string.Template`` placeholders (``$prompt``, ``$thought``,
``$thoughts``, ``$number``, ``$k``) rather than ``str.format``, so prompts may
contain JSON examples with braces and user text is never re-interpreted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from string import Template
from typing import Any

from decisis.errors import InvalidInput

from .messages import ChatMessage

__all__ = ["DEFAULT_PROMPTS", "Prompts", "render", "render_thoughts"]


@dataclass(frozen=True, slots=True)
class Prompts:
    """One template per kind of call, plus the system message sent with each."""

    system: str
    generate: str
    refine: str
    score: str
    connect: str
    aggregate: str

    def to_map(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def from_map(cls, data: Mapping[str, Any]) -> Prompts:
        names = {f.name for f in fields(cls)}
        if not isinstance(data, Mapping) or set(data) != names:
            raise InvalidInput("prompts", "is not a map of prompt templates", sorted(names))
        if not all(isinstance(value, str) for value in data.values()):
            raise InvalidInput("prompts", "holds a template that is not text", "text")
        return cls(**data)

    def replace(self, **templates: str) -> Prompts:
        """These prompts with some templates swapped (unknown names are refused)."""
        names = {f.name for f in fields(self)}
        unknown = set(templates) - names
        if unknown:
            raise InvalidInput("prompts", f"unknown templates {sorted(unknown)}", sorted(names))
        return Prompts(**{**asdict(self), **templates})


DEFAULT_PROMPTS = Prompts(
    system=(
        "You are a careful reasoner taking part in a Graph-of-Thoughts search. "
        "Follow the requested reply format exactly."
    ),
    generate=(
        "Task: $prompt\n\nCurrent thought:\n$thought\n\n"
        "Write candidate $number of $k: one new, distinct next step or answer that improves on "
        "the current thought. Reply with the thought only."
    ),
    refine=(
        "Task: $prompt\n\nThought:\n$thought\n\n"
        "Improve this thought: fix its mistakes and fill its gaps. "
        "Reply with the improved thought only."
    ),
    score=(
        "Task: $prompt\n\nThought:\n$thought\n\n"
        "How good is this thought as an answer to the task? "
        "Reply with one number from 0 (useless) to 10 (perfect) and nothing else."
    ),
    connect=(
        "Task: $prompt\n\nThoughts:\n$thoughts\n\n"
        "Which of these thoughts builds on or supports another? Reply with a JSON array of "
        "[from, to] index pairs, e.g. [[0, 2]], or [] if none."
    ),
    aggregate=(
        "Task: $prompt\n\nThoughts:\n$thoughts\n\n"
        "Combine the strengths of these thoughts into one answer better than each. "
        "Reply with the combined answer only."
    ),
)


def render_thoughts(contents: Sequence[str]) -> str:
    """Numbered thoughts, the way ``connect`` and ``aggregate`` prompts list them."""
    return "\n".join(f"[{index}] {content}" for index, content in enumerate(contents))


def render(
    prompts: Prompts, kind: str, values: Mapping[str, object]
) -> tuple[ChatMessage, ChatMessage]:
    """The system and user messages for a call of ``kind`` with ``values`` filled in."""
    parts = _compile(getattr(prompts, kind))
    text = "".join(
        literal if name is None or name not in values else str(values[name])
        for literal, name in parts
    )
    return ChatMessage("system", prompts.system), ChatMessage("user", text)


@lru_cache(maxsize=256)
def _compile(template: str) -> tuple[tuple[str, str | None], ...]:
    """``template`` split once into (literal text, placeholder name or None) pieces, so
    rendering is a join (it runs for every model call). Same result as
    ``safe_substitute``: unknown placeholders stay as written, ``$$`` becomes ``$``."""
    parts: list[tuple[str, str | None]] = []
    end = 0
    for match in Template.pattern.finditer(template):
        parts.append((template[end : match.start()], None))
        name = match.group("named") or match.group("braced")
        escaped = match.group("escaped") is not None
        parts.append(("$" if escaped else match.group(), name))
        end = match.end()
    parts.append((template[end:], None))
    return tuple(part for part in parts if part[0])
