"""Bad input is refused at the model, naming the field and what is allowed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import decisis
from decisis.errors import InvalidInput
from decisis.model import (
    Edge,
    EdgeType,
    Node,
    NodeStatus,
    NodeType,
    format_time,
    new_id,
    parse_time,
    utc_now,
)
from decisis.model.ids import ID_LENGTH
from decisis.model.validation import MAX_LABEL_LENGTH, MAX_METADATA_DEPTH


def make_node(**overrides: object) -> Node:
    now = utc_now()
    fields: dict[str, object] = {
        "id": new_id(),
        "type": "decision",
        "label": "Use JWT",
        "status": "active",
        "recorded_at": now,
        "updated_at": now,
        "valid_from": now,
    }
    fields.update(overrides)
    return Node(**fields)  # type: ignore[arg-type]


def test_round_trip_through_dict() -> None:
    node = make_node(confidence=0.5, metadata={"k": [1, "x", None]}, rationale="why")
    assert Node.from_dict(node.to_dict()) == node
    assert node.type is NodeType.DECISION and node.status is NodeStatus.ACTIVE


def test_ids_are_time_ordered_and_unique() -> None:
    ids = [new_id() for _ in range(2000)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(len(i) == ID_LENGTH for i in ids)


@pytest.mark.parametrize(
    ("overrides", "field", "allowed"),
    [
        ({"type": "gaol"}, "type", "decision"),
        ({"status": "done"}, "status", "superseded"),
        ({"confidence": 1.5}, "confidence", "0.0 to 1.0"),
        ({"confidence": float("nan")}, "confidence", "0.0 to 1.0"),
        ({"confidence": "high"}, "confidence", "0.0 to 1.0"),
        ({"label": "   "}, "label", "1 to 500"),
        ({"label": "x" * (MAX_LABEL_LENGTH + 1)}, "label", f"at most {MAX_LABEL_LENGTH}"),
        ({"label": 42}, "label", None),
        ({"label": "a\x00b"}, "label", "NUL"),
        ({"metadata": {"x": float("inf")}}, "metadata", "finite"),
        ({"metadata": {1: "x"}}, "metadata", "text keys"),
        ({"metadata": {"f": object()}}, "metadata", "JSON data"),
        ({"metadata": "not an object"}, "metadata", "a JSON object"),
        ({"id": "not-an-id"}, "id", "base32"),
    ],
)
def test_bad_values_are_refused_with_field_and_allowed(
    overrides: dict[str, object], field: str, allowed: str | None
) -> None:
    with pytest.raises(InvalidInput) as caught:
        make_node(**overrides)
    assert caught.value.field == field
    if allowed is not None:
        assert allowed in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_deeply_nested_and_oversized_metadata_are_refused() -> None:
    deep: dict[str, object] = {}
    cursor = deep
    for _ in range(MAX_METADATA_DEPTH + 2):
        cursor["d"] = {}
        cursor = cursor["d"]  # type: ignore[assignment]
    with pytest.raises(InvalidInput, match="nested too deeply"):
        make_node(metadata=deep)
    with pytest.raises(InvalidInput, match="bytes as JSON"):
        make_node(metadata={"blob": "x" * 70_000})


def test_metadata_is_data_not_attributes() -> None:
    node = make_node(metadata={"__class__": "evil", "__init__": {"x": 1}, "id": "other"})
    assert node.id != "other" and node.metadata["__class__"] == "evil"


def test_valid_window_must_not_run_backwards() -> None:
    now = utc_now()
    with pytest.raises(InvalidInput, match="before valid_from"):
        make_node(valid_from=now, valid_until=now - timedelta(seconds=1))


def test_edge_cannot_join_a_node_to_itself() -> None:
    now, node_id = utc_now(), new_id()
    with pytest.raises(InvalidInput, match="itself"):
        Edge(new_id(), EdgeType.LEADS_TO, node_id, node_id, now, now, now)
    with pytest.raises(InvalidInput) as caught:
        Edge(new_id(), "becomes", node_id, new_id(), now, now, now)  # type: ignore[arg-type]
    assert "supersedes" in str(caught.value)


@pytest.mark.parametrize(
    "text", ["2026-11-01", "2026-11-01T12:00Z", "2026-11-01T12:00:00+01:00", "2026-11-01 12:00"]
)
def test_timestamps_in_common_forms(text: str) -> None:
    assert parse_time(text).tzinfo is not None


def test_bad_timestamp_says_what_is_allowed() -> None:
    with pytest.raises(InvalidInput, match="ISO 8601"):
        parse_time("yesterday")


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_a_timestamp_past_the_first_or_last_utc_time_is_refused(text: str) -> None:
    """Its offset takes it outside what a UTC time can be (was an OverflowError: a 500 from
    the API's ``/at``, a traceback from ``decisis at``)."""
    with pytest.raises(InvalidInput, match="out of range") as caught:
        parse_time(text, "when")
    assert caught.value.field == "when" and "9999-12-31" in str(caught.value.allowed)
    edge = datetime.min if text.startswith("0001") else datetime.max
    assert parse_time(text, clamp=True) == edge.replace(tzinfo=UTC)  # for looking back at
    aware = datetime.fromisoformat(text)  # the same moment given as a datetime
    with pytest.raises(InvalidInput, match="out of range"):
        parse_time(aware, "valid_from")
    with decisis.open("memory://") as graph:
        with pytest.raises(InvalidInput, match="valid_from"):  # was an OverflowError
            graph.add_goal("Ship", valid_from=aware)
        assert graph.at(aware).as_of == edge.replace(tzinfo=UTC)


def test_times_before_the_year_1000_keep_four_digits(tmp_path: Path) -> None:
    """``format_time`` wrote year 503 as "503-…", which no reader takes back: recording a
    node valid from then was refused with an error about a text the caller never wrote."""
    assert format_time(parse_time("0503-01-01")) == "0503-01-01T00:00:00.000000Z"
    assert format_time(parse_time("2026-11-01T12:00Z")) == "2026-11-01T12:00:00.000000Z"
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as graph:
        node = graph.add_goal("Keep the Roman roads", valid_from="0503-01-01")
        assert graph.get(node.id).valid_from == parse_time("0503-01-01")
        assert graph.verify().ok
