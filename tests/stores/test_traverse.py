"""Traversals: breadth first with the smallest depth, deterministic ``via``, bounded by
depth, edge types and time; shortest paths, smallest sequence among equals."""

from __future__ import annotations

import pytest

from decisis.errors import InvalidInput, NotFound
from decisis.model import EdgeType, Node
from decisis.stores import Reached, Store
from tests.stores.helpers import (
    G,
    add_chain,
    add_edge,
    add_node,
    at,
    edge_added,
    ids,
    make_edge,
    make_node,
    node_added,
    superseded,
    tombstoned,
)


def hops(reached: list[Reached]) -> list[tuple[str, int, str, EdgeType]]:
    return [(r.node.id, r.depth, r.via, r.edge_type) for r in reached]


def test_traverse_a_chain_both_ways(store: Store) -> None:
    a, b, c, d = add_chain(store, 4)
    out = store.traverse(G, a.id, direction="out")
    assert hops(out) == [
        (b.id, 1, a.id, EdgeType.LEADS_TO),
        (c.id, 2, b.id, EdgeType.LEADS_TO),
        (d.id, 3, c.id, EdgeType.LEADS_TO),
    ]
    assert out[0].node == b
    back = store.traverse(G, d.id, direction="in")
    assert hops(back) == [
        (c.id, 1, d.id, EdgeType.LEADS_TO),
        (b.id, 2, c.id, EdgeType.LEADS_TO),
        (a.id, 3, b.id, EdgeType.LEADS_TO),
    ]
    assert store.traverse(G, d.id, direction="out") == []


def test_traverse_stops_at_max_depth(store: Store) -> None:
    a, b, c, _ = add_chain(store, 4)
    assert ids(store.traverse(G, a.id, direction="out", max_depth=2)) == [b.id, c.id]
    assert ids(store.traverse(G, a.id, direction="out", max_depth=1)) == [b.id]
    assert store.traverse(G, a.id, direction="out", max_depth=0) == []
    with pytest.raises(InvalidInput):
        store.traverse(G, a.id, direction="out", max_depth=-1)


def test_traverse_orders_by_depth_then_id(store: Store) -> None:
    root = add_node(store, label="root")
    kids = [add_node(store, label=f"kid {i}") for i in range(3)]
    grandkid = add_node(store, label="grandkid")
    for kid in reversed(kids):  # edge order must not matter
        add_edge(store, root, kid)
    add_edge(store, kids[0], grandkid)
    assert ids(store.traverse(G, root.id, direction="out")) == [k.id for k in kids] + [grandkid.id]


def test_traverse_follows_only_the_given_edge_types(store: Store) -> None:
    a, b, c, d = (add_node(store) for _ in range(4))
    add_edge(store, a, b, EdgeType.CAUSED)
    add_edge(store, b, c, EdgeType.LEADS_TO)
    add_edge(store, a, d, EdgeType.BLOCKS)
    only_caused = store.traverse(G, a.id, direction="out", edge_types=[EdgeType.CAUSED])
    assert ids(only_caused) == [b.id]
    two = store.traverse(G, a.id, direction="out", edge_types=[EdgeType.CAUSED, EdgeType.LEADS_TO])
    assert ids(two) == [b.id, c.id]
    assert store.traverse(G, a.id, direction="out", edge_types=[]) == []


def test_cycles_terminate_and_the_start_is_never_reached(store: Store) -> None:
    a, b, c = add_chain(store, 3)
    add_edge(store, c, a, EdgeType.INFLUENCED)
    out = store.traverse(G, a.id, direction="out")
    assert hops(out) == [(b.id, 1, a.id, EdgeType.LEADS_TO), (c.id, 2, b.id, EdgeType.LEADS_TO)]
    back = store.traverse(G, a.id, direction="in")
    assert hops(back) == [
        (c.id, 1, a.id, EdgeType.INFLUENCED),
        (b.id, 2, c.id, EdgeType.LEADS_TO),
    ]


