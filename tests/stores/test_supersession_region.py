"""``supersession_region``: the trusted supersedes links forward from a record, in one query,
the same on every backend: pairs judged as a whole, cycles ended, tombstones left out."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime
from typing import Any

import pytest

from decisis.errors import InvalidInput, NotFound
from decisis.model import Edge, EdgeType, LinkState, Node, new_id
from decisis.model import events as drafts
from decisis.stores import Store
from tests.stores.helpers import G, at, edge_added, make_edge, make_node, node_added

CANDIDATE, STATED = LinkState.CANDIDATE, LinkState.STATED
CONFIRMED, REJECTED = LinkState.CONFIRMED, LinkState.REJECTED


def link(
    new: Node, old: Node, state: LinkState = CANDIDATE, conf: float | None = 0.6, **kw: Any
) -> Edge:
    """``new`` replaces ``old``, says a rule."""
    when = kw.pop("when", at(0))
    meta = kw.pop("metadata", {"rule": "same-question"})
    return make_edge(
        new, old, EdgeType.SUPERSEDES, when=when, state=state, confidence=conf, metadata=meta, **kw
    )


def nodes(*labels: str, when: datetime | None = None) -> list[Node]:
    return [make_node(label, when=when or at(0)) for label in labels]


def write(store: Store, records: list[Node], edges: list[Edge], graph: str = G) -> None:
    store.append(graph, [node_added(n) for n in records] + [edge_added(e) for e in edges])


def region(store: Store, start: Node, **kw: Any) -> list[str]:
    return [e.id for e in store.supersession_region(G, start.id, **kw)]


def test_a_chain_is_followed_forward_only_and_edges_come_in_id_order(store: Store) -> None:
    a, b, c, d = nodes("a", "b", "c", "d")
    edges = [link(b, a), link(c, b), link(d, c), make_edge(d, a, EdgeType.LEADS_TO, when=at(0))]
    write(store, [a, b, c, d], edges)
    found = store.supersession_region(G, a.id)
    assert [e.id for e in found] == sorted(e.id for e in edges[:3])
    assert found == [store.get_edge(G, e.id) for e in sorted(edges[:3], key=lambda e: e.id)]
    assert region(store, c) == [edges[2].id]
    assert region(store, d) == []


def test_records_naming_each_other_end_at_the_first_repeat(store: Store) -> None:
    a, b, c = nodes("a", "b", "c")
    there, back, on = link(b, a), link(a, b, STATED, None), link(c, b)
    write(store, [a, b, c], [there, back, on])
    assert region(store, a) == sorted([there.id, back.id, on.id])
    assert region(store, b) == sorted([there.id, back.id, on.id])
    self_loop_free = link(a, c)  # a three-cycle a <- b <- c <- a
    store.append(G, [edge_added(self_loop_free)])
    assert region(store, c) == sorted([there.id, back.id, on.id, self_loop_free.id])


def test_a_pair_passes_on_its_links_together(store: Store) -> None:
    a, b, c, d, e, f = nodes("a", "b", "c", "d", "e", "f")
    two_weak = [link(b, a, conf=0.3), link(b, a, conf=0.3, metadata={"rule": "names-replaced"})]
    one_weak = link(c, a, conf=0.3)
    stated = link(d, a, STATED, None)
    confirmed = link(e, a, CONFIRMED, 1.0)
    unknown = link(f, a, conf=None)
    write(store, [a, b, c, d, e, f], [*two_weak, one_weak, stated, confirmed, unknown])
    judged = sorted([stated.id, confirmed.id])
    assert region(store, a, floor=0.5) == sorted([*judged, *(x.id for x in two_weak)])
    assert region(store, a, floor=0.7) == judged
    assert region(store, a, floor=0.3) == sorted([*judged, one_weak.id, *(x.id for x in two_weak)])
    every = sorted([*judged, one_weak.id, unknown.id, *(x.id for x in two_weak)])
    assert region(store, a) == every  # floor 0: a missing confidence counts 0, and passes
    assert region(store, a, floor=0.01) == sorted(set(every) - {unknown.id})


def test_a_rejected_link_vetoes_its_pair_and_what_lies_beyond(store: Store) -> None:
    a, b, c, d = nodes("a", "b", "c", "d")
    strong, refused, beyond = link(b, a, conf=0.9), link(b, a, REJECTED, 0.0), link(c, b)
    other = link(d, a, STATED, None)
    write(store, [a, b, c, d], [strong, refused, beyond, other])
    assert region(store, a) == [other.id]
    store.append(G, [drafts.tombstoned(refused.id, "edge", "judged by mistake", at(1))])
    assert region(store, a) == sorted([strong.id, beyond.id, other.id])


def test_tombstoned_links_and_records_are_left_out(store: Store) -> None:
    a, b, c, d = nodes("a", "b", "c", "d")
    weak_twin = link(b, a, conf=0.3)
    gone = link(b, a, conf=0.3, metadata={"rule": "names-replaced"})
    to_c, c_on = link(c, a), link(d, c)
    write(store, [a, b, c, d], [weak_twin, gone, to_c, c_on])
    assert region(store, a, floor=0.5) == sorted([weak_twin.id, gone.id, to_c.id, c_on.id])
    store.append(
        G,
        [
            drafts.tombstoned(gone.id, "edge", "no rule proposes it", at(1)),
            drafts.tombstoned(c.id, "node", "recorded by mistake", at(1)),
        ],
    )
    assert region(store, a, floor=0.5) == []  # the twin alone is too weak; c is gone
    assert region(store, a) == [weak_twin.id]
    assert store.supersession_region(G, c.id) == []  # a tombstoned start reaches nothing
    with pytest.raises(NotFound):
        store.supersession_region(G, new_id())


def test_as_of_limits_the_links_but_not_the_start(store: Store) -> None:
    [a] = nodes("a", when=at(10))
    b, c = nodes("b", "c", when=at(0))
    early, late = link(b, a, when=at(10)), link(c, b, when=at(30))
    write(store, [a, b, c], [early, late])
    assert region(store, a, as_of=at(20)) == [early.id]
    assert region(store, a, as_of=at(40)) == sorted([early.id, late.id])
    assert region(store, a, as_of=at(5)) == []  # a is not valid yet, but may still start
    assert region(store, b, as_of=at(5)) == []


def test_graphs_do_not_see_each_other(store: Store) -> None:
    a, b = nodes("a", "b")
    write(store, [a, b], [link(b, a)], graph="other")
    with pytest.raises(NotFound):
        store.supersession_region(G, a.id)
    assert len(store.supersession_region("other", a.id)) == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"floor": 1.5}, "floor"),
        ({"floor": -0.1}, "floor"),
        ({"floor": "0.5"}, "floor"),
        ({"as_of": datetime(2026, 1, 1)}, "as_of"),  # naive on purpose
    ],
)
def test_bad_arguments_are_refused(store: Store, kwargs: dict[str, Any], field: str) -> None:
    [a] = nodes("a")
    write(store, [a], [])
    with pytest.raises(InvalidInput) as caught:
        store.supersession_region(G, a.id, **kwargs)
    assert caught.value.field == field


def _expected(edges: list[Edge], shown: set[str], start: str, floor: float) -> list[str]:
    """The region rule restated: pairs of showing links, vetoed by a rejection, else
    followed when one is stated or confirmed or their confidences sum to ``floor``."""
    pairs: dict[tuple[str, str], list[Edge]] = defaultdict(list)
    for e in edges:
        if not e.tombstoned and e.type is EdgeType.SUPERSEDES and e.source in shown:
            pairs[(e.target, e.source)].append(e)
    followed = {
        pair: group
        for pair, group in pairs.items()
        if all(e.state is not REJECTED for e in group)
        and (
            any(e.state in (STATED, CONFIRMED) for e in group)
            or sum(e.confidence or 0.0 for e in group) >= floor
        )
    }
    if start not in shown:
        return []
    reached, todo, out = {start}, [start], []
    while todo:
        old = todo.pop()
        for (target, new), group in followed.items():
            if target == old:
                out += [e.id for e in group]
                if new not in reached:
                    reached.add(new)
                    todo.append(new)
    return sorted(out)


@pytest.mark.parametrize("seed", range(4))
def test_random_graphs_follow_the_rule(store: Store, seed: int) -> None:
    rng = random.Random(seed)
    records = nodes(*(f"n{i}" for i in range(12)))
    confidences = [None, 0.0, 0.125, 0.25, 0.375, 0.625, 0.875, 1.0]  # sums exact in binary
    states = [CANDIDATE] * 6 + [STATED, CONFIRMED, REJECTED]
    edges = []
    for _ in range(40):
        new, old = rng.sample(records, 2)
        state = rng.choice(states)
        edges.append(link(new, old, state, rng.choice(confidences)))
    write(store, records, edges)
    gone_edges = rng.sample(edges, 5)
    gone_nodes = rng.sample(records, 2)
    store.append(
        G,
        [drafts.tombstoned(e.id, "edge", "random", at(1)) for e in gone_edges]
        + [drafts.tombstoned(n.id, "node", "random", at(1)) for n in gone_nodes],
    )
    stored = store.edges(G, include_tombstoned=True)
    shown = {n.id for n in store.nodes(G)}
    for start in records:
        for floor in (0.0, 0.5, 0.95):
            expected = _expected(stored, shown, start.id, floor)
            assert region(store, start, floor=floor) == expected, (start.label, floor)
