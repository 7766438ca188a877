"""Question sets (one JSON object a line) and how an answer to one is scored.

Fields, as in ``../shared/data/README.md``: ``id``, ``question``, ``expected`` (the key
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


def _question(data: object, where: str) -> Question:
    if not isinstance(data, dict) or not isinstance(data.get("question"), str):
        raise InvalidInput("questions", f"{where}: not a question object", "id, question, expected")
    known = {"id", "question", "expected", "acceptable", "outdated", "topic", "kind"}
    return Question(
        id=str(data.get("id") or where),
        question=data["question"],
        expected=data.get("expected") or None,
        acceptable=tuple(data.get("acceptable") or ()),
        outdated=tuple(data.get("outdated") or ()),
        topic=str(data.get("topic") or ""),
        kind=str(data.get("kind") or ""),
        extra={k: v for k, v in data.items() if k not in known},
    )


def load_questions(path: str | os.PathLike[str]) -> list[Question]:
    """Read a question set; blank lines are skipped, a bad line is refused with its number."""
    file = Path(path)
    out = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput("questions", f"{file}:{number}: {exc.msg}", "JSON lines") from None
        out.append(_question(data, f"{file.name}:{number}"))
    return out
