"""Prompt templates for each kind of model call, and how they are filled in.

Templates use ``string.Template`` placeholders (``$prompt``, ``$thought``,
``$thoughts``, ``$number``, ``$k``) rather than ``str.format``, so prompts may
contain JSON examples with braces and user text is never re-interpreted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from operator import itemgetter
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


Messages = tuple[ChatMessage, ChatMessage]


def render(prompts: Prompts, kind: str, values: Mapping[str, object]) -> Messages:
    """The system and user messages for a call of ``kind`` with ``values`` filled in."""
    return renderer(prompts, kind)(values)


def renderer(prompts: Prompts, kind: str) -> Callable[[Mapping[str, object]], Messages]:
    """``render`` for the calls of one operation: the template and the system message
    are looked up once, not once per call."""
    template = _compile(getattr(prompts, kind))
    system = _system_message(prompts.system)
    by_position, pick = template.by_position, template.pick

    def fill(values: Mapping[str, object]) -> Messages:
        try:  # every placeholder has a value (the usual case): two C calls
            text = by_position % pick(values)
        except KeyError:  # unknown placeholders stay as written
            args = [str(values[name]) if name in values else raw for name, raw in template.fields]
            text = by_position % tuple(args)
        return system, ChatMessage("user", text)

    return fill


@lru_cache(maxsize=64)
def _system_message(text: str) -> ChatMessage:
    """One shared (frozen) system message per system prompt: every call sends it."""
    return ChatMessage("system", text)


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A template as a ``%`` pattern, ``by_position``, with ``%s`` for each of ``fields``
    (name, text as written); ``pick`` takes their values from a mapping, in that order,
    raising ``KeyError`` when one is missing."""

    by_position: str
    fields: tuple[tuple[str, str], ...]
    pick: Callable[[Mapping[str, object]], tuple[object, ...]]


def _picker(names: Sequence[str]) -> Callable[[Mapping[str, object]], tuple[object, ...]]:
    """The values of ``names`` as a tuple: one ``itemgetter`` call when there are two or
    more (given one name it returns the value itself, which may be a tuple)."""
    if len(names) > 1:
        return itemgetter(*names)
    return lambda values: tuple([values[name] for name in names])


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
    return _Compiled("%s".join(literals), tuple(fields), _picker([name for name, _ in fields]))
