"""What goes into the machine (messages) and what comes out (directives).

The machine never calls a model. It answers each message with directives that
say what should happen next; a runner (or a test) carries them out and feeds the
replies back as messages. Everything here is a frozen value, so a run can be
logged, replayed and compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ._slots import slot_setters

__all__ = [
    "CallModel",
    "ChatMessage",
    "Complete",
    "Directive",
    "EmitPartial",
    "Fail",
    "Input",
    "LLMFailed",
    "LLMPartial",
    "LLMResult",
    "ModelReply",
    "Start",
    "Termination",
]


class Termination(StrEnum):
    """Why a run ended."""

    SUCCESS = "success"
    ERROR = "error"
    MAX_NODES = "max_nodes"
    MAX_DEPTH = "max_depth"


@dataclass(frozen=True, slots=True, init=False)
class ChatMessage:
    """One message of a chat request (``role`` is system, user or assistant)."""

    role: str
    content: str

    def __init__(self, role: str, content: str) -> None:
        set_role, set_content = _CHAT_SLOTS  # one per model call: see decisis.got._slots
        set_role(self, role)
        set_content(self, content)


_CHAT_SLOTS = slot_setters(ChatMessage)


@dataclass(frozen=True, slots=True)
class ModelReply:
    """A finished model reply with the tokens it cost (0 when the server does not say)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


# -- messages -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Start:
    """Begin a run on ``prompt``; ``call_id`` names the run and prefixes every call id."""

    prompt: str
    call_id: str


@dataclass(frozen=True, slots=True)
class LLMResult:
    """The finished reply to call ``call_id``: a ``ModelReply`` (or bare text, no usage)."""

    call_id: str
    result: object


@dataclass(frozen=True, slots=True)
class LLMPartial:
    """A streamed piece of call ``call_id``; ``chunk_type`` "text" grows the stream,
    "reset" clears it (a retry starts over), anything else (e.g. "reasoning") is passed on."""

    call_id: str
    delta: str
    chunk_type: str = "text"


@dataclass(frozen=True, slots=True)
class LLMFailed:
    """Call ``call_id`` failed for good (the runner gave up retrying)."""

    call_id: str
    reason: str


Input = Start | LLMResult | LLMPartial | LLMFailed


# -- directives -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True, init=False)
class CallModel:
    """Ask the model ``messages``; reply with ``LLMResult(call_id, …)``.

    ``purpose`` (generate, refine, score, connect, aggregate) is for display and logs.
    """

    call_id: str
    messages: tuple[ChatMessage, ...]
    purpose: str

    def __init__(self, call_id: str, messages: tuple[ChatMessage, ...], purpose: str) -> None:
        set_call_id, set_messages, set_purpose = _CALL_SLOTS  # see decisis.got._slots
        set_call_id(self, call_id)
        set_messages(self, messages)
        set_purpose(self, purpose)


_CALL_SLOTS = slot_setters(CallModel)


@dataclass(frozen=True, slots=True)
class EmitPartial:
    """Streamed text to show now; ``text`` is the whole stream of the call so far."""

    call_id: str
    delta: str
    chunk_type: str
    text: str


@dataclass(frozen=True, slots=True)
class Complete:
    """The run finished: the best thought's ``content`` and id, and why it stopped."""

    result: str
    node_id: int
    reason: Termination


@dataclass(frozen=True, slots=True)
class Fail:
    """The run stopped on an error; ``reason`` says what went wrong."""

    reason: str


Directive = CallModel | EmitPartial | Complete | Fail
