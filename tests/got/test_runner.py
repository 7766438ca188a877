"""Whole reasoning runs against a local model server over real HTTP, through the official SDKs:
plain and streamed replies, slow (timeout and retry), failed, malformed and out-of-order."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from decisis.errors import InvalidInput, MissingExtra
from decisis.got import Directive, EmitPartial, Generate, Machine, Termination
from decisis.got.clients import AnthropicClient, OpenAIClient, make_client
from decisis.got.runner import RunOptions, run_sync
from decisis.got.scripted import ScriptedModel, drive, text_answer
from tests.got.fake_server import Reply, serve, sorting_script, user_text

FAST = RunOptions(timeout=5.0, retries=1, concurrency=4, backoff=0.01)


def sort_machine() -> Machine:
    return Machine(task="sort", aggregation_strategy="synthesis")


def test_a_sorting_run_over_http_fixes_the_flawed_attempts() -> None:
    with serve(sorting_script) as server:
        client = OpenAIClient("scripted", base_url=server.openai_url)
        machine = run_sync(sort_machine(), "[4, 2, 8, 6]", client, FAST)
    assert machine.termination is Termination.SUCCESS, machine.error
    assert machine.result is not None and json.loads(machine.result.content) == [2, 4, 6, 8]
    assert len(server.requests) == 5  # three attempts, a merge, a fix
    assert machine.usage.prompt_tokens == 50 and machine.usage.completion_tokens == 20
    assert all(body["model"] == "scripted" for body in server.requests)
    assert server.requests[0]["messages"][0]["role"] == "system"


def test_streamed_replies_reach_the_machine_piece_by_piece() -> None:
    seen: list[Directive] = []

    def observe(machine: Machine, directives: Sequence[Directive]) -> None:
        seen.extend(directives)

    with serve(
        lambda body, n: Reply("an idea worth having", prompt_tokens=5, completion_tokens=4)
    ) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        options = RunOptions(timeout=5, retries=0, stream=True)
        machine = run_sync(Machine(plan=[Generate(2)]), "q", client, options, observe=observe)
    assert machine.termination is Termination.SUCCESS
    partials = [d for d in seen if isinstance(d, EmitPartial)]
    assert len(partials) == 8 and partials[3].text == "an idea worth having"
    assert all(body["stream"] is True for body in server.requests)
    assert machine.usage.prompt_tokens == 10  # from the final usage chunk
    assert [t.content for t in machine.get_children(0)] == ["an idea worth having"] * 2


def test_a_slow_reply_times_out_and_the_retry_succeeds() -> None:
    def script(body: dict[str, Any], attempt: int) -> Reply:
        slow = "candidate 1 of" in user_text(body) and attempt == 1
        return Reply("idea", delay=3.0 if slow else 0.0)

    with serve(script) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        options = RunOptions(timeout=0.5, retries=1, backoff=0.01)
        machine = run_sync(Machine(plan=[Generate(2)]), "q", client, options)
    assert machine.termination is Termination.SUCCESS, machine.error
    assert sorted(server.attempts.values()) == [1, 2]


def test_a_reply_slower_than_every_attempt_ends_in_error() -> None:
    with serve(lambda body, n: Reply("late", delay=2.0)) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        options = RunOptions(timeout=0.2, retries=1, backoff=0.01)
        machine = run_sync(Machine(plan=[Generate(1)]), "q", client, options)
    assert machine.status() == "error"
    assert "no reply within 0.2 s (after 2 attempts)" in (machine.error or "")


def test_server_errors_are_retried_then_reported() -> None:
    with serve(lambda body, n: Reply(status=500) if n == 1 else Reply("ok")) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        recovered = run_sync(Machine(plan=[Generate(2)]), "q", client, FAST)
    assert recovered.termination is Termination.SUCCESS and len(server.requests) == 4
    with serve(lambda body, n: Reply(status=500)) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        failed = run_sync(Machine(plan=[Generate(1)]), "q", client, FAST)
    assert failed.status() == "error" and "answered 500" in (failed.error or "")
    assert len(server.requests) == 2
    with serve(lambda body, n: Reply(status=400)) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        refused = run_sync(Machine(plan=[Generate(1)]), "q", client, FAST)
    assert "answered 400" in (refused.error or "") and len(server.requests) == 1  # no retry


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (Reply(raw=b"this is not json"), "malformed reply"),
        (Reply(raw=b'{"choices": "nope"}'), "malformed reply"),
        (Reply(raw=b'{"id": "x", "choices": []}'), "no message text"),
        (Reply("I would rather not sort that"), "malformed generate reply"),
    ],
)
def test_malformed_replies_end_in_the_error_state(reply: Reply, expected: str) -> None:
    with serve(lambda body, n: reply) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        machine = run_sync(sort_machine(), "[3, 1, 2]", client, FAST)
    assert machine.status() == "error" and machine.termination is Termination.ERROR
    assert expected in (machine.error or "")
    # not retried (FAST allows one retry, which would make up to six); calls still in
    # flight when the first malformed reply lands are cancelled, so maybe fewer than three
    assert 1 <= len(server.requests) <= 3


def test_out_of_order_replies_build_the_same_graph_as_in_order_ones() -> None:
    def script(body: dict[str, Any], attempt: int) -> Reply:
        text = user_text(body)
        match = re.search(r"candidate (\d) of", text)
        if match:  # later candidates answer first
            return Reply(f"idea {match.group(1)}", delay=0.2 * (3 - int(match.group(1))))
        if "How good" in text:
            return Reply(str(len(text) % 10))
        return Reply("[[0, 1]]" if "index pairs" in text else "merged")

    with serve(script) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        options = RunOptions(timeout=5, retries=0, concurrency=3)
        machine = run_sync(Machine(aggregation_strategy="synthesis"), "q", client, options)
    assert machine.termination is Termination.SUCCESS, machine.error
    finished = [re.findall(r"candidate (\d) of", text) for text in server.finished[:3]]
    assert finished == [["3"], ["2"], ["1"]]  # the replies did arrive in reverse
    in_order = drive(
        Machine(aggregation_strategy="synthesis"),
        "q",
        lambda call: (
            script(
                {"messages": [{"role": m.role, "content": m.content} for m in call.messages]}, 1
            ).text
        ),
        run_id="x",
    )
    assert [(t.content, t.score, t.depth) for t in machine.get_nodes()] == [
        (t.content, t.score, t.depth) for t in in_order.get_nodes()
    ]
    assert machine.get_edges() == in_order.get_edges()


def test_sibling_calls_run_in_parallel_within_the_bound() -> None:
    with serve(lambda body, n: Reply("idea", delay=0.2)) as server:
        client = OpenAIClient("m", base_url=server.openai_url)
        options = RunOptions(timeout=5, retries=0, concurrency=2)
        run_sync(Machine(plan=[Generate(5)]), "q", client, options)
    assert server.max_in_flight == 2


def test_the_anthropic_client_speaks_the_messages_api() -> None:
    with serve(sorting_script) as server:
        client = AnthropicClient("claude-test", base_url=server.base_url, max_tokens=99)
        plain = run_sync(sort_machine(), "[9, 7, 8]", client, FAST)
        streamed = run_sync(
            sort_machine(), "[9, 7, 8]", client, RunOptions(timeout=5, retries=0, stream=True)
        )
    assert plain.result is not None and json.loads(plain.result.content) == [7, 8, 9]
    assert streamed.to_map()["nodes"] == plain.to_map()["nodes"]
    first = server.requests[0]
    assert first["model"] == "claude-test" and first["max_tokens"] == 99
    assert first["system"].startswith("You sort lists")
    assert [m["role"] for m in first["messages"]] == ["user"]
    assert plain.usage.prompt_tokens == 50


def test_the_scripted_model_is_an_llm_client_too() -> None:
    model = ScriptedModel(text_answer())
    machine = run_sync(Machine(), "q", model, RunOptions(stream=True))
    assert machine.termination is Termination.SUCCESS
    assert [c.purpose for c in model.calls] == ["generate"] * 3 + ["score"] * 3 + ["connect"]


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    monkeypatch.setitem(sys.modules, "anthropic", None)
    for provider in ("openai", "anthropic"):
        with pytest.raises(MissingExtra) as caught:
            make_client(provider, "m")
        assert caught.value.extra == "llm" and "decisis[llm]" in str(caught.value)
    with pytest.raises(InvalidInput):
        make_client("nope", "m")


def test_a_started_machine_cannot_be_run_again() -> None:
    done = drive(Machine(plan=[Generate(1)]), "q", text_answer())
    with pytest.raises(InvalidInput):
        run_sync(done, "q", ScriptedModel(text_answer()))
