"""``LLMClient`` adapters over the official SDKs: OpenAI-compatible endpoints and Anthropic.

Both need the ``llm`` extra (``pip install 'decisis[llm]'``); without it, building a
client raises ``MissingExtra`` naming the extra. The SDKs' own retries are turned
off (``max_retries=0``): the runner owns timeouts and retries, so they are the
same for every client. SDK errors become ``ModelError`` with ``retryable`` set for
timeouts, lost connections, 408/409/429 and 5xx replies.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from decisis.errors import InvalidInput, MissingExtra

from .messages import ChatMessage, ModelReply
from .runner import DeltaCallback, LLMClient, ModelError

__all__ = ["AnthropicClient", "OpenAIClient", "make_client"]

EXTRA = "llm"
_RETRY_STATUS = {408, 409, 429}


def _translate(
    exc: Exception, status_error: type[Exception], connection_error: type[Exception]
) -> ModelError:
    """An SDK exception as a ``ModelError`` that says whether to retry."""
    if isinstance(exc, status_error):
        status = int(getattr(exc, "status_code", 0))
        retryable = status in _RETRY_STATUS or status >= 500
        return ModelError(f"the model server answered {status}: {exc}", retryable=retryable)
    if isinstance(exc, connection_error):
        return ModelError(f"cannot reach the model server: {exc}", retryable=True)
    return ModelError(f"the model call failed: {exc}", retryable=False)


# What the SDKs raise, outside their own error classes, on a body that is not the
# expected JSON (a decode error, a validation error, a string where an object was due).
_MALFORMED = (ValueError, TypeError, AttributeError, KeyError)


def _malformed(exc: Exception) -> ModelError:
    return ModelError(f"the model server sent a malformed reply: {exc!r}", retryable=False)


class OpenAIClient:
    """Chat completions on any OpenAI-compatible server (``base_url`` such as
    ``http://127.0.0.1:8000/v1`` for local servers)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        try:
            import openai
        except ImportError:
            raise MissingExtra("the OpenAI-compatible model client", EXTRA) from None
        self._sdk = openai
        self.model = model
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "not-needed",
            timeout=timeout,
            max_retries=0,
        )
        self._params: dict[str, Any] = {}
        if temperature is not None:
            self._params["temperature"] = temperature
        if max_tokens is not None:
            self._params["max_tokens"] = max_tokens

    async def complete(
        self, messages: Sequence[ChatMessage], *, on_delta: DeltaCallback | None = None
    ) -> ModelReply:
        chat: Any = [{"role": m.role, "content": m.content} for m in messages]
        sdk = self._sdk
        try:
            if on_delta is None:
                return await self._whole(chat)
            return await self._streamed(chat, on_delta)
        except sdk.OpenAIError as exc:
            raise _translate(exc, sdk.APIStatusError, sdk.APIConnectionError) from exc
        except _MALFORMED as exc:
            raise _malformed(exc) from exc

    async def _whole(self, chat: Any) -> ModelReply:
        response = await self._client.chat.completions.create(
            model=self.model, messages=chat, **self._params
        )
        if not response.choices or response.choices[0].message.content is None:
            raise ModelError("the reply has no message text", retryable=False)
        usage = response.usage
        return ModelReply(
            response.choices[0].message.content,
            usage.prompt_tokens if usage else 0,
            usage.completion_tokens if usage else 0,
        )

    async def _streamed(self, chat: Any, on_delta: DeltaCallback) -> ModelReply:
        stream = await self._client.chat.completions.create(
            model=self.model,
            messages=chat,
            stream=True,
            stream_options={"include_usage": True},
            **self._params,
        )
        pieces: list[str] = []
        prompt_tokens = completion_tokens = 0
        async for chunk in stream:
            if chunk.usage is not None:
                prompt_tokens = chunk.usage.prompt_tokens
                completion_tokens = chunk.usage.completion_tokens
            for choice in chunk.choices[:1]:
                reasoning = getattr(choice.delta, "reasoning_content", None)
                if isinstance(reasoning, str) and reasoning:
                    on_delta(reasoning, "reasoning")
                if choice.delta.content:
                    pieces.append(choice.delta.content)
                    on_delta(choice.delta.content, "text")
        return ModelReply("".join(pieces), prompt_tokens, completion_tokens)


class AnthropicClient:
    """The Anthropic Messages API (``base_url`` for a proxy or a compatible server)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_tokens: int = 1024,
        temperature: float | None = None,
    ) -> None:
        try:
            import anthropic
        except ImportError:
            raise MissingExtra("the Anthropic model client", EXTRA) from None
        self._sdk = anthropic
        self.model = model
        self.max_tokens = max_tokens
        self._client = anthropic.AsyncAnthropic(
            base_url=base_url,
            api_key=api_key or os.environ.get("ANTHROPIC_API_KEY") or "not-needed",
            timeout=timeout,
            max_retries=0,
        )
        self._params: dict[str, Any] = {}
        if temperature is not None:
            self._params["temperature"] = temperature

    def _request(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        """Anthropic takes the system prompt apart from the turns."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": turns,
            **self._params,
        }
        if system:
            request["system"] = system
        return request

    async def complete(
        self, messages: Sequence[ChatMessage], *, on_delta: DeltaCallback | None = None
    ) -> ModelReply:
        sdk = self._sdk
        request = self._request(messages)
        try:
            if on_delta is None:
                message = await self._client.messages.create(**request)
            else:
                async with self._client.messages.stream(**request) as stream:
                    async for text in stream.text_stream:
                        on_delta(text, "text")
                    message = await stream.get_final_message()
            text = "".join(block.text for block in message.content if block.type == "text")
            return ModelReply(text, message.usage.input_tokens, message.usage.output_tokens)
        except sdk.AnthropicError as exc:
            raise _translate(exc, sdk.APIStatusError, sdk.APIConnectionError) from exc
        except _MALFORMED as exc:
            raise _malformed(exc) from exc


PROVIDERS = ("openai", "anthropic")


def make_client(
    provider: str,
    model: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 60.0,
) -> LLMClient:
    """A client for ``provider`` (``openai`` for any OpenAI-compatible server, or
    ``anthropic``)."""
    if provider == "openai":
        return OpenAIClient(model, base_url=base_url, api_key=api_key, timeout=timeout)
    if provider == "anthropic":
        return AnthropicClient(model, base_url=base_url, api_key=api_key, timeout=timeout)
    raise InvalidInput("provider", f"{provider!r} is unknown", PROVIDERS)
