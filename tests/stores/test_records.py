"""Reading records: one by id, and filtered lists of nodes and edges in a fixed order."""

from __future__ import annotations

from datetime import datetime

import pytest

from decisis.errors import InvalidInput, NotFound
from decisis.model import EdgeType, NodeStatus, NodeType
from decisis.stores import Store
from tests.stores.helpers import (
    G,
    add_edge,
    add_node,
    at,
    edge_added,
    ids,
    make_edge,
    make_node,
    node_added,
    node_updated,
    tombstoned,
)


def test_get_node_and_get_edge_raise_not_found(store: Store) -> None:
    node = add_node(store)
    with pytest.raises(NotFound):
        store.get_node(G, make_node().id)
    with pytest.raises(NotFound):
        store.get_edge(G, node.id)  # a node id is not an edge
    with pytest.raises(NotFound):
        store.get_node("elsewhere", node.id)
    with pytest.raises(NotFound):
        store.get_edge(G, make_edge(node, make_node()).id)


def test_get_returns_tombstoned_records(store: Store) -> None:
    a, b = add_node(store), add_node(store)
    edge = add_edge(store, a, b)
    store.append(G, [tombstoned(edge, reason="wrong link"), tombstoned(a, reason="dup")])
    assert store.get_node(G, a.id).tombstone_reason == "dup"
    assert store.get_edge(G, edge.id).tombstone_reason == "wrong link"
    assert store.get_edge(G, edge.id).tombstoned_at is not None


def test_reads_of_an_unknown_graph_are_empty(store: Store) -> None:
    assert store.nodes("nothing here") == []
    assert store.edges("nothing here") == []
    assert list(store.events("nothing here")) == []


# -- nodes() --------------------------------------------------------------------------------


@pytest.fixture
def mixed(store: Store) -> dict[str, list[str]]:
    """Goals and decisions in several statuses, added in a known order."""
    made = {
        "goal-active": add_node(store, type=NodeType.GOAL),
        "decision-active": add_node(store, type=NodeType.DECISION),
        "goal-done": add_node(store, type=NodeType.GOAL, status=NodeStatus.COMPLETED),
        "option-rejected": add_node(store, type=NodeType.OPTION, status=NodeStatus.REJECTED),
        "decision-done": add_node(store, type=NodeType.DECISION, status=NodeStatus.COMPLETED),
    }
    return {key: [node.id] for key, node in made.items()}


def test_nodes_are_in_creation_order_or_newest_first(
    store: Store, mixed: dict[str, list[str]]
) -> None:
    in_order = [i for group in mixed.values() for i in group]
    assert ids(store.nodes(G)) == in_order
    assert ids(store.nodes(G, newest_first=True)) == in_order[::-1]
    assert ids(store.nodes(G, limit=2)) == in_order[:2]
    assert ids(store.nodes(G, newest_first=True, limit=2)) == in_order[::-1][:2]
    assert store.nodes(G, limit=0) == []
    assert ids(store.nodes(G, limit=100)) == in_order


def test_nodes_filter_by_type_and_status(store: Store, mixed: dict[str, list[str]]) -> None:
    goals = ids(store.nodes(G, types=[NodeType.GOAL]))
    assert goals == mixed["goal-active"] + mixed["goal-done"]
    several = ids(store.nodes(G, types=[NodeType.GOAL, NodeType.OPTION]))
    assert several == mixed["goal-active"] + mixed["goal-done"] + mixed["option-rejected"]
    done = ids(store.nodes(G, statuses=[NodeStatus.COMPLETED]))
    assert done == mixed["goal-done"] + mixed["decision-done"]
    both = store.nodes(G, types=[NodeType.DECISION], statuses=[NodeStatus.COMPLETED])
    assert ids(both) == mixed["decision-done"]
    assert store.nodes(G, types=[NodeType.OUTCOME]) == []
    assert store.nodes(G, types=[]) == []
    limited = store.nodes(G, types=[NodeType.GOAL], newest_first=True, limit=1)
    assert ids(limited) == mixed["goal-done"]


def test_a_filter_given_one_value_or_no_list(store: Store, mixed: dict[str, list[str]]) -> None:
    """One type or status alone is a list of one; a value that is no list is refused naming
    the filter (``statuses=True`` was a TypeError from iterating it)."""
    goals = ids(store.nodes(G, types=[NodeType.GOAL]))
    assert ids(store.nodes(G, types=NodeType.GOAL)) == ids(store.nodes(G, types="goal")) == goals  # type: ignore[arg-type]
    wrong = [({"statuses": True}, "status", "active"), ({"types": 3}, "type", "goal")]
    wrong.append(({"types": {"goal": 1}}, "type", "goal"))
    for filters, field, member in wrong:
        with pytest.raises(InvalidInput, match="is not a list") as caught:
            store.nodes(G, **filters)  # type: ignore[arg-type]
        assert caught.value.field == field and member in str(caught.value.allowed)
    with pytest.raises(InvalidInput, match="edge type"):
        store.edges(G, types=5)  # type: ignore[arg-type]


def test_a_limit_past_64_bits_is_no_limit(store: Store, mixed: dict[str, list[str]]) -> None:
    """No store can hold that many rows (SQLite raised OverflowError binding it)."""
    assert ids(store.nodes(G, limit=2**70)) == ids(store.nodes(G))
    store.search(G, "anything", limit=2**70)
    with pytest.raises(InvalidInput, match="limit"):
        store.search(G, "anything", limit=None)  # type: ignore[arg-type]


