"""A local model server for tests: real HTTP on 127.0.0.1, replies from a script.

It speaks enough of two wire formats for the official SDKs: OpenAI chat
completions (``/v1/chat/completions``, JSON or SSE streaming) and Anthropic
messages (``/v1/messages``, JSON or SSE streaming). The script is a function from
(request body, attempt number for this prompt) to a ``Reply``, which can be slow,
fail with a status, or send a raw malformed body.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from decisis.got.tasks import parse_number_list


@dataclass(frozen=True)
class Reply:
    text: str = ""
    delay: float = 0.0
    status: int = 200
    raw: bytes | None = None
    prompt_tokens: int = 3
    completion_tokens: int = 2


Script = Callable[[dict[str, Any], int], Reply]


def user_text(body: dict[str, Any]) -> str:
    turns = [m for m in body.get("messages", []) if m.get("role") == "user"]
    content = turns[-1]["content"] if turns else ""
    return content if isinstance(content, str) else json.dumps(content)


class FakeModelServer:
    """Serves one script; records every request, the order replies finished in, and the
    most requests it had in flight at once."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.finished: list[str] = []
        self.attempts: Counter[str] = Counter()
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.fake = self
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def openai_url(self) -> str:
        return self.base_url + "/v1"

    def reply_for(self, body: dict[str, Any]) -> Reply:
        key = user_text(body)
        with self.lock:
            self.requests.append(body)
            self.attempts[key] += 1
            attempt = self.attempts[key]
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        return self.script(body, attempt)

    def done(self, body: dict[str, Any]) -> None:
        with self.lock:
            self.in_flight -= 1
            self.finished.append(user_text(body))


@contextmanager
def serve(script: Script) -> Iterator[FakeModelServer]:
    server = FakeModelServer(script)
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


class _Server(ThreadingHTTPServer):
    fake: FakeModelServer


class _Handler(BaseHTTPRequestHandler):
    """Answers from the ``FakeModelServer`` attached to the HTTP server as ``fake``."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        assert isinstance(self.server, _Server)
        fake = self.server.fake
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        reply = fake.reply_for(body)
        try:
            time.sleep(reply.delay)
            self._answer(body, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout): nothing to answer
        finally:
            fake.done(body)

    def _answer(self, body: dict[str, Any], reply: Reply) -> None:
        if reply.status != 200:
            error = {"error": {"message": "scripted failure", "type": "server_error"}}
            self._send(reply.status, json.dumps(error).encode(), "application/json")
        elif reply.raw is not None:
            self._send(200, reply.raw, "application/json")
        else:
            anthropic = self.path.endswith("/messages")
            build = _anthropic if anthropic else _openai
            whole, events = build(body, reply)
            if body.get("stream"):
                self._send(200, _sse(events).encode(), "text/event-stream")
            else:
                self._send(200, json.dumps(whole).encode(), "application/json")

    def _send(self, status: int, data: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


Event = tuple[str | None, dict[str, Any] | str]


def _sse(events: list[Event]) -> str:
    lines = []
    for name, data in events:
        payload = data if isinstance(data, str) else json.dumps(data)
        lines.append((f"event: {name}\n" if name else "") + f"data: {payload}\n\n")
    return "".join(lines)


def _openai(body: dict[str, Any], reply: Reply) -> tuple[dict[str, Any], list[Event]]:
    """The chat completion, and the same as stream chunks ending with usage and [DONE]."""
    usage = {
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "total_tokens": reply.prompt_tokens + reply.completion_tokens,
    }
    base = {"id": "c1", "created": 0, "model": body.get("model", "m")}
    message = {"role": "assistant", "content": reply.text}
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    whole = {**base, "object": "chat.completion", "choices": [choice], "usage": usage}
    chunk = {**base, "object": "chat.completion.chunk"}
    events: list[Event] = []
    for word in _pieces(reply.text):
        delta = {"index": 0, "delta": {"content": word}, "finish_reason": None}
        events.append((None, {**chunk, "choices": [delta]}))
    events.append((None, {**chunk, "choices": [], "usage": usage}))
    events.append((None, "[DONE]"))
    return whole, events


def _anthropic(body: dict[str, Any], reply: Reply) -> tuple[dict[str, Any], list[Event]]:
    """The message, and the same as the Messages API's stream of events."""
    usage = {"input_tokens": reply.prompt_tokens, "output_tokens": reply.completion_tokens}
    message = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", "m"),
        "stop_reason": "end_turn", "stop_sequence": None, "usage": usage,
    }  # fmt: skip
    whole = {**message, "content": [{"type": "text", "text": reply.text}]}
    start = {**message, "content": [], "stop_reason": None}
    block = {"type": "text", "text": ""}
    events: list[Event] = [
        ("message_start", {"type": "message_start", "message": start}),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        ),
    ]
    for word in _pieces(reply.text):
        delta = {"type": "text_delta", "text": word}
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})
        )
    stop = {"stop_reason": "end_turn", "stop_sequence": None}
    final = {"type": "message_delta", "usage": {"output_tokens": reply.completion_tokens}}
    events += [
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {**final, "delta": stop}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return whole, events


def sorting_script(body: dict[str, Any], attempt: int) -> Reply:
    """Right answers, except that generation prompts get a list with the last number dropped."""
    text = user_text(body)
    numbers = sorted(parse_number_list(text))
    if text.startswith("Sort this list"):
        numbers = numbers[:-1]
    return Reply(str(numbers), prompt_tokens=10, completion_tokens=4)


def _pieces(text: str) -> list[str]:
    words = text.split(" ")
    return [word + " " for word in words[:-1]] + words[-1:]
