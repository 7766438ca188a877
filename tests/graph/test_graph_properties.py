"""The ``Graph`` API called with any arguments (ids that exist, prefixes, unknown ids, times
past year 1 or 9999, NUL, very long text, wrong types, lists where one value goes and one
value where a list goes) gives a result or a decisis error naming what was wrong: never a
Python error from inside; the ledger stays intact whatever was refused.

What it found: ``events(None)`` and ``nodes(statuses=True)`` were ``TypeError``s from inside,
and a timezone-aware ``datetime`` just after year 1 an ``OverflowError`` at the store.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import decisis
from decisis.errors import DecisisError

METHODS = [
    "add_goal",
    "record_decision",
    "record_outcome",
    "link",
    "supersede",
    "update",
    "tombstone",
    "why",
    "impact",
    "current",
    "search",
    "nodes",
    "edges",
    "recent_decisions",
    "path_between",
    "get",
    "get_edge",
    "history",
    "events",
    "at",
    "goal_trees",
]
# What the write verbs pass on to the node or edge they make (``**fields``).
FIELDS = ["confidence", "rationale", "metadata", "agent", "valid_from", "valid_until", "status"]


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[decisis.Graph]:
    path: Path = tmp_path_factory.mktemp("graph") / "g.db"
    with decisis.open(f"sqlite:///{path}") as graph:
        yield graph


def _arguments(ids: list[str]) -> st.SearchStrategy[Any]:
    odd = [
        "0001-01-01T00:00+01:00",
        "9999-12-31T23:59-01:00",
        "0503-01-01",
        "decision",
        "supersedes",
        "x" * 5000,
        "\x00",
        " ",
    ]
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True),
        st.text(max_size=20),
        st.sampled_from(ids + odd),
        st.lists(st.text(max_size=5) | st.sampled_from(["goal", "active"]), max_size=3),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    )


def _call(method: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, ...]]:
    """Arguments ``method`` takes, with any values: each required one, some of the others
    (by name), and for the verbs that pass fields on, some of those."""
    params = list(inspect.signature(getattr(decisis.Graph, method)).parameters.values())[1:]
    positional = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    required = [p for p in positional if p.default is p.empty]
    keywords = [p for p in params if p.kind is p.KEYWORD_ONLY]
    must = {p.name: values for p in keywords if p.default is p.empty}  # "decision=" of outcomes
    names = [p.name for p in keywords if p.default is not p.empty]
    names += [p.name for p in positional if p.default is not p.empty]
    if any(p.kind is p.VAR_KEYWORD for p in params):
        names += FIELDS
    optional = st.dictionaries(st.sampled_from(names), values, max_size=3) if names else st.just({})
    return st.tuples(
        st.just(method),
        st.lists(values, min_size=len(required), max_size=len(required)),
        st.tuples(st.fixed_dictionaries(must), optional).map(lambda two: {**two[1], **two[0]}),
    )


def test_any_arguments_give_a_result_or_a_decisis_error(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Ship the payments service")
    first = graph.record_decision("Use JWT tokens", goal=goal.id)
    second = graph.record_decision("Use server sessions", goal=goal.id)
    ids = [goal.id, first.id, second.id, goal.id[:6], "0" * 26]

    values = _arguments(ids)

    @settings(
        max_examples=600,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.one_of(*(_call(method, values) for method in METHODS)))
    def call(drawn: tuple[str, list[Any], dict[str, Any]]) -> None:
        method, args, kwargs = drawn
        function = getattr(graph, method)
        try:
            result = function(*args, **kwargs)
            if inspect.isgenerator(result) or isinstance(result, Iterator):
                list(result)
            if isinstance(result, decisis.Graph):
                result.goal_trees()
        except DecisisError:
            pass
        except TypeError as error:  # a field an edge does not have ("status" to ``link``)
            assert method == "link" and "unexpected keyword argument" in str(error), error

    call()
    assert graph.verify().ok
