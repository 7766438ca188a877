"""An agent loop with decision memory, on the official ``openai`` client.

The model gets the decision tools; every tool call it makes is run against the store;
the system prompt carries the decision context (active goals, recent decisions), so a
later turn, or a later run, sees where the work stands. Each run is recorded.

    OPENAI_API_KEY=... .venv/bin/python examples/agent_loop.py "Plan the login feature"
    .venv/bin/python examples/agent_loop.py --base-url http://127.0.0.1:8000/v1 --model NAME "..."

A local OpenAI-compatible server (``--base-url``) needs no key: ``OPENAI_API_KEY`` is used
when set, else a placeholder the server ignores.

Needs ``decisis[llm]`` (the openai client).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from openai import OpenAI

from decisis.agent import AgentMemory, dispatch, openai_tools

SYSTEM = (
    "You are a careful software engineer. Record goals, decisions (with the options you "
    "chose and rejected) and outcomes with the decisis tools as you work, and ask "
    "current_decision before you build on an earlier choice."
)


def run_agent(
    client: OpenAI, memory: AgentMemory, task: str, *, model: str, max_turns: int = 8
) -> str:
    """Call the model until it answers without tools; returns its last text."""
    messages: list[Any] = [
        {"role": "system", "content": memory.system_prompt(SYSTEM, 0)},
        {"role": "user", "content": task},
    ]
    tools: Any = openai_tools()  # plain JSON Schema dicts, as the API takes them
    with memory.recorder.run(agent="agent_loop", role="task", label=task[:200]) as run:
        for turn in range(max_turns):
            if turn and memory.config.inject_strategy == "every_iteration":
                messages[0] = {"role": "system", "content": memory.system_prompt(SYSTEM, turn)}
            with run.span(f"model turn {turn}"):
                reply = client.chat.completions.create(model=model, messages=messages, tools=tools)
            message = reply.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            if not message.tool_calls:
                return message.content or ""
            messages += [dispatch(memory.tools, call) for call in message.tool_calls]
        return "(stopped: too many turns)"


def main() -> None:
    parser = argparse.ArgumentParser(description="An agent loop with decision memory.")
    parser.add_argument("task", help="what to ask the agent to do")
    parser.add_argument("--store", default="sqlite:///agent-decisions.db")
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--base-url", help="an OpenAI-compatible server instead of OpenAI")
    parser.add_argument("--every-turn", action="store_true", help="refresh context every turn")
    args = parser.parse_args()
    strategy = "every_iteration" if args.every_turn else "first_only"
    memory = AgentMemory.open({"store": args.store, "inject_strategy": strategy})
    try:
        if args.base_url:  # a local server takes any key; the client insists on one
            key = os.environ.get("OPENAI_API_KEY") or "local-server-needs-no-key"
            client = OpenAI(base_url=args.base_url, api_key=key)
        else:
            client = OpenAI()
        print(run_agent(client, memory, args.task, model=args.model))
    finally:
        memory.close()


if __name__ == "__main__":
    main()
