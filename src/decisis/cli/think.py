"""``decisis think``: a Graph-of-Thoughts run against a model, with a progress display.

Progress goes to stderr, so stdout holds only the answer (or JSON with ``--json``).
A run that ends in the error state is reported like any other decisis error.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from decisis.cli.state import get_state

if TYPE_CHECKING:
    from rich.status import Status

    from decisis.got import Directive, Machine
    from decisis.got.state import Strategy

__all__ = ["register", "think"]

_KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


def _api_key(provider: str, env: str | None) -> str | None:
    """The key from ``--api-key-env VAR`` (which must be set), else the provider's usual one."""
    from decisis.errors import InvalidInput

    if env is None:
        return os.environ.get(_KEY_ENV.get(provider, ""))
    if not os.environ.get(env):
        raise InvalidInput("--api-key-env", f"{env} is not set", "an environment variable")
    return os.environ[env]


def _progress(status: Status) -> Any:
    """An observer that redraws one status line per machine state."""

    def observe(machine: Machine, directives: Sequence[Directive]) -> None:
        tail = " ".join(machine.streaming_text.split())[-60:]
        usage = machine.usage
        status.update(
            f"{machine.status()} · {len(machine.graph)} thoughts · {usage.calls} calls · "
            f"{usage.total_tokens} tokens" + (f" · {tail}" if tail else "")
        )

    return observe


def _path_map(machine: Machine) -> list[dict[str, Any]]:
    result = machine.result
    return [t.to_map() for t in machine.trace_path(result.id)] if result else []


def _print(machine: Machine) -> None:
    from rich.text import Text

    from decisis.cli.render import console, visible

    out = console()
    result = machine.result
    assert result is not None
    out.print(Text(visible(result.content, lines=True), style="bold"))  # a model's words
    out.print(Text(f"\npath ({machine.termination}):", style="dim"))
    for thought in machine.trace_path(result.id):
        score = "" if thought.score is None else f" score {thought.score:g}"
        op = thought.metadata.get("op", "prompt")
        line = " ".join(thought.content.split())
        shown = Text(visible(line[:200]))
        out.print(Text(f"  {thought.id:>3} {visible(str(op))}{score}: ", style="dim") + shown)
    usage = machine.usage
    out.print(Text(f"{usage.calls} calls, {usage.total_tokens} tokens", style="dim"))


def think(
    ctx: typer.Context,
    prompt: Annotated[str, typer.Argument(help="The question or task to reason about.")],
    model: Annotated[
        str,
        typer.Option(
            "--model", help="Base URL of the model server, e.g. http://localhost:8000/v1."
        ),
    ],
    model_name: Annotated[
        str, typer.Option("--model-name", help="Model name sent to the server.")
    ] = "default",
    api_key_env: Annotated[
        str | None,
        typer.Option(
            "--api-key-env",
            help="Environment variable holding the API key "
            "(default: OPENAI_API_KEY or ANTHROPIC_API_KEY).",
        ),
    ] = None,
    provider: Annotated[
        str,
        typer.Option(
            "--provider", help="Wire format: openai (any compatible server) or anthropic."
        ),
    ] = "openai",
    task: Annotated[
        str, typer.Option("--task", help="Task: text, or sort (the GoT paper's).")
    ] = "text",
    strategy: Annotated[
        str, typer.Option("--strategy", help="Aggregation: voting, weighted or synthesis.")
    ] = "voting",
    max_nodes: Annotated[int, typer.Option("--max-nodes", help="Most thoughts in a run.")] = 100,
    max_depth: Annotated[int, typer.Option("--max-depth", help="Deepest thought in a run.")] = 10,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per model call.")] = 60.0,
    retries: Annotated[int, typer.Option("--retries", help="Retries of a failed call.")] = 2,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Calls at once.")] = 4,
    stream: Annotated[bool, typer.Option("--stream/--no-stream", help="Stream replies.")] = True,
    record: Annotated[
        bool, typer.Option("--record", help="Keep the thoughts in the graph's ledger.")
    ] = False,
) -> None:
    """Reason about PROMPT with a Graph-of-Thoughts run; print the best thought and its path."""
    from decisis.cli.render import console
    from decisis.got import Machine
    from decisis.got.clients import make_client
    from decisis.got.runner import ModelError, RunOptions, run_sync

    state = get_state(ctx)
    machine = Machine(max_nodes, max_depth, cast("Strategy", strategy), task=task)
    client = make_client(
        provider,
        model_name,
        base_url=model,
        api_key=_api_key(provider, api_key_env),
        timeout=timeout,
    )
    options = RunOptions(timeout=timeout, retries=retries, concurrency=concurrency, stream=stream)
    with console(stderr=True).status("starting") as status:
        machine = run_sync(machine, prompt, client, options, observe=_progress(status))
    recorded = None
    if record:
        from decisis.got.record import record_thoughts

        recorded = record_thoughts(state.graph, machine)
    if machine.error is not None:
        raise ModelError(f"the reasoning run failed: {machine.error}", retryable=False)
    if state.json:
        from decisis.cli.jsonout import emit

        emit(_json(machine, recorded))
    else:
        _print(machine)


def _json(machine: Machine, recorded: dict[int, str] | None) -> dict[str, Any]:
    usage = machine.usage
    result = machine.result
    return {
        "status": machine.status(),
        "termination": machine.termination.value if machine.termination else None,
        "result": result.to_map() if result else None,
        "path": _path_map(machine),
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "calls": usage.calls,
        },
        "recorded": {str(k): v for k, v in recorded.items()} if recorded else None,
    }


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(think)
