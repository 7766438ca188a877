"""Deterministic "models" for tests, examples and benchmarks: no network, same answers
every time.

``drive`` runs a machine synchronously against a function from a ``CallModel``
directive to a reply; ``ScriptedModel`` wraps such a function as an async
``LLMClient`` for the runner. ``sorting_answer`` plays a model that sorts badly
at first (some attempts drop or swap numbers) and well when merging or fixing,
which is the shape of the GoT paper's sorting example.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Sequence

from .machine import Machine
from .messages import CallModel, ChatMessage, LLMResult, ModelReply, Start
from .runner import DeltaCallback
from .tasks import parse_number_list

__all__ = ["Answer", "ScriptedModel", "drive", "sorting_answer", "text_answer"]

Answer = Callable[[CallModel], str | ModelReply]


def drive(machine: Machine, prompt: str, answer: Answer, run_id: str = "run") -> Machine:
    """Run ``machine`` to the end, answering each call in the order it was issued."""
    machine, directives = machine.update(Start(prompt, run_id))
    queue = deque(d for d in directives if isinstance(d, CallModel))
    while queue:
        call = queue.popleft()
        machine, directives = machine.update(LLMResult(call.call_id, answer(call)))
        queue.extend(d for d in directives if isinstance(d, CallModel))
    return machine


def _user_text(messages: Sequence[ChatMessage]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


def sorting_answer() -> Answer:
    """Sort the first list in the prompt; of every three ``generate`` calls, one is right,
    one drops the last number, one swaps the first two. Merging and fixing are right."""
    attempts = itertools.count()

    def answer(call: CallModel) -> str:
        numbers = sorted(parse_number_list(_user_text(call.messages)))
        if call.purpose == "generate":
            flaw = next(attempts) % 3
            if flaw == 1:
                numbers = numbers[:-1]
            elif flaw == 2 and len(numbers) > 1:
                numbers[0], numbers[1] = numbers[1], numbers[0]
        return str(numbers)

    return answer


def text_answer() -> Answer:
    """Answers for the ``text`` task: numbered ideas, scores that favour later ideas,
    a link from the first listed thought to the second, a combined answer."""
    counter = itertools.count(1)

    def answer(call: CallModel) -> str:
        n = next(counter)
        if call.purpose == "score":
            return str(min(10, n))
        if call.purpose == "connect":
            return "[[0, 1]]"
        if call.purpose == "aggregate":
            return f"combined answer {n}"
        return f"{call.purpose} idea {n}"

    return answer


class ScriptedModel:
    """An ``LLMClient`` that answers from a function; streams its answer word by word
    when asked to, and counts a token per word."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.calls: list[CallModel] = []

    async def complete(
        self, messages: Sequence[ChatMessage], *, on_delta: DeltaCallback | None = None
    ) -> ModelReply:
        call = CallModel(f"scripted/{len(self.calls)}", tuple(messages), _purpose(messages))
        self.calls.append(call)
        reply = self.answer(call)
        if isinstance(reply, ModelReply):
            return reply
        if on_delta is not None:
            for word in reply.split(" "):
                on_delta(word + " ", "text")
        prompt_tokens = sum(len(m.content.split()) for m in messages)
        return ModelReply(reply, prompt_tokens, len(reply.split()))


def _purpose(messages: Sequence[ChatMessage]) -> str:
    """Guess the kind of call from the default and sorting prompts' wording."""
    text = _user_text(messages)
    for word, purpose in (
        ("Merge them", "aggregate"),
        ("Combine the strengths", "aggregate"),
        ("may have mistakes", "refine"),
        ("Improve this thought", "refine"),
        ("How good is this thought", "score"),
        ("index pairs", "connect"),
    ):
        if word in text:
            return purpose
    return "generate"
