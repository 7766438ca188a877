"""Rows read back into records: the generated readers give what was written, and a row
that cannot be read (only tampering makes one) is an IntegrityError naming the record."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from decisis.errors import IntegrityError
from decisis.model import Edge, EdgeType, LinkState, Node, NodeStatus, NodeType, new_id
from decisis.stores.row_records import reached_from_rows
from decisis.stores.sqlite.rows import edge_from_row, edge_values, node_from_row, node_values

AT = datetime(2024, 5, 1, 12, 30, 15, 123456, tzinfo=UTC)
N1, N2, E1 = new_id(), new_id(), new_id()


def _node(**changes: object) -> Node:
    fields: dict[str, object] = {
        "id": N1,
        "type": NodeType.DECISION,
        "label": "Use Postgres",
        "status": NodeStatus.ACTIVE,
        "recorded_at": AT,
        "updated_at": AT,
        "valid_from": AT,
    }
    return Node(**(fields | changes))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "node",
    [
        _node(),
        _node(
            valid_until=datetime(2025, 1, 1, tzinfo=UTC),
            confidence=0.25,
            rationale="because",
            metadata={"adr": {"key": "x:001"}, "tags": ["a"]},
            agent="planner",
            tombstoned_at=AT,
            tombstone_reason="wrong",
        ),
    ],
)
def test_a_node_row_reads_back_as_the_node(node: Node) -> None:
    assert node_from_row(node_values(node)) == node


def test_an_edge_row_reads_back_as_the_edge() -> None:
    edge = Edge(
        id=E1,
        type=EdgeType.SUPERSEDES,
        source=N2,
        target=N1,
        recorded_at=AT,
        updated_at=AT,
        valid_from=AT,
        state=LinkState.CANDIDATE,
        confidence=0.5,
        metadata={"rule": "cited"},
    )
    assert edge_from_row(edge_values(edge)) == edge


def test_extra_columns_after_the_fields_are_ignored() -> None:
    node = _node()
    assert node_from_row([*node_values(node), 3, f"{N2} leads_to"]) == node


@pytest.mark.parametrize(
    ("column", "value", "says"),
    [
        ("type", "wish", "unknown value 'wish'"),
        ("status", "gone", "unknown value 'gone'"),
        ("recorded_at", "yesterday", "yesterday"),
        ("metadata", "{not json", "Expecting property name"),
    ],
)
def test_a_tampered_node_row_names_the_node(column: str, value: str, says: str) -> None:
    from decisis.stores.sqlite.rows import NODE_FIELDS

    row = node_values(_node())
    row[NODE_FIELDS.index(column)] = value
    with pytest.raises(IntegrityError, match=f"node {N1} has an unreadable row") as caught:
        node_from_row(row)
    assert says in str(caught.value)


def test_a_hop_over_an_unknown_edge_type_is_an_integrity_error() -> None:
    row = [*node_values(_node()), 1, f"{N2} leads_to"]
    [reached] = reached_from_rows([row], node_from_row)
    assert (reached.depth, reached.via, reached.edge_type) == (1, N2, EdgeType.LEADS_TO)
    with pytest.raises(IntegrityError, match="unknown edge type"):
        reached_from_rows([[*node_values(_node()), 1, f"{N2} teleports"]], node_from_row)
