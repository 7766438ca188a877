"""Plugin config and the agent-side memory it opens.

``validate_config`` fills the defaults and refuses what it cannot use, naming the
key and what is allowed. ``AgentMemory.open`` never stops an agent: a config it cannot
use (no store, a bad key) or a store that fails to open gives tools that answer
"disabled" and one logged warning saying why.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from decisis.agent.context import DEFAULT_MAX_TOKENS, build_context
from decisis.agent.recorder import Recorder
from decisis.agent.tools import Toolbox, tool_guide
from decisis.errors import DecisisError, InvalidInput
from decisis.graph import Graph
from decisis.stores import Store

__all__ = ["INJECT_STRATEGIES", "AgentConfig", "AgentMemory", "validate_config"]

log = logging.getLogger("decisis.agent")

INJECT_STRATEGIES = ("first_only", "every_iteration")
_KEYS = {"store", "graph", "agent", "decision_limit", "auto_inject", "inject_strategy"} | {
    "max_context_tokens"
}


@dataclass(frozen=True)
class AgentConfig:
    """A checked config; build it with ``validate_config``."""

    store: str | Store
    graph: str = "default"
    agent: str | None = None
    decision_limit: int = 5
    auto_inject: bool = True
    inject_strategy: Literal["first_only", "every_iteration"] = "first_only"
    max_context_tokens: int = DEFAULT_MAX_TOKENS


def _positive(raw: Mapping[str, Any], key: str, default: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(key, f"{value!r} is not a positive whole number", ">= 1")
    return value


def validate_config(raw: Mapping[str, Any]) -> AgentConfig:
    """Check a plugin config and fill its defaults; ``store`` (a URL or a store) is required."""
    unknown = set(raw) - _KEYS
    if unknown:
        raise InvalidInput("config", f"unknown keys {sorted(unknown)}", _KEYS)
    store = raw.get("store")
    if not store or not isinstance(store, str | Store):
        raise InvalidInput(
            "store",
            "is required: where decisions are kept",
            "a store URL (sqlite:///path/to/file.db, memory://, postgresql://...) or a Store",
        )
    strategy = raw.get("inject_strategy", "first_only")
    if strategy not in INJECT_STRATEGIES:
        raise InvalidInput("inject_strategy", f"{strategy!r} is not a strategy", INJECT_STRATEGIES)
    auto = raw.get("auto_inject", True)
    if not isinstance(auto, bool):
        raise InvalidInput("auto_inject", f"{auto!r} is not true or false", "true, false")
    graph = raw.get("graph", "default")
    agent = raw.get("agent")
    if not isinstance(graph, str) or (agent is not None and not isinstance(agent, str)):
        raise InvalidInput("graph", "graph and agent must be text", "a name")
    return AgentConfig(
        store=store,
        graph=graph,
        agent=agent,
        decision_limit=_positive(raw, "decision_limit", 5),
        auto_inject=auto,
        inject_strategy=strategy,
        max_context_tokens=_positive(raw, "max_context_tokens", DEFAULT_MAX_TOKENS),
    )


class AgentMemory:
    """What an agent gets from its config: the toolbox, the context, and a run recorder."""

    def __init__(
        self, config: AgentConfig, graph: Graph | None, disabled_reason: str | None = None
    ) -> None:
        self.config = config
        self.graph = graph
        self.tools = Toolbox(graph, disabled_reason=disabled_reason)
        self.recorder = Recorder(graph)

    @classmethod
    def open(cls, config: AgentConfig | Mapping[str, Any]) -> AgentMemory:
        """Open the configured store; on failure (a config it cannot use, a store that does
        not open), warn and return memory with tools disabled."""
        if isinstance(config, AgentConfig):
            checked = config
        else:
            try:
                checked = validate_config(config)
            except InvalidInput as exc:
                log.warning("decisis memory is disabled: the config is not usable (%s)", exc)
                return cls(AgentConfig(store=""), None, f"the config is not usable ({exc})")
        try:
            if isinstance(checked.store, str):
                from decisis.graph import open as open_graph

                graph = open_graph(checked.store, checked.graph, agent=checked.agent)
            else:
                graph = Graph(checked.store, checked.graph, agent=checked.agent)
        except (DecisisError, OSError) as exc:
            log.warning("decisis memory is disabled: the store did not open (%s)", exc)
            return cls(checked, None, f"the store did not open ({exc})")
        return cls(checked, graph)

    @property
    def enabled(self) -> bool:
        return self.graph is not None

    def close(self) -> None:
        if self.graph is not None:
            self.graph.close()

    def context(self, iteration: int = 0) -> str | None:
        """The context to inject at this iteration (0 = first), per ``auto_inject`` and strategy."""
        if self.graph is None or not self.config.auto_inject:
            return None
        if iteration > 0 and self.config.inject_strategy == "first_only":
            return None
        return self.summary()

    def summary(self) -> str | None:
        """The context summary, whatever the strategy says (``None`` when disabled or empty)."""
        if self.graph is None:
            return None
        try:
            return build_context(
                self.graph,
                decision_limit=self.config.decision_limit,
                max_tokens=self.config.max_context_tokens,
            )
        except DecisisError as exc:
            log.warning("decisis context left out: %s", exc)
            return None

    def system_prompt(self, base: str, iteration: int = 0) -> str:
        """``base`` with, when due (``auto_inject`` and the strategy), the guide to the
        decision tools (each and when to use it, from the tool specs) and the decision
        context, which says what it left out to stay within ``max_context_tokens``. With
        the memory disabled, one line says so and why."""
        if not self.config.auto_inject:
            return base
        if iteration > 0 and self.config.inject_strategy == "first_only":
            return base
        if self.graph is None:
            return f"{base}\n\n{self.tools.disabled_note()}"
        parts = [base, tool_guide(), self.summary()]
        return "\n\n".join(part for part in parts if part)
