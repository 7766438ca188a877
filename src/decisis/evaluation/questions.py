"""Question sets (one JSON object a line) and how an answer to one is scored.

Fields, as in ``data/README.md``: ``id``, ``question``, ``expected`` (the key
that stands, or null), ``acceptable``, ``outdated``, ``topic``, ``kind``. An answer is
``right`` when it is ``expected`` or acceptable (or abstains when ``expected`` is null),
``outdated`` when it is a replaced record of the topic, else ``wrong``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from decisis.errors import InvalidInput
from decisis.model.validation import loads_json

__all__ = ["Question", "Verdict", "load_questions", "score"]

Verdict = Literal["right", "outdated", "wrong"]


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    expected: str | None
    acceptable: tuple[str, ...] = ()
    outdated: tuple[str, ...] = ()
    topic: str = ""
    kind: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def out_of_scope(self) -> bool:
        return self.expected is None


def score(question: Question, answer: str | None) -> Verdict:
    if answer is None:
        return "right" if question.expected is None else "wrong"
    if answer == question.expected or answer in question.acceptable:
        return "right"
    return "outdated" if answer in question.outdated else "wrong"


_ALLOWED = (
    "an object with id, question, expected (a key or null), acceptable and outdated (lists of keys)"
)


def _shown(value: object) -> str:
    """``value`` as the error shows it: its repr, cut short (it may be anything)."""
    said = repr(value)
    return said if len(said) <= 80 else said[:77] + "..."


def _keys(data: dict[str, object], name: str, where: str) -> tuple[str, ...]:
    """A list-of-keys field; a bare string would be read as its characters, so it is refused."""
    value = data.get(name)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(k, str) and k for k in value):
        said = _shown(value)
        raise InvalidInput("questions", f"{where}: {name} is {said}", "a list of record keys")
    return tuple(value)


def _question(data: object, where: str) -> Question:
    if not isinstance(data, dict):
        raise InvalidInput("questions", f"{where}: not a question object", _ALLOWED)
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput(
            "questions", f"{where}: question is {_shown(question)}", "the question in words"
        )
    expected = data.get("expected")
    if expected is not None and (not isinstance(expected, str) or not expected):
        raise InvalidInput(
            "questions", f"{where}: expected is {_shown(expected)}", "a record key or null"
        )
    known = {"id", "question", "expected", "acceptable", "outdated", "topic", "kind"}
    return Question(
        id=str(data.get("id") or where),
        question=question,
        expected=expected,
        acceptable=_keys(data, "acceptable", where),
        outdated=_keys(data, "outdated", where),
        topic=str(data.get("topic") or ""),
        kind=str(data.get("kind") or ""),
        extra={k: v for k, v in data.items() if k not in known},
    )


def load_questions(path: str | os.PathLike[str]) -> list[Question]:
    """Read a question set; blank lines are skipped, a bad line is refused with its number,
    and a file that cannot be read, or holds no question, is refused with its path."""
    file = Path(path)
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InvalidInput(
            "questions", f"{file} cannot be read ({reason})", "a UTF-8 JSON lines file"
        ) from None
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = loads_json(line, "questions", "JSON lines", where=f"{file}:{number}: ")
        except json.JSONDecodeError as exc:
            raise InvalidInput("questions", f"{file}:{number}: {exc.msg}", "JSON lines") from None
        out.append(_question(data, f"{file.name}:{number}"))
    if not out:
        raise InvalidInput("questions", f"{file} holds no question", "one JSON object a line")
    return out
