"""Carry out a machine's directives with a language model.

The runner is the only part of ``decisis.got`` with side effects. It sends every
``CallModel`` directive to an ``LLMClient`` (in parallel, at most ``concurrency``
at once, so sibling thoughts are generated together), bounds each attempt with a
timeout, retries what may succeed on a second try, and feeds replies, streamed
pieces and final failures back into the machine one at a time, from one queue.
The machine alone decides what happens next.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from decisis.errors import DecisisError, InvalidInput

from .machine import Machine
from .messages import (
    CallModel,
    ChatMessage,
    Directive,
    Input,
    LLMFailed,
    LLMPartial,
    LLMResult,
    ModelReply,
    Start,
)
from .thoughts import Phase

__all__ = ["DeltaCallback", "LLMClient", "ModelError", "RunOptions", "run", "run_sync"]

DeltaCallback = Callable[[str, str], None]
"""Called with ``(delta, chunk_type)`` for each streamed piece of a reply."""


class ModelError(DecisisError):
    """A model call failed; ``retryable`` says whether trying again may help
    (timeouts, connection errors, 429 and 5xx replies)."""

    def __init__(self, message: str, *, retryable: bool) -> None:
        self.retryable = retryable
        super().__init__(message)


@runtime_checkable
class LLMClient(Protocol):
    """One chat model. ``complete`` returns the whole reply; when ``on_delta`` is given
    and the client streams, it also reports the pieces as they come. Failures are
    raised as ``ModelError``."""

    async def complete(
        self, messages: Sequence[ChatMessage], *, on_delta: DeltaCallback | None = None
    ) -> ModelReply: ...


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How calls are made: seconds per attempt, retries after the first attempt, calls
    in flight at once, the first pause between attempts (doubling), streaming."""

    timeout: float = 60.0
    retries: int = 2
    concurrency: int = 4
    backoff: float = 0.5
    stream: bool = False


Observer = Callable[[Machine, Sequence[Directive]], None]


async def _call(
    client: LLMClient,
    directive: CallModel,
    options: RunOptions,
    limit: asyncio.Semaphore,
    queue: asyncio.Queue[Input],
) -> None:
    """Make one call with timeout and retries; always ends by queueing exactly one
    ``LLMResult`` or ``LLMFailed``."""
    call_id = directive.call_id
    streamed = False

    def on_delta(delta: str, chunk_type: str) -> None:
        nonlocal streamed
        streamed = True
        queue.put_nowait(LLMPartial(call_id, delta, chunk_type))

    reason = "no attempt was made"
    async with limit:
        for attempt in range(options.retries + 1):
            if attempt:
                await asyncio.sleep(options.backoff * 2 ** (attempt - 1))
                if streamed:
                    queue.put_nowait(LLMPartial(call_id, "", "reset"))
            try:
                reply = await asyncio.wait_for(
                    client.complete(
                        directive.messages, on_delta=on_delta if options.stream else None
                    ),
                    options.timeout,
                )
            except TimeoutError:
                reason = f"no reply within {options.timeout:g} s"
                continue
            except ModelError as exc:
                reason = str(exc)
                if exc.retryable:
                    continue
                break
            queue.put_nowait(LLMResult(call_id, reply))
            return
    attempts = "attempt" if options.retries == 0 else f"{options.retries + 1} attempts"
    queue.put_nowait(LLMFailed(call_id, f"{reason} (after {attempts})"))


async def run(
    machine: Machine,
    prompt: str,
    client: LLMClient,
    options: RunOptions | None = None,
    *,
    run_id: str | None = None,
    observe: Observer | None = None,
) -> Machine:
    """Run ``machine`` on ``prompt`` to the end and return the final machine.

    ``observe(machine, directives)`` sees every state, e.g. to draw progress.
    Calls still in flight when the run ends are cancelled.
    """
    if machine.phase is not Phase.IDLE:
        raise InvalidInput("machine", f"is {machine.status()}", "a machine that has not started")
    options = options or RunOptions()
    queue: asyncio.Queue[Input] = asyncio.Queue()
    limit = asyncio.Semaphore(max(1, options.concurrency))
    calls: set[asyncio.Task[None]] = set()
    machine, directives = machine.update(Start(prompt, run_id or uuid.uuid4().hex[:12]))
    try:
        while True:
            if observe is not None:
                observe(machine, directives)
            for directive in directives:
                if isinstance(directive, CallModel):
                    calls.add(asyncio.create_task(_call(client, directive, options, limit, queue)))
            if machine.phase in (Phase.COMPLETED, Phase.ERROR) or not machine.pending_calls:
                return machine
            machine, directives = machine.update(await queue.get())
    finally:
        for task in calls:
            task.cancel()
        await asyncio.gather(*calls, return_exceptions=True)


def run_sync(
    machine: Machine,
    prompt: str,
    client: LLMClient,
    options: RunOptions | None = None,
    *,
    run_id: str | None = None,
    observe: Observer | None = None,
) -> Machine:
    """``run`` for callers without an event loop (the CLI, scripts)."""
    return asyncio.run(run(machine, prompt, client, options, run_id=run_id, observe=observe))
