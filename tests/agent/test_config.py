"""Plugin config: defaults, refusals, injection strategies, and a store that fails to open."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from decisis.agent import AgentConfig, AgentMemory, validate_config
from decisis.errors import InvalidInput
from decisis.stores import open_store


def test_defaults_are_filled() -> None:
    config = validate_config({"store": "memory://"})
    assert config == AgentConfig(store="memory://")
    assert (config.decision_limit, config.auto_inject, config.inject_strategy) == (
        5,
        True,
        "first_only",
    )


def test_a_store_object_is_accepted() -> None:
    store = open_store("memory://")
    memory = AgentMemory.open({"store": store, "graph": "g"})
    assert memory.enabled and memory.graph is not None and memory.graph.store is store


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({}, "store"),
        ({"store": ""}, "store"),
        ({"store": 42}, "store"),
        ({"store": "memory://", "decision_limit": 0}, "decision_limit"),
        ({"store": "memory://", "decision_limit": True}, "decision_limit"),
        ({"store": "memory://", "inject_strategy": "sometimes"}, "inject_strategy"),
        ({"store": "memory://", "auto_inject": "yes"}, "auto_inject"),
        ({"store": "memory://", "colour": "red"}, "config"),
    ],
)
def test_bad_configs_are_refused_naming_the_key(raw: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        validate_config(raw)
    assert caught.value.field == field and caught.value.allowed


def test_missing_store_message_is_clear() -> None:
    with pytest.raises(InvalidInput, match="store: is required"):
        validate_config({"decision_limit": 3})


def test_strategies_decide_when_context_is_injected() -> None:
    first = AgentMemory.open({"store": "memory://"})
    assert first.graph is not None
    first.graph.add_goal("Ship auth")
    assert first.context(0) is not None and first.context(1) is None
    every = AgentMemory(
        validate_config({"store": "memory://", "inject_strategy": "every_iteration"}), first.graph
    )
    assert every.context(0) == every.context(3) == first.context(0)
    off = AgentMemory(validate_config({"store": "memory://", "auto_inject": False}), first.graph)
    assert off.context(0) is None and off.summary() is not None
    assert off.system_prompt("Base.") == "Base."
    assert first.system_prompt("Base.").startswith("Base.\n\n## Decision tools")
    assert "## Decision memory" in first.system_prompt("Base.")
    assert first.system_prompt("Base.", iteration=1) == "Base."


def test_the_system_prompt_names_every_tool_and_when_to_use_it() -> None:
    from decisis.agent.tools import TOOLS

    memory = AgentMemory.open({"store": "memory://"})
    prompt = memory.system_prompt("Base.")  # an empty graph: the guide still comes first
    for spec in TOOLS:
        assert f"`{spec.name}`: {spec.when}." in prompt
    assert "at the start" in prompt and "as soon as you decide" in prompt
    assert "when you observe" in prompt


def test_the_system_prompt_says_what_the_context_left_out() -> None:
    memory = AgentMemory(
        validate_config({"store": "memory://", "max_context_tokens": 120}),
        AgentMemory.open({"store": "memory://"}).graph,
    )
    assert memory.graph is not None
    for n in range(30):
        memory.graph.record_decision(f"Decision number {n} about the build pipeline")
    prompt = memory.system_prompt("Base.")
    assert "older decisions not shown" in prompt


def test_a_store_that_fails_to_open_leaves_the_agent_running(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with caplog.at_level(logging.WARNING, logger="decisis.agent"):
        memory = AgentMemory.open({"store": f"sqlite:///{blocker}/sub/d.db"})
    assert not memory.enabled
    assert "disabled" in caplog.text
    result = memory.tools.call("add_goal", {"label": "x"})
    assert result.is_error and "disabled" in result.data["error"]["message"]
    assert memory.context(0) is None
    assert memory.system_prompt("Base.") == f"Base.\n\n{result.data['error']['message']}"
    memory.close()


def test_an_unknown_scheme_also_disables_rather_than_raises() -> None:
    memory = AgentMemory.open({"store": "nosuch://x"})
    assert not memory.enabled and "nosuch" in (memory.tools.disabled_reason or "")


@pytest.mark.parametrize(
    ("raw", "says"), [({}, "store"), ({"store": "memory://", "colour": "red"}, "colour")]
)
def test_a_config_it_cannot_use_warns_and_disables(
    raw: dict[str, object], says: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="decisis.agent"):
        memory = AgentMemory.open(raw)
    assert not memory.enabled and says in caplog.text
    result = memory.tools.call("add_goal", {"label": "x"})
    assert result.data["error"]["type"] == "ToolsDisabled" and says in result.text
    with pytest.raises(InvalidInput):  # checking a config still says what is wrong
        validate_config(raw)
