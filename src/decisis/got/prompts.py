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
    template = _compile(getattr(prompts, kind))
    if template.names <= values.keys():  # every placeholder has a value: one C call
        text = template.by_name % values
    else:
        args = [str(values[name]) if name in values else raw for name, raw in template.fields]
        text = template.by_position % tuple(args)
    return _system_message(prompts.system), ChatMessage("user", text)


@lru_cache(maxsize=64)
def _system_message(text: str) -> ChatMessage:
    """One shared (frozen) system message per system prompt: every call sends it."""
    return ChatMessage("system", text)


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A template as ``%`` patterns: ``by_name`` with ``%(name)s`` for each placeholder
    (used when ``values`` has them all), ``by_position`` with ``%s`` for each of
    ``fields`` (name, text as written), to leave unknown ones as written."""

    by_name: str
    by_position: str
    fields: tuple[tuple[str, str], ...]
    names: frozenset[str]


@lru_cache(maxsize=256)
def _compile(template: str) -> _Compiled:
    """``template`` parsed once (rendering runs for every model call). Renders the same
    as ``safe_substitute``: unknown placeholders stay as written, ``$$`` becomes ``$``."""
    literals: list[str] = []  # the text between placeholders
    fields: list[tuple[str, str]] = []
    piece: list[str] = []
    end = 0
    for match in Template.pattern.finditer(template):
        piece.append(template[end : match.start()])
        name = match.group("named") or match.group("braced")
        if name is None:
            piece.append("$" if match.group("escaped") is not None else match.group())
        else:
            literals.append("".join(piece).replace("%", "%%"))
            fields.append((name, match.group()))
            piece = []
        end = match.end()
    piece.append(template[end:])
    literals.append("".join(piece).replace("%", "%%"))
    by_name = literals[0] + "".join(
        f"%({name})s{literal}" for (name, _), literal in zip(fields, literals[1:], strict=True)
    )
    names = frozenset(name for name, _ in fields)
    return _Compiled(by_name, "%s".join(literals), tuple(fields), names)
