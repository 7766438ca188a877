"""Graph-of-Thoughts machine: cost per transition, JSON round trip, helper scaling.

    .venv/bin/python bench/bench_got.py [--quick] [--rounds N]

1. Transition overhead on a 1,000-thought machine. Because a machine is an
   immutable value, the same transition can be timed again and again on the same
   machine: a streamed piece, a reply that leaves the operation waiting, the last
   reply of an operation (commit three thoughts, keep the best, render and issue
   the next three calls), and a stale reply. Beside them, in the same rounds: a
   copy of a 1,000-entry dict plus one entry (what "immutable" costs when done by
   copying) and a plain in-place dict insert (the floor). The last column divides
   each median by the copy's, which moves less than the microseconds when the
   machine is shared. Target: median <= 50 us per transition.
2. ``to_map`` + ``json.dumps`` and ``json.loads`` + ``from_map`` of a 10,000-thought
   machine. Target: <= 200 ms each.
3. Helpers at 1k / 10k / 100k thoughts (a random DAG, ~1.1 edges per thought):
   ns per (thought + edge) should stay flat if they are linear.

``--count last --repeat N`` runs only that transition N times, untimed: under
``valgrind --tool=callgrind``, (total at N - total at 0) / N is its cost in
instructions, a number the machine's load does not move.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable

from bench_core_common import interleave, machine_line, ms, print_table, stats

from decisis.got import (
    CallModel,
    Generate,
    KeepBestN,
    LLMPartial,
    LLMResult,
    Machine,
    Operation,
    Score,
    Start,
    Thought,
)
from decisis.got.graph import ThoughtGraph
from decisis.got.scripted import drive
from decisis.got.thoughts import EdgeKind, ThoughtEdge

TRANSITION_TARGET_NS = 50_000
COPY_BASELINE = "baseline: copy 1,000-entry dict + 1"
COUNTED = {  # --count name: its row
    "partial": "partial (stream piece)",
    "waiting": "reply, op still waiting",
    "last": "last reply: commit + next op",
    "stale": "stale reply (ignored)",
}
ROUND_TRIP_TARGET_NS = 200_000_000


def us(ns: float) -> str:
    return f"{ns / 1000:.1f}"


def waiting_machine(size: int, answered: int = 2) -> tuple[Machine, list[CallModel]]:
    """A machine with ``size`` thoughts, waiting on 3 generate calls, ``answered`` of
    them already answered."""
    steps: list[Operation] = [Generate(3), KeepBestN(1)]
    plan: list[Operation] = [Generate(size - 1), Score(), KeepBestN(1), *steps * 3]
    machine, directives = Machine(max_nodes=10 * size, plan=plan).update(Start("q", "b"))
    pending = [d for d in directives if isinstance(d, CallModel)]
    while pending:
        call = pending.pop(0)
        reply = "7" if call.purpose == "score" else f"thought {call.call_id}"
        machine, directives = machine.update(LLMResult(call.call_id, reply))
        if len(machine.graph) >= size + 3:
            break
        pending += [d for d in directives if isinstance(d, CallModel)]
    calls = [d for d in directives if isinstance(d, CallModel)]
    for call in calls[:answered]:
        machine, _ = machine.update(LLMResult(call.call_id, f"thought {call.call_id}"))
    return machine, calls


def transition_subjects() -> tuple[dict[str, Callable[[], object]], int]:
    """The timed transitions and baselines by row name, each a call that repeats the same
    transition on the same (immutable) machine; and the machine's size in thoughts."""
    machine, calls = waiting_machine(1000)
    last = calls[2].call_id
    assert machine.pending_calls == [last], machine.pending_calls
    assert len(machine.update(LLMResult(last, "x"))[1]) == 3  # it commits and issues 3 calls
    partial = LLMPartial(last, "tok")
    reply = LLMResult(last, "a new thought")
    stale = LLMResult("b/0", "late")
    sample = {f"k{i}": i for i in range(1000)}
    mutable = dict(sample)
    subjects: dict[str, Callable[[], object]] = {
        "partial (stream piece)": lambda: machine.update(partial),
        "last reply: commit + next op": lambda: machine.update(reply),
        "stale reply (ignored)": lambda: machine.update(stale),
        COPY_BASELINE: lambda: {**sample, "new": 1},
        "baseline: in-place dict insert": lambda: mutable.__setitem__("new", 1),
    }
    waiting, _ = waiting_machine(1000, answered=1)
    second = LLMResult(calls[1].call_id, "another thought")
    subjects["reply, op still waiting"] = lambda: waiting.update(second)
    return subjects, len(machine.graph)