def test_nodes_refuse_a_negative_limit(store: Store) -> None:
    with pytest.raises(InvalidInput):
        store.nodes(G, limit=-1)


def test_nodes_leave_out_tombstoned_unless_asked(store: Store) -> None:
    a, b = add_node(store), add_node(store)
    store.append(G, [tombstoned(a)])
    assert ids(store.nodes(G)) == [b.id]
    assert ids(store.nodes(G, include_tombstoned=True)) == [a.id, b.id]
    assert ids(store.nodes(G, limit=1)) == [b.id]


def test_nodes_as_of_keep_only_what_held_and_was_known_then(store: Store) -> None:
    early = add_node(store, label="early", when=at(0))
    late = add_node(store, label="late", when=at(10))
    bounded = add_node(store, label="bounded", when=at(0), valid_until=at(5))
    future = add_node(store, label="future", when=at(0), valid_from=at(20))
    assert ids(store.nodes(G, as_of=at(-1))) == []
    assert ids(store.nodes(G, as_of=at(0))) == [early.id, bounded.id]
    assert ids(store.nodes(G, as_of=at(5))) == [early.id]  # valid_until is exclusive
    assert ids(store.nodes(G, as_of=at(10))) == [early.id, late.id]
    assert ids(store.nodes(G, as_of=at(20))) == [early.id, late.id, future.id]
    assert len(store.nodes(G)) == 4


def test_nodes_as_of_respects_when_a_node_was_recorded(store: Store) -> None:
    # known only from minute 10, though it held in the world from minute 0
    node = add_node(store, when=at(10), valid_from=at(0))
    assert store.nodes(G, as_of=at(5)) == []
    assert ids(store.nodes(G, as_of=at(10))) == [node.id]


def test_as_of_must_be_timezone_aware(store: Store) -> None:
    add_node(store)
    with pytest.raises(InvalidInput):
        store.nodes(G, as_of=datetime(2026, 1, 1))


# -- edges() -------------------------------------------------------------------------------


def test_edges_by_node_direction_and_type(store: Store) -> None:
    a, b, c = add_node(store), add_node(store), add_node(store)
    ab = add_edge(store, a, b, EdgeType.LEADS_TO)
    cb = add_edge(store, c, b, EdgeType.CAUSED)
    bc = add_edge(store, b, c, EdgeType.ENABLES)
    assert ids(store.edges(G)) == [ab.id, cb.id, bc.id]
    assert ids(store.edges(G, node=b.id)) == [ab.id, cb.id, bc.id]
    assert ids(store.edges(G, node=b.id, direction="in")) == [ab.id, cb.id]
    assert ids(store.edges(G, node=b.id, direction="out")) == [bc.id]
    assert ids(store.edges(G, node=a.id, direction="in")) == []
    assert ids(store.edges(G, node=c.id)) == [cb.id, bc.id]
    assert ids(store.edges(G, types=[EdgeType.CAUSED, EdgeType.ENABLES])) == [cb.id, bc.id]
    assert ids(store.edges(G, node=b.id, direction="in", types=[EdgeType.CAUSED])) == [cb.id]
    assert store.edges(G, node=make_node().id) == []


def test_edges_direction_needs_a_node(store: Store) -> None:
    with pytest.raises(InvalidInput):
        store.edges(G, direction="out")


def test_edges_leave_out_tombstoned_edges_and_edges_of_tombstoned_nodes(store: Store) -> None:
    a, b, c = add_node(store), add_node(store), add_node(store)
    ab, bc, ac = add_edge(store, a, b), add_edge(store, b, c), add_edge(store, a, c)
    store.append(G, [tombstoned(ab), tombstoned(c)])
    assert store.edges(G) == []
    assert store.edges(G, node=a.id) == []
    everything = store.edges(G, include_tombstoned=True)
    assert ids(everything) == [ab.id, bc.id, ac.id]
    assert ids(store.edges(G, node=c.id, include_tombstoned=True)) == [bc.id, ac.id]


def test_edges_as_of_need_the_edge_and_both_ends_valid(store: Store) -> None:
    a = add_node(store, when=at(0))
    b = add_node(store, when=at(0), valid_until=at(10))
    c = add_node(store, when=at(5))
    ab = add_edge(store, a, b, when=at(1))
    ac = add_edge(store, a, c, when=at(6))
    ba = add_edge(store, b, a, when=at(0), valid_until=at(3))
    assert ids(store.edges(G, as_of=at(0))) == [ba.id]
    assert ids(store.edges(G, as_of=at(2))) == [ab.id, ba.id]
    assert ids(store.edges(G, as_of=at(5))) == [ab.id]  # c is valid, ac not yet recorded
    assert ids(store.edges(G, as_of=at(7))) == [ab.id, ac.id]
    assert ids(store.edges(G, as_of=at(10))) == [ac.id]  # b no longer holds
    assert len(store.edges(G)) == 3


def test_updates_are_visible_to_filters(store: Store) -> None:
    node = add_node(store)
    store.append(G, [node_updated(node, status="completed")])
    assert store.nodes(G, statuses=[NodeStatus.ACTIVE]) == []
    assert ids(store.nodes(G, statuses=[NodeStatus.COMPLETED])) == [node.id]


def test_a_batch_may_refer_to_what_it_adds_earlier(store: Store) -> None:
    a, b = make_node("a"), make_node("b")
    edge = make_edge(a, b)
    store.append(
        G,
        [node_added(a), node_added(b), edge_added(edge), node_updated(a, label="a2")],
    )
    assert store.get_node(G, a.id).label == "a2"
    assert ids(store.edges(G)) == [edge.id]
