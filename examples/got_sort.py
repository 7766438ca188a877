"""The GoT paper's sorting example: sort a list by generating attempts, scoring them by
their number of errors, merging the best two and fixing what is left.

    .venv/bin/python examples/got_sort.py                      # a scripted model, offline
    .venv/bin/python examples/got_sort.py --model http://127.0.0.1:8000/v1 --model-name NAME
    .venv/bin/python examples/got_sort.py --record sqlite:///thoughts.db

Without ``--model`` a deterministic scripted model answers (some of its attempts drop
or swap numbers); with it, any OpenAI-compatible server does (needs ``decisis[llm]``).
"""

from __future__ import annotations

import argparse
import random

import decisis
from decisis.got import Machine
from decisis.got.record import record_thoughts
from decisis.got.runner import LLMClient, RunOptions, run_sync
from decisis.got.scripted import ScriptedModel, sorting_answer


def main() -> None:
    parser = argparse.ArgumentParser(description="Sort a list with Graph-of-Thoughts.")
    parser.add_argument("--model", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--model-name", default="default")
    parser.add_argument("--size", type=int, default=16, help="how many numbers to sort")
    parser.add_argument("--record", help="store URL to keep the thoughts in, e.g. sqlite:///t.db")
    args = parser.parse_args()

    rng = random.Random(7)
    numbers = [rng.randrange(10) for _ in range(args.size)]
    client: LLMClient
    if args.model:
        from decisis.got.clients import OpenAIClient

        client = OpenAIClient(args.model_name, base_url=args.model)
    else:
        client = ScriptedModel(sorting_answer())
    machine = Machine(max_nodes=50, max_depth=6, aggregation_strategy="synthesis", task="sort")
    machine = run_sync(machine, str(numbers), client, RunOptions(timeout=60, retries=2))

    print(f"input:  {numbers}")
    print(f"status: {machine.status()} ({machine.termination}) {machine.error or ''}")
    if machine.result is not None:
        print(f"result: {machine.result.content}  (errors: {-(machine.result.score or 0):g})")
        for thought in machine.trace_path(machine.result.id):
            op = thought.metadata.get("op", "prompt")
            print(f"  {thought.id:>2} {op:<9} score {thought.score}  {thought.content}")
    if args.record:
        with decisis.open(args.record, graph="got-sort") as graph:
            ids = record_thoughts(graph, machine)
            print(f"recorded {len(ids)} thoughts; ledger intact: {graph.verify().ok}")


if __name__ == "__main__":
    main()
