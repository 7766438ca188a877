"""``rule.trusted``: one ledger event moves every unjudged link of a rule, on every backend
exactly as the reference fold says, and replay rebuilds the tables it wrote."""

from __future__ import annotations

from typing import Any

import pytest

from decisis.errors import InvalidInput
from decisis.model import Edge, EdgeType, EventKind, LinkState, Node, format_time
from decisis.model import events as drafts
from decisis.stores import Store
from decisis.stores.replay import snapshot, verify
from tests.stores.helpers import (
    G,
    at,
    edge_added,
    edge_updated,
    fingerprint,
    make_edge,
    make_node,
    node_added,
    raw_draft,
)


def _link(new: Node, old: Node, rule: Any = "same-question", **extra: Any) -> Edge:
    values: dict[str, Any] = {"state": LinkState.CANDIDATE, "confidence": 0.6}
    values["metadata"] = {"rule": rule} if rule is not None else {}
    return make_edge(new, old, EdgeType.SUPERSEDES, when=at(0), **(values | extra))


def _trusted(rule: str, successes: float, failures: float, minutes: float = 10) -> Any:
    mean = round(successes / (successes + failures), 6)
    return drafts.rule_trusted(rule, successes, failures, mean, at(minutes))


def _graph(store: Store) -> dict[str, Edge]:
    """Records a..e and links of every kind the event must tell apart."""
    a, b, c, d, e = (make_node(name, when=at(0)) for name in "abcde")
    links = {
        "moves": _link(b, a),
        "moves_too": _link(c, b, confidence=None),
        "at_value": _link(d, c, confidence=0.75),
        "stated": _link(c, a, state=LinkState.STATED),
        "confirmed": _link(d, a, state=LinkState.CONFIRMED, confidence=1.0),
        "rejected": _link(e, a, state=LinkState.REJECTED, confidence=0.0),
        "other_rule": _link(d, b, rule="names-replaced"),
        "number_rule": _link(e, b, rule=5),
        "nested_rule": _link(e, c, rule=None, metadata={"why": {"rule": "same-question"}}),
        "nul_elsewhere": _link(e, d, metadata={"rule": "same-question", "note": "a\x00b"}),
        "not_supersedes": make_edge(
            a,
            e,
            EdgeType.LEADS_TO,
            when=at(0),
            state=LinkState.CANDIDATE,
            confidence=0.6,
            metadata={"rule": "same-question"},
        ),
        "tombstoned": _link(b, e),
    }
    batch = [node_added(n) for n in (a, b, c, d, e)] + [edge_added(x) for x in links.values()]
    gone = drafts.tombstoned(links["tombstoned"].id, "edge", "recorded by mistake", at(1))
    store.append(G, [*batch, gone])
    return links


def test_rule_trusted_moves_only_the_rules_unjudged_links(store: Store) -> None:
    links = _graph(store)
    [event] = store.append(G, [_trusted("same-question", 3.0, 1.0)])
    assert event.kind is EventKind.RULE_TRUSTED and event.entity == "rule:same-question"
    assert event.payload == {
        "rule": "same-question",
        "successes": 3.0,
        "failures": 1.0,
        "confidence": 0.75,
        "updated_at": format_time(at(10)),
    }
    after = {name: store.get_edge(G, edge.id) for name, edge in links.items()}
    for name in ("moves", "moves_too", "nul_elsewhere"):
        assert (after[name].confidence, after[name].updated_at) == (0.75, at(10)), name
    unchanged = set(links) - {"moves", "moves_too", "nul_elsewhere"}
    for name in unchanged:  # "at_value" was already at 0.75: its updated_at stays
        assert after[name] == links[name] or name == "tombstoned", name
    assert after["tombstoned"].confidence == 0.6
    assert verify(store, G).ok


def test_rule_trusted_matching_nothing_still_chains(store: Store) -> None:
    _graph(store)
    before = store.edges(G, include_tombstoned=True)
    [event] = store.append(G, [_trusted("a rule with no links", 1.0, 1.0)])
    assert event.seq == store.head(G)[0]
    assert store.edges(G, include_tombstoned=True) == before
    assert verify(store, G).ok


def test_rule_trusted_sees_links_added_earlier_in_its_batch(store: Store) -> None:
    a, b = make_node("a", when=at(0)), make_node("b", when=at(0))
    link = _link(b, a, confidence=0.5)
    store.append(
        G, [node_added(a), node_added(b), edge_added(link), _trusted("same-question", 2, 1)]
    )
    assert store.get_edge(G, link.id).confidence == round(2 / 3, 6)
    assert verify(store, G).ok


def test_a_judged_link_is_left_alone_and_replay_rebuilds_each_moment(store: Store) -> None:
    links = _graph(store)
    store.append(G, [_trusted("same-question", 3.0, 1.0, minutes=10)])
    store.append(G, [edge_updated(links["moves"], at(20), state="confirmed", confidence=1.0)])
    store.append(G, [_trusted("same-question", 4.0, 1.0, minutes=30)])
    assert store.get_edge(G, links["moves"].id).confidence == 1.0
    assert store.get_edge(G, links["moves_too"].id).confidence == 0.8
    assert verify(store, G).ok
    past = snapshot(store.events(G), G, until=at(15))
    assert past.get_edge(G, links["moves_too"].id).confidence == 0.75
    assert past.get_edge(G, links["moves"].id).state is LinkState.CANDIDATE


BAD = [
    ({"rule": 5}, "payload.rule"),
    ({"rule": ""}, "payload.rule"),
    ({"rule": "back\\slash"}, "payload.rule"),
    ({"rule": "nul\x00"}, "payload.rule"),
    ({"confidence": 1.5, "successes": 3.0, "failures": 0.0}, "payload.confidence"),
    ({"confidence": -0.25}, "payload.confidence"),
    ({"confidence": "0.75"}, "payload.confidence"),
    ({"confidence": 0.5}, "payload.confidence"),  # not the mean of 3 and 1
    ({"successes": -1.0}, "payload.successes"),
    ({"failures": True}, "payload.failures"),
    ({"successes": 0, "failures": 0, "confidence": 0.0}, "payload.failures"),
    ({"updated_at": "yesterday"}, "updated_at"),
    ({"updated_at": None}, "payload.updated_at"),
]


@pytest.mark.parametrize(("change", "field"), BAD, ids=[f for _, f in BAD])
def test_bad_rule_trusted_payloads_are_refused_whole(
    store: Store, change: dict[str, Any], field: str
) -> None:
    _graph(store)
    before = fingerprint(store)
    good = _trusted("same-question", 3.0, 1.0)
    fresh = make_node("fresh")
    payload = dict(good.payload) | change
    bad = raw_draft(EventKind.RULE_TRUSTED, good.entity, payload)
    with pytest.raises(InvalidInput) as caught:
        store.append(G, [node_added(fresh), good, bad])
    assert caught.value.field == field
    assert fingerprint(store) == before


def test_a_missing_key_is_named() -> None:
    payload = dict(_trusted("r", 1.0, 1.0).payload)
    del payload["failures"]
    with pytest.raises(InvalidInput, match=r"payload\.failures"):
        drafts.check_payload(EventKind.RULE_TRUSTED, payload)
