"""The longest question answering takes, on its own so that a front door can check a
question's length (and a form can say the limit) without loading the answer engine."""

from __future__ import annotations

__all__ = ["MAX_QUESTION_CHARS"]

MAX_QUESTION_CHARS = 4000  # a question, even a pasted paragraph, not a document
