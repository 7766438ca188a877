"""Tool formats for the OpenAI (Chat Completions, Responses) and Anthropic APIs, and one
dispatcher for calls from any of them."""

from __future__ import annotations

import json

import pytest
from anthropic.types import ToolUseBlock
from openai.types.chat import ChatCompletionMessageFunctionToolCall

from decisis.agent import (
    TOOLS,
    Toolbox,
    anthropic_tools,
    dispatch,
    dispatch_all,
    openai_tools,
    responses_tools,
)


def test_formats_carry_the_same_names_descriptions_and_schemas() -> None:
    for spec, oa, an in zip(TOOLS, openai_tools(), anthropic_tools(), strict=True):
        assert oa == {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.schema,
            },
        }
        assert an == {
            "name": spec.name,
            "description": spec.description,
            "input_schema": spec.schema,
        }


def test_openai_call_object_and_dict_give_a_tool_message(box: Toolbox) -> None:
    call = ChatCompletionMessageFunctionToolCall.model_validate(
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "add_goal", "arguments": '{"label": "Ship"}'},
        }
    )
    message = dispatch(box, call)
    assert message["role"] == "tool" and message["tool_call_id"] == "call_1"
    assert json.loads(message["content"])["goal"]["label"] == "Ship"
    bad = dispatch(box, {"id": "c2", "type": "function", "function": {"name": "add_goal"}})
    assert "label" in json.loads(bad["content"])["error"]["message"]


def test_anthropic_tool_use_gives_a_user_message_with_a_tool_result(box: Toolbox) -> None:
    block = ToolUseBlock(id="toolu_1", name="add_goal", input={"label": "Ship"}, type="tool_use")
    message = dispatch(box, block)
    assert message["role"] == "user"
    [result] = message["content"]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1"
    assert "is_error" not in result and json.loads(result["content"])["goal"]["label"] == "Ship"
    wrong = {"type": "tool_use", "id": "toolu_2", "name": "add_goal", "input": {"lbl": 1}}
    assert dispatch(box, wrong)["content"][0]["is_error"] is True


def test_one_turn_of_anthropic_calls_is_one_user_message(box: Toolbox) -> None:
    calls = [
        {"type": "tool_use", "id": f"toolu_{n}", "name": "add_goal", "input": {"label": f"G{n}"}}
        for n in range(3)
    ]
    [message] = dispatch_all(box, calls)
    assert [b["tool_use_id"] for b in message["content"]] == ["toolu_0", "toolu_1", "toolu_2"]


def test_something_that_is_not_a_tool_call_is_refused(box: Toolbox) -> None:
    with pytest.raises(TypeError, match="not a tool call"):
        dispatch(box, {"role": "assistant"})
    with pytest.raises(TypeError, match="not a tool call"):
        dispatch(box, 42)


def test_the_responses_form_is_what_the_sdk_takes(box: Toolbox) -> None:
    from openai.types.responses import FunctionToolParam, ResponseFunctionToolCall
    from pydantic import TypeAdapter

    checker = TypeAdapter(FunctionToolParam)
    for spec, tool in zip(TOOLS, responses_tools(), strict=True):
        assert checker.validate_python(tool) == tool
        assert (tool["name"], tool["parameters"]) == (spec.name, spec.schema)
    call = ResponseFunctionToolCall.model_validate(
        {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "add_goal",
         "arguments": '{"label": "Ship"}'}
    )  # fmt: skip
    item = dispatch(box, call)
    assert item["type"] == "function_call_output" and item["call_id"] == "call_9"
    assert json.loads(item["output"])["goal"]["label"] == "Ship"


def test_one_turn_of_responses_calls_is_one_item_each_in_order(box: Toolbox) -> None:
    calls = [
        {"type": "function_call", "call_id": f"c{n}", "name": "add_goal",
         "arguments": json.dumps({"label": f"G{n}"})}
        for n in range(3)
    ]  # fmt: skip
    items = dispatch_all(box, calls)
    assert [i["call_id"] for i in items] == ["c0", "c1", "c2"]
    assert all(i["type"] == "function_call_output" for i in items)
