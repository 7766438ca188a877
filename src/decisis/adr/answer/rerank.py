"""A model that reranks the best starts: off unless the user configures one.

Shown the question and the titles and decisions of the best starts (``TOP``), a configured
language model names the record that answers it, or none. Its pick is one more feature of the
candidates (``model``, weighed by ``AnswerSettings``), a voter like the others, not a verdict:
the walk, the checks and the gate still decide. The engine never needs it.

    from decisis.adr.answer.rerank import use_reranker
    use_reranker(make_client("openai", "my-model", base_url="http://127.0.0.1:8000/v1"))

``decisis ask QUESTION --model URL`` does the same for one question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from decisis.adr.link.view import AdrView

if TYPE_CHECKING:  # the model's messages are imported only when a reranker is used
    from decisis.got.messages import ChatMessage
    from decisis.got.runner import LLMClient

__all__ = ["TOP", "ModelReranker", "active_reranker", "forget_reranker", "use_reranker"]

TOP = 5  # the best starts a model is shown
MAX_DECISION_CHARS = 600
_SYSTEM = (
    "You answer which architecture decision record answers an engineer's question. You are "
    "given the question and numbered records. Reply with the key of the one record that "
    "answers it, or NONE when none does, and nothing else."
)
_ACTIVE: list[ModelReranker] = []


class ModelReranker:
    """One model client, and how many starts it is shown."""

    def __init__(self, client: LLMClient, top: int = TOP) -> None:
        self.client = client
        self.top = top
        self.asked = 0
        self.failed = 0

    def _prompt(self, view: AdrView, question: str, keys: Sequence[str]) -> list[ChatMessage]:
        from decisis.got.messages import ChatMessage

        lines = []
        for key in keys:
            node = view.records[key]
            summary = " ".join(str(view.meta(key).get("summary") or "").split())
            lines.append(f"{key}: {node.label}. {summary[:MAX_DECISION_CHARS]}")
        listed = "\n".join(lines)
        return [
            ChatMessage("system", _SYSTEM),
            ChatMessage("user", f"Question: {question}\n\nRecords:\n{listed}"),
        ]

    def pick(self, view: AdrView, question: str, keys: Sequence[str]) -> str | None:
        """The record of ``keys`` the model says answers ``question``, or ``None`` (none, or
        a failed call: a reranker that cannot answer changes nothing)."""
        if not keys:
            return None
        self.asked += 1
        try:
            import asyncio  # a reranker's call only: asyncio costs 30 ms to import

            reply = asyncio.run(self.client.complete(self._prompt(view, question, keys)))
        except Exception:  # a model that is down must not stop an answer
            self.failed += 1
            return None
        said = {k.lower(): k for k in keys}
        for token in re.findall(r"[\w.:-]+", reply.text.lower()):
            if token in said:
                return said[token]
        return None


def use_reranker(client: LLMClient, top: int = TOP) -> ModelReranker:
    """Rerank with ``client`` for the questions of this process."""
    _ACTIVE[:] = [ModelReranker(client, top)]
    return _ACTIVE[0]


def forget_reranker() -> None:
    _ACTIVE.clear()


def active_reranker() -> ModelReranker | None:
    return _ACTIVE[0] if _ACTIVE else None
