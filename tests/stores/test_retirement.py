"""What a supersedes link does to the node it replaces, on every backend and in the fold
(``decisis.stores.retire``): only a believed full replacement retires; rejecting releases
what the link changed and nothing more; every step verifies against a replay."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from decisis.errors import Conflict, InvalidInput
from decisis.graph import Graph
from decisis.model import LinkState, NodeStatus
from decisis.stores import Store
from decisis.stores.retire import RETIRED_KEY


@pytest.fixture
def graph(store: Store) -> Graph:
    return Graph(store, "g")


def _verified(graph: Graph) -> None:
    report = graph.verify()
    assert report.ok, report.problems


def test_a_candidate_leaves_the_old_node_standing(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id, state="candidate", confidence=0.2)
    after = graph.get(old.id)
    assert after.status is NodeStatus.ACTIVE
    assert after.valid_until is None
    assert graph.current(old.id).standing == [after]
    _verified(graph)


def test_a_partial_replacement_never_retires(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id, metadata={"partial": True})
    assert graph.get(old.id).status is NodeStatus.ACTIVE
    graph.judge(old.id, new.id, "confirmed")
    assert graph.get(old.id).status is NodeStatus.ACTIVE
    _verified(graph)


def test_confirming_a_candidate_retires_in_the_same_event(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id, state="candidate", confidence=0.2)
    seq = graph.store.head(graph.name)[0]
    edge = graph.judge(old.id, new.id, LinkState.CONFIRMED)
    assert graph.store.head(graph.name)[0] == seq + 1  # one event
    assert (edge.state, edge.confidence) == (LinkState.CONFIRMED, 1.0)
    retired = graph.get(old.id)
    assert retired.status is NodeStatus.SUPERSEDED
    assert retired.valid_until is not None
    assert retired.metadata[RETIRED_KEY]["links"] == [edge.id]
    _verified(graph)


def test_rejecting_a_candidate_changes_nothing_of_the_old_node(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id, state="candidate", confidence=0.2)
    before = graph.get(old.id)
    edge = graph.judge(old.id, new.id, "rejected")
    assert edge.state is LinkState.REJECTED
    assert graph.get(old.id) == before
    _verified(graph)


def test_rejecting_a_stated_link_restores_what_it_changed(graph: Graph) -> None:
    until = datetime(2030, 1, 1, tzinfo=UTC)
    old = graph.add_goal("old", valid_until=until, metadata={"team": "a"})
    new = graph.add_goal("new")
    graph.supersede(old.id, new.id)
    retired = graph.get(old.id)
    assert retired.status is NodeStatus.SUPERSEDED
    assert retired.valid_until is not None and retired.valid_until < until
    graph.judge(old.id, new.id, "rejected", rationale="the move was called off")
    back = graph.get(old.id)
    assert (back.status, back.valid_until, back.metadata) == (
        NodeStatus.ACTIVE,
        until,
        {"team": "a"},
    )
    _verified(graph)


def test_a_node_stays_retired_while_another_link_retires_it(graph: Graph) -> None:
    old, first, second = graph.add_goal("old"), graph.add_goal("one"), graph.add_goal("two")
    graph.supersede(old.id, first.id)
    graph.supersede(old.id, second.id)
    graph.judge(old.id, first.id, "rejected")
    assert graph.get(old.id).status is NodeStatus.SUPERSEDED
    graph.judge(old.id, second.id, "rejected")
    assert graph.get(old.id).status is NodeStatus.ACTIVE
    _verified(graph)


def test_a_status_already_superseded_is_not_undone_by_a_rejection(graph: Graph) -> None:
    old = graph.add_node("decision", "old", status="superseded")
    new = graph.add_goal("new")
    graph.supersede(old.id, new.id)
    graph.judge(old.id, new.id, "rejected")
    assert graph.get(old.id).status is NodeStatus.SUPERSEDED
    _verified(graph)


def test_tombstoning_a_retiring_link_releases_the_node(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    edge = graph.supersede(old.id, new.id)
    graph.tombstone(edge.id, "recorded by mistake")
    assert graph.get(old.id).status is NodeStatus.ACTIVE
    _verified(graph)


def test_a_status_set_by_hand_ends_the_record(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id)
    graph.update(old.id, status="completed")
    graph.judge(old.id, new.id, "rejected")
    after = graph.get(old.id)
    assert after.status is NodeStatus.COMPLETED
    assert RETIRED_KEY not in after.metadata
    _verified(graph)


def test_a_metadata_update_keeps_the_record(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id)
    graph.update(old.id, metadata={"team": "b", RETIRED_KEY: "forged"})
    assert graph.get(old.id).metadata[RETIRED_KEY]["links"]
    graph.judge(old.id, new.id, "rejected")
    assert graph.get(old.id).metadata == {"team": "b"}
    _verified(graph)


def test_trust_moving_never_changes_a_status(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id, state="candidate", confidence=0.2, metadata={"rule": "r"})
    from decisis.model import events as drafts
    from decisis.model import utc_now

    graph.store.append(graph.name, [drafts.rule_trusted("r", 9, 1, 0.9, utc_now())])
    assert graph.get(old.id).status is NodeStatus.ACTIVE
    _verified(graph)


def test_judging_a_pair_with_no_link_records_one(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    edge = graph.judge(old.id, new.id, "rejected")
    assert (edge.source, edge.target, edge.state) == (new.id, old.id, LinkState.REJECTED)
    assert graph.get(old.id).status is NodeStatus.ACTIVE
    _verified(graph)


def test_a_second_supersede_of_a_pair_points_to_judge(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    graph.supersede(old.id, new.id, state="candidate")
    with pytest.raises(Conflict, match="judge the pair"):
        graph.supersede(old.id, new.id, state="rejected")


def test_a_verdict_must_be_confirmed_or_rejected(graph: Graph) -> None:
    old, new = graph.add_goal("old"), graph.add_goal("new")
    with pytest.raises(InvalidInput, match="verdict"):
        graph.judge(old.id, new.id, "candidate")
