"""Answering "what do we do about X today?": one question read once, one ranker over
features, named checks, the walk to what stands, and abstention from one calibrated score."""

from decisis.adr.answer.engine import ask, consider, decide, prepare
from decisis.adr.answer.render import MAX_QUESTION_CHARS, NOTHING_INGESTED, Answer, check_question
from decisis.adr.answer.settings import DEFAULT_SETTINGS, AnswerSettings

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