def bench_transitions(rounds: int) -> bool:
    subjects, size = transition_subjects()
    times = interleave(subjects, rounds=rounds, per_round=dict.fromkeys(subjects, 200))
    copy = stats(times[COPY_BASELINE])
    rows = []
    ok = True
    for name, samples in times.items():
        s = stats(samples)
        if not name.startswith("baseline"):
            ok &= s.median <= TRANSITION_TARGET_NS
        ratio = f"{s.median / copy.median:.2f}x"
        rows.append([name, us(s.median), us(s.p95), us(s.mean), ratio])
    print(f"\n### Transitions on a {size:,}-thought machine (us)\n")
    print_table(["transition", "median", "p95", "mean", "median / copy"], rows)
    return ok


def big_machine(size: int) -> Machine:
    return drive(Machine(max_nodes=size, plan=[Generate(size - 1)]), "q", lambda c: c.call_id)


def bench_round_trip(size: int, rounds: int) -> bool:
    machine = big_machine(size)
    text = json.dumps(machine.to_map())
    assert Machine.from_map(json.loads(text)) == machine
    times = interleave(
        {
            "to_map + json.dumps": lambda: json.dumps(machine.to_map()),
            "json.loads + from_map": lambda: Machine.from_map(json.loads(text)),
            "baseline: json.loads alone": lambda: json.loads(text),
        },
        rounds=rounds,
    )
    rows = []
    ok = True
    for name, samples in times.items():
        s = stats(samples)
        if not name.startswith("baseline"):
            ok &= s.median <= ROUND_TRIP_TARGET_NS
        rows.append([name, ms(s.median), ms(s.p95)])
    print(f"\n### JSON round trip of a {size:,}-thought machine ({len(text) / 1e6:.1f} MB) (ms)\n")
    print_table(["step", "median", "p95"], rows)
    return ok


def random_machine(size: int, seed: int = 5) -> Machine:
    """A random DAG: each thought derives from one of the 50 before it; 10% also aggregate."""
    rng = random.Random(seed)
    nodes = [Thought(i, f"t{i}", rng.random(), 0) for i in range(size)]
    edges: list[ThoughtEdge] = []
    for i in range(1, size):
        edges.append(
            ThoughtEdge(len(edges), rng.randrange(max(0, i - 50), i), i, EdgeKind.GENERATES)
        )
        if rng.random() < 0.1:
            edges.append(ThoughtEdge(len(edges), rng.randrange(0, i), i, EdgeKind.AGGREGATES))
    data = Machine().to_map()
    data["nodes"] = [t.to_map() for t in nodes]
    data["edges"] = [e.to_map() for e in edges]
    machine = Machine.from_map(data)
    assert machine.graph == ThoughtGraph.build(nodes, edges)
    return machine


def helper_subjects(machine: Machine) -> dict[str, Callable[[], object]]:
    last = len(machine.graph) - 1
    return {
        "find_leaves": machine.find_leaves,
        "find_best_leaf": machine.find_best_leaf,
        "has_cycle": machine.has_cycle,
        "get_descendants(root)": lambda: machine.get_descendants(0),
        "get_ancestors(last)": lambda: machine.get_ancestors(last),
        "to_map": machine.to_map,
    }


def bench_helpers(sizes: list[int], rounds: int) -> None:
    rows = []
    for size in sizes:
        machine = random_machine(size)
        elements = size + len(machine.graph.edges)
        subjects = helper_subjects(machine)
        times = interleave(subjects, rounds=max(1, rounds * 1000 // size))
        for name, samples in times.items():
            s = stats(samples)
            rows.append([f"{size:,}", name, ms(s.median), f"{s.median / elements:.0f}"])
    print("\n### Helpers on random thought DAGs (ms; ns per thought + edge)\n")
    print_table(["thoughts", "helper", "median", "ns/elem"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument(
        "--count",
        choices=sorted(COUNTED),
        help="only run one transition --repeat times, untimed (to count instructions)",
    )
    parser.add_argument("--repeat", type=int, default=1000)
    args = parser.parse_args()
    if args.count:
        subject = transition_subjects()[0][COUNTED[args.count]]
        for _ in range(args.repeat):
            subject()
        return
    rounds = args.rounds or (3 if args.quick else 25)
    print(machine_line())
    ok = bench_transitions(rounds)
    ok &= bench_round_trip(2_000 if args.quick else 10_000, rounds)
    bench_helpers([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000], rounds)
    print(f"\ntargets met: {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