def test_a_diamond_reports_the_smallest_depth_and_smallest_via(store: Store) -> None:
    top, left, right, bottom = (add_node(store, label=x) for x in ("t", "l", "r", "b"))
    add_edge(store, top, right)
    add_edge(store, top, left)
    add_edge(store, right, bottom, EdgeType.CAUSED)
    add_edge(store, left, bottom, EdgeType.LEADS_TO)
    add_edge(store, left, bottom, EdgeType.CAUSED)
    out = store.traverse(G, top.id, direction="out")
    assert hops(out)[2] == (bottom.id, 2, left.id, EdgeType.CAUSED)
    assert len(out) == 3
    # a shortcut makes the bottom depth 1
    add_edge(store, top, bottom, EdgeType.ENABLES)
    out = store.traverse(G, top.id, direction="out")
    assert hops(out) == [
        (left.id, 1, top.id, EdgeType.LEADS_TO),
        (right.id, 1, top.id, EdgeType.LEADS_TO),
        (bottom.id, 1, top.id, EdgeType.ENABLES),
    ]
    back = store.traverse(G, bottom.id, direction="in")
    assert hops(back) == [
        (top.id, 1, bottom.id, EdgeType.ENABLES),
        (left.id, 1, bottom.id, EdgeType.CAUSED),
        (right.id, 1, bottom.id, EdgeType.CAUSED),
    ]


def test_traverse_does_not_walk_through_tombstones(store: Store) -> None:
    a, b, c, d = add_chain(store, 4)
    ad = add_edge(store, a, d)
    store.append(G, [tombstoned(b), tombstoned(ad)])
    assert store.traverse(G, a.id, direction="out") == []
    assert ids(store.traverse(G, d.id, direction="in")) == [c.id]
    assert store.traverse(G, b.id, direction="out") == []  # a tombstoned start reaches nothing


def test_traverse_as_of_does_not_walk_through_what_did_not_hold(store: Store) -> None:
    a = add_node(store, when=at(0))
    b = add_node(store, when=at(0), valid_until=at(10))
    c = add_node(store, when=at(0))
    late = add_node(store, when=at(20))
    store.append(
        G,
        [
            edge_added(make_edge(a, b, when=at(0))),
            edge_added(make_edge(b, c, when=at(0))),
            edge_added(make_edge(a, c, when=at(15))),
            edge_added(make_edge(c, late, when=at(20))),
        ],
    )
    assert ids(store.traverse(G, a.id, direction="out", as_of=at(5))) == [b.id, c.id]
    assert store.traverse(G, a.id, direction="out", as_of=at(12)) == []
    assert hops(store.traverse(G, a.id, direction="out", as_of=at(16))) == [
        (c.id, 1, a.id, EdgeType.LEADS_TO)
    ]
    assert ids(store.traverse(G, a.id, direction="out", as_of=at(20))) == [c.id, late.id]
    assert ids(store.traverse(G, a.id, direction="out")) == [b.id, c.id, late.id]
    assert store.traverse(G, late.id, direction="in", as_of=at(5)) == []  # its edge is not


def test_as_of_does_not_filter_the_start(store: Store) -> None:
    """Where a decision superseded before ``as_of`` led must still be answerable from it."""
    old = add_node(store, when=at(0))
    after = add_node(store, when=at(0))
    new = add_node(store, when=at(1))
    store.append(G, [edge_added(make_edge(old, after, when=at(0))), superseded(old, new, at(3))])
    assert ids(store.nodes(G, as_of=at(5))) == [after.id, new.id]  # old no longer holds
    assert hops(store.traverse(G, old.id, direction="in", as_of=at(5))) == [
        (new.id, 1, old.id, EdgeType.SUPERSEDES)
    ]
    assert ids(store.traverse(G, old.id, direction="out", as_of=at(5))) == [after.id]
    assert ids(store.traverse(G, new.id, direction="out", as_of=at(5))) == []  # old is not start
    # beyond the start the filter holds: once new is superseded too, old reaches nothing
    newest = add_node(store, when=at(2))
    store.append(G, [superseded(new, newest, at(4))])
    assert store.traverse(G, old.id, direction="in", as_of=at(5)) == []
    assert ids(store.traverse(G, old.id, direction="in", as_of=at(3.5))) == [new.id]
    assert ids(store.traverse(G, new.id, direction="in", as_of=at(5))) == [newest.id]
    # and a tombstoned start still reaches nothing
    store.append(G, [tombstoned(old)])
    assert store.traverse(G, old.id, direction="in", as_of=at(3.5)) == []


