"""Import files past what Python's JSON reader or a record takes: refused as malformed,
naming where, with nothing imported; the deepest metadata a record may hold still
round-trips."""

from __future__ import annotations

import json
from typing import Any

import pytest

import decisis
from decisis.errors import InvalidInput, MalformedImport
from decisis.exchange import MAX_PAYLOAD_DEPTH
from decisis.model.validation import MAX_METADATA_DEPTH


def _nested(depth: int) -> Any:
    value: Any = {}
    for _ in range(depth - 1):
        value = {"x": value}
    return value


def _refused(graph: decisis.Graph, text: str, field: str, words: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        graph.import_(text)
    assert caught.value.field == field, caught.value
    assert words in str(caught.value), caught.value
    assert list(graph.events()) == []


def _export(**metadata: Any) -> str:
    with decisis.open() as source:
        goal = source.add_goal("a goal", metadata=metadata)
        source.tombstone(goal.id, "done with it")
        return source.export()


def test_a_file_nested_deeper_than_the_reader_goes_is_malformed(graph: decisis.Graph) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    _refused(graph, deep, "file", "nested too deeply to read")
    with pytest.raises(MalformedImport):
        graph.import_(deep)


def test_a_payload_nested_deeper_than_records_can_be_is_malformed(graph: decisis.Graph) -> None:
    document = json.loads(_export())
    document["events"][0]["payload"]["extra"] = _nested(MAX_PAYLOAD_DEPTH)
    _refused(graph, json.dumps(document), "events[0].payload", f"{MAX_PAYLOAD_DEPTH} levels")


def test_a_whole_number_too_long_to_read_is_malformed(graph: decisis.Graph) -> None:
    text = _export(n=1).replace('"n": 1', '"n": ' + "9" * 5000)
    _refused(graph, text, "file", "too long to read")


def test_a_tombstone_reason_with_a_nul_is_refused_on_import(graph: decisis.Graph) -> None:
    text = _export().replace("done with it", "done\\u0000with it")
    _refused(graph, text, "events[1].payload.reason", "NUL")


def test_the_deepest_metadata_a_record_holds_round_trips(graph: decisis.Graph) -> None:
    deepest = _nested(MAX_METADATA_DEPTH - 1)  # the metadata object itself is the first level
    with pytest.raises(InvalidInput, match="nested too deeply"):
        graph.add_goal("one level more", metadata={"deep": {"x": deepest}})
    text = _export(deep=deepest)
    assert graph.import_(text) == 2
    (node,) = graph.nodes(include_tombstoned=True)
    assert node.metadata == {"deep": deepest}
    assert graph.verify().ok
