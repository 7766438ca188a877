"""The shortcuts the transitions take for speed give the same values as the plain ways."""

from __future__ import annotations

import dataclasses
from string import Template
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decisis.got import DEFAULT_PROMPTS, CallModel, ChatMessage, EdgeKind, ThoughtGraph
from decisis.got.prompts import render
from decisis.got.pvector import PVector
from decisis.got.thoughts import Thought, ThoughtEdge, Usage

# Every class whose __init__ is written out with slot setters (decisis.got._slots).
HAND_BUILT: dict[type, tuple[Any, ...]] = {
    Thought: (3, "idea", 0.5, 2, {"op": "generate"}),
    ThoughtEdge: (1, 0, 3, EdgeKind.REFINES),
    Usage: (10, 20, 2),
    ChatMessage: ("user", "hello"),
    CallModel: ("run/0", (ChatMessage("user", "hi"),), "generate"),
    ThoughtGraph: (PVector([Thought(0, "root")]), PVector(), PVector([()]), PVector([()])),
}


@pytest.mark.parametrize("cls", list(HAND_BUILT), ids=lambda cls: cls.__name__)
def test_hand_written_inits_set_every_field_and_stay_frozen(cls: type) -> None:
    args = HAND_BUILT[cls]
    value = cls(*args)
    names = [f.name for f in dataclasses.fields(cls)]
    assert [getattr(value, name) for name in names] == list(args)
    assert value == dataclasses.replace(value)
    assert value == cls(**dict(zip(names, args, strict=True)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, names[0], args[0])


def test_defaults_are_the_dataclass_defaults() -> None:
    first, second = Thought(0, "a"), Thought(1, "b")
    assert (first.score, first.depth, first.metadata) == (None, 0, {})
    assert first.metadata is not second.metadata  # a fresh dict each, like default_factory
    assert Usage() == Usage(0, 0, 0) and ThoughtGraph() == ThoughtGraph.build([], [])


names = st.sampled_from(["prompt", "thought", "k", "number", "other", "Prompt", "_x1"])
pieces = st.one_of(
    st.text(alphabet="ab {}%()[]\n\\$", max_size=6),
    names.map(lambda n: f"${n}"),
    names.map(lambda n: "${" + n + "}"),
    st.sampled_from(["$$", "$", "$ ", "${", "${}", "$1", "%s", "%(prompt)s", "%%"]),
)
values = st.dictionaries(
    st.sampled_from(["prompt", "thought", "k", "number"]),
    st.one_of(st.text(alphabet="xy%${}()", max_size=5), st.integers(), st.floats(0, 9)),
)


@given(st.lists(pieces, max_size=12).map("".join), values)
@settings(max_examples=300, deadline=None)
def test_render_fills_templates_as_safe_substitute_does(
    template: str, filled: dict[str, object]
) -> None:
    prompts = DEFAULT_PROMPTS.replace(generate=template)
    system, user = render(prompts, "generate", filled)
    assert system == ChatMessage("system", DEFAULT_PROMPTS.system)
    expected = Template(template).safe_substitute({k: str(v) for k, v in filled.items()})
    assert user == ChatMessage("user", expected)


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("$thought", "(1, 2)"),
        ("no placeholder, 100%", "no placeholder, 100%"),
        ("$k $x", "(1, 2) $x"),
    ],
)
def test_render_takes_a_lone_value_as_it_is(template: str, expected: str) -> None:
    """A template with one placeholder is filled without ``itemgetter``, which would hand
    ``%`` a tuple value bare; a missing one stays as written."""
    prompts = DEFAULT_PROMPTS.replace(generate=template)
    _, user = render(prompts, "generate", {"thought": (1, 2), "k": (1, 2)})
    assert user == ChatMessage("user", expected)


@given(st.lists(st.integers(), max_size=1200), st.lists(st.integers(min_value=0), max_size=40))
@settings(max_examples=60, deadline=None)
def test_take_is_indexing_each(items: list[int], picks: list[int]) -> None:
    vector = PVector(items)
    indexes = [p % len(items) for p in picks] if items else []
    assert vector.take(indexes) == [vector[i] for i in indexes] == [items[i] for i in indexes]
    assert list(vector) == items
    with pytest.raises(IndexError):
        vector.take([len(items)])


@given(
    st.integers(min_value=1, max_value=70),
    st.lists(
        st.tuples(st.lists(st.integers(min_value=0), min_size=1, max_size=3), st.booleans()),
        max_size=40,
    ),
)
@settings(max_examples=60, deadline=None)
def test_add_derived_is_adding_each_thought_and_edge(
    size: int, derived: list[tuple[list[int], bool]]
) -> None:
    graph = ThoughtGraph()
    for i in range(size):
        graph, _ = graph.add_node(f"t{i}", 0)
    one_by_one = graph
    batch: list[tuple[str, int, dict[str, Any], list[int], EdgeKind]] = []
    for n, (raw, refine) in enumerate(derived):
        sources = sorted({s % size for s in raw})
        kind = EdgeKind.REFINES if refine else EdgeKind.AGGREGATES
        batch.append((f"d{n}", 1, {"n": n}, sources, kind))
        one_by_one, node = one_by_one.add_node(f"d{n}", 1, {"n": n})
        for source in sources:
            one_by_one = one_by_one.add_edge(source, node.id, kind)
    built, thoughts = graph.add_derived(batch)
    assert built == one_by_one
    assert [t.id for t in thoughts] == list(range(size, size + len(derived)))