def test_supersession_is_walked_like_any_edge_type(store: Store) -> None:
    first, second, third = (add_node(store) for _ in range(3))
    store.append(G, [superseded(first, second), superseded(second, third)])
    standing = store.traverse(G, first.id, direction="in", edge_types=[EdgeType.SUPERSEDES])
    assert hops(standing) == [
        (second.id, 1, first.id, EdgeType.SUPERSEDES),
        (third.id, 2, second.id, EdgeType.SUPERSEDES),
    ]


def test_traverse_needs_a_start_that_exists(store: Store) -> None:
    add_node(store)
    with pytest.raises(NotFound):
        store.traverse(G, make_node().id, direction="out")
    with pytest.raises(NotFound):
        store.traverse("other", make_node().id, direction="in")


# -- path_between ---------------------------------------------------------------------------


def test_path_between_finds_the_shortest_path(store: Store) -> None:
    a, b, c, d = add_chain(store, 4)
    assert store.path_between(G, a.id, d.id) == [a.id, b.id, c.id, d.id]
    add_edge(store, b, d)
    assert store.path_between(G, a.id, d.id) == [a.id, b.id, d.id]
    assert store.path_between(G, d.id, a.id) == []  # paths are directed
    assert store.path_between(G, b.id, c.id) == [b.id, c.id]


def test_path_between_a_node_and_itself_is_the_node(store: Store) -> None:
    a, _ = add_chain(store, 2)
    assert store.path_between(G, a.id, a.id) == [a.id]
    assert store.path_between(G, a.id, a.id, max_depth=0) == [a.id]


def test_path_between_picks_the_smallest_sequence_among_equals(store: Store) -> None:
    start, x, y, z, end = (add_node(store, label=str(i)) for i in range(5))
    for middle in (z, y, x):  # added largest first
        add_edge(store, start, middle)
        add_edge(store, middle, end)
    assert store.path_between(G, start.id, end.id) == [start.id, x.id, end.id]
    store.append(G, [tombstoned(x)])
    assert store.path_between(G, start.id, end.id) == [start.id, y.id, end.id]


def test_path_between_smallest_sequence_is_decided_at_the_first_difference(
    store: Store,
) -> None:
    nodes = [add_node(store, label=str(i)) for i in range(6)]
    s, a, b, c, d, t = nodes
    # s-a-d-t and s-b-c-t are both length 3; a < b decides, although c < d
    for u, v in ((s, b), (b, c), (c, t), (s, a), (a, d), (d, t)):
        add_edge(store, u, v)
    assert store.path_between(G, s.id, t.id) == [s.id, a.id, d.id, t.id]


def test_path_between_respects_depth_types_and_time(store: Store) -> None:
    a = add_node(store, when=at(0))
    b = add_node(store, when=at(0))
    c = add_node(store, when=at(0))
    store.append(
        G,
        [
            edge_added(make_edge(a, b, EdgeType.CAUSED, when=at(0))),
            edge_added(make_edge(b, c, EdgeType.CAUSED, when=at(0))),
            edge_added(make_edge(a, c, EdgeType.BLOCKS, when=at(10))),
        ],
    )
    assert store.path_between(G, a.id, c.id) == [a.id, c.id]
    assert store.path_between(G, a.id, c.id, as_of=at(5)) == [a.id, b.id, c.id]
    assert store.path_between(G, a.id, c.id, edge_types=[EdgeType.CAUSED]) == [a.id, b.id, c.id]
    caused_short = store.path_between(G, a.id, c.id, edge_types=[EdgeType.CAUSED], max_depth=1)
    assert caused_short == []
    assert store.path_between(G, a.id, c.id, as_of=at(-1)) == []


def test_path_between_skips_tombstones_and_needs_existing_ends(store: Store) -> None:
    a, b, c = add_chain(store, 3)
    store.append(G, [tombstoned(b)])
    assert store.path_between(G, a.id, c.id) == []
    assert store.path_between(G, b.id, b.id) == []
    with pytest.raises(NotFound):
        store.path_between(G, a.id, make_node().id)
    with pytest.raises(NotFound):
        store.path_between(G, make_node().id, a.id)


def test_traversals_see_records_added_in_one_batch(store: Store) -> None:
    nodes: list[Node] = [make_node(str(i)) for i in range(3)]
    store.append(
        G,
        [node_added(n) for n in nodes]
        + [edge_added(make_edge(nodes[0], nodes[1])), edge_added(make_edge(nodes[1], nodes[2]))],
    )
    assert store.path_between(G, nodes[0].id, nodes[2].id) == [n.id for n in nodes]
