"""Every decision tool, called with arguments of the types its JSON Schema names but any
values (ids that exist, prefixes, unknown ids, control characters, very long text, numbers
out of range), gives a result or a decisis error naming what was wrong: never a Python
error from inside, and the ledger stays intact."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import decisis
from decisis.adr.link.ingest import ingest
from decisis.agent import TOOLS, Toolbox
from tests.agent.conftest import write_adrs

# What a refusal may be: the argument check, or a decisis error the graph raised.
REFUSALS = {"InvalidArguments", "InvalidInput", "NotFound", "Conflict", "AmbiguousId"}


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Toolbox, list[str]]]:
    folder = tmp_path_factory.mktemp("tools")
    with decisis.open(f"sqlite:///{folder / 'tools.db'}", graph="fuzz") as graph:
        ingest(graph, write_adrs(folder))
        goal = graph.add_goal("Ship the builds")
        decision = graph.record_decision("Use hosted runners", goal=goal.id)
        ids = [goal.id, decision.id, goal.id[:8], decision.id[:10], "team:002", "zz", "0"]
        yield Toolbox(graph), ids


def _values(schema: dict[str, Any], defs: dict[str, Any], ids: list[str]) -> Any:
    """A strategy for the values a JSON Schema's type admits, not only the valid ones."""
    if "$ref" in schema:
        return _values(defs[schema["$ref"].split("/")[-1]], defs, ids)
    if "anyOf" in schema:
        return st.one_of(*(_values(s, defs, ids) for s in schema["anyOf"]))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "string":
        odd = st.text(alphabet="\x00\n\t\u202e<>\"'{}\\", max_size=12)
        return st.one_of(st.sampled_from(ids), st.text(max_size=40), odd, st.just("x" * 5000))
    if kind in ("number", "integer"):
        return st.integers(min_value=-5, max_value=2**70) | st.floats(-1, 2, allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(_values(schema.get("items", {"type": "string"}), defs, ids), max_size=3)
    return st.none()


@pytest.mark.parametrize("spec", TOOLS, ids=[spec.name for spec in TOOLS])
def test_any_typed_arguments_give_a_result_or_a_refusal(
    box: tuple[Toolbox, list[str]], spec: Any
) -> None:
    toolbox, ids = box
    schema = spec.schema
    defs = schema.get("$defs", {})
    fields = {k: _values(v, defs, ids) for k, v in schema.get("properties", {}).items()}

    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(st.fixed_dictionaries({}, optional=fields))
    def call(arguments: dict[str, Any]) -> None:
        result = toolbox.call(spec.name, arguments)
        if result.is_error:
            assert result.data["error"]["type"] in REFUSALS, result.data

    call()
    assert toolbox.graph is not None and toolbox.graph.verify().ok
