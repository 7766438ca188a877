"""Property tests: the persistent vector behaves like a list, the machine's graph does not
depend on the order replies arrive in, and helpers agree with networkx."""

from __future__ import annotations

import json

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from decisis.got import (
    CallModel,
    EdgeKind,
    Generate,
    LLMResult,
    Machine,
    Operation,
    Refine,
    Score,
    Start,
)
from decisis.got.graph import ThoughtGraph
from decisis.got.pvector import PVector
from decisis.got.thoughts import Thought, ThoughtEdge

ops = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers()),
        st.tuples(st.just("set"), st.integers(min_value=0, max_value=5000), st.integers()),
    ),
    max_size=300,
)


@given(st.lists(st.integers(), max_size=2100), ops)
@settings(max_examples=60, deadline=None)
def test_pvector_behaves_like_a_list_and_old_versions_stay(
    start: list[int], steps: list[tuple[int, ...]]
) -> None:
    model = list(start)
    vector = PVector(start)
    versions = [(vector, list(model))]
    for step in steps:
        if step[0] == "append":
            vector = vector.append(step[1])
            model.append(step[1])
        elif model:
            index = step[1] % len(model)
            vector = vector.set(index, step[2])
            model[index] = step[2]
        versions.append((vector, list(model)))
    for old, expected in versions:
        assert list(old) == expected and len(old) == len(expected)
        if expected:
            assert old[len(expected) - 1] == expected[-1] and old[0] == expected[0]
    assert vector == PVector(model)


@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=20), st.randoms())
@settings(max_examples=50, deadline=None)
def test_any_reply_order_gives_the_same_machine(k_scores: list[int], rnd: object) -> None:
    """Replies of one operation are shuffled; the end state must not change."""
    import random

    assert isinstance(rnd, random.Random)
    plan: list[Operation] = [Generate(3), Score(), Refine(), Score()]
    outcomes = []
    for shuffle in (False, True):
        machine, directives = Machine(plan=plan).update(Start("q", "r"))
        pending = [d for d in directives if isinstance(d, CallModel)]
        while pending:
            if shuffle:
                rnd.shuffle(pending)
            call = pending.pop(0)
            n = int(call.call_id.split("/")[1])
            reply = str(k_scores[n % len(k_scores)]) if call.purpose == "score" else f"t{n}"
            machine, directives = machine.update(LLMResult(call.call_id, reply))
            pending += [d for d in directives if isinstance(d, CallModel)]
        outcomes.append(machine)
    assert outcomes[0] == outcomes[1]
    assert outcomes[0].status() == "completed"
    assert Machine.from_map(json.loads(json.dumps(outcomes[0].to_map()))) == outcomes[0]


edges_strategy = st.integers(min_value=1, max_value=25).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(
                st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(list(EdgeKind))
            ),
            max_size=60,
        ),
    )
)


@given(edges_strategy)
@settings(max_examples=150, deadline=None)
def test_helpers_agree_with_networkx(case: tuple[int, list[tuple[int, int, EdgeKind]]]) -> None:
    n, raw = case
    nodes = [Thought(i, f"t{i}", score=float(i % 4), depth=0) for i in range(n)]
    edges = [ThoughtEdge(i, s, t, kind) for i, (s, t, kind) in enumerate(raw)]
    built = ThoughtGraph.build(nodes, edges)
    grown = ThoughtGraph()
    for thought in nodes:
        grown, _ = grown.add_node(thought.content, 0)
        grown = grown.set_score(thought.id, thought.score or 0.0)
    for edge in edges:
        grown = grown.add_edge(edge.source, edge.target, edge.kind)
    assert grown == built
    reference = nx.MultiDiGraph()
    reference.add_nodes_from(range(n))
    reference.add_edges_from((s, t) for s, t, _ in raw)
    assert built.has_cycle() == (not nx.is_directed_acyclic_graph(reference))
    for node in range(n):
        assert {t.id for t in built.descendants(node)} == nx.descendants(reference, node)
        assert {t.id for t in built.ancestors(node)} == nx.ancestors(reference, node)
        assert {t.id for t in built.children(node)} == set(reference.successors(node))
        assert {t.id for t in built.parents(node)} == set(reference.predecessors(node))
    derived = {s for s, _, kind in raw if kind is not EdgeKind.CONNECTS}
    assert {t.id for t in built.leaves()} == set(range(n)) - derived


def test_pvector_grows_through_several_trie_levels() -> None:
    vector: PVector[int] = PVector()
    for i in range(33 * 1024 + 5):
        vector = vector.append(i)
    assert list(vector) == list(range(33 * 1024 + 5))
    assert vector[32 * 1024] == 32 * 1024 and vector[-1] == 33 * 1024 + 4
    built = PVector(range(33 * 1024 + 5))
    assert built == vector and built.append(-1)[-1] == -1
    changed = vector.set(1057, -5)
    assert changed[1057] == -5 and vector[1057] == 1057


@given(st.lists(st.integers(), max_size=200), st.lists(st.integers(), max_size=200))
def test_pvector_extend_is_appending_each(first: list[int], second: list[int]) -> None:
    extended = PVector(first).extend(second)
    assert list(extended) == first + second and extended == PVector(first + second)
