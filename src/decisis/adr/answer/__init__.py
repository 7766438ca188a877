"""Answering "what do we do about X today?": one question read once, one ranker over
features, named checks, the walk to what stands, and abstention from one calibrated score.

Names are loaded on first use (as ``decisis.adr`` loads its own): a module of the package
that needs none of the engine (``tokens``, ``limits``) is imported without it, and so
without numpy and the link rules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decisis.adr.answer.engine import ask, consider, decide, prepare
    from decisis.adr.answer.limits import MAX_QUESTION_CHARS
    from decisis.adr.answer.render import NOTHING_INGESTED, Answer, check_question
    from decisis.adr.answer.settings import DEFAULT_SETTINGS, AnswerSettings

_WHERE = {
    "DEFAULT_SETTINGS": "decisis.adr.answer.settings",
    "MAX_QUESTION_CHARS": "decisis.adr.answer.limits",
    "NOTHING_INGESTED": "decisis.adr.answer.render",
    "Answer": "decisis.adr.answer.render",
    "AnswerSettings": "decisis.adr.answer.settings",
    "ask": "decisis.adr.answer.engine",
    "check_question": "decisis.adr.answer.render",
    "consider": "decisis.adr.answer.engine",
    "decide": "decisis.adr.answer.engine",
    "prepare": "decisis.adr.answer.engine",
}

__all__ = [
    "DEFAULT_SETTINGS",
    "MAX_QUESTION_CHARS",
    "NOTHING_INGESTED",
    "Answer",
    "AnswerSettings",
    "ask",
    "check_question",
    "consider",
    "decide",
    "prepare",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'decisis.adr.answer' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value
