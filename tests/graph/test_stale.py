"""Stale dependents and re-affirmation, on every backend (the ``store`` fixture)."""

from __future__ import annotations

import pytest

import decisis
from decisis.model import EventKind
from decisis.stale import REAFFIRMED, reaffirmation
from decisis.stores import Store


@pytest.fixture
def g(store: Store) -> decisis.Graph:
    return decisis.Graph(store, "g")


def _events(g: decisis.Graph) -> list[decisis.Event]:
    return list(g.events())


def test_each_kind_of_dependent_is_stale_once_its_premise_is_replaced(g: decisis.Graph) -> None:
    old = g.record_decision("Use Jenkins for CI")
    action = g.add_node("action", "Write a Jenkinsfile", parent=old.id)
    outcome = g.record_outcome("Builds take 20 minutes", decision=old.id)  # led to, not an action
    needs = g.record_decision("Cache builds on the CI server")
    g.link(needs.id, old.id, "requires")
    enabled = g.record_decision("Run nightly builds")
    g.link(old.id, enabled.id, "enables")
    follows = g.record_decision("Use Jenkins for the docs site too")
    g.link(old.id, follows.id, "precedent_for")
    plain_action = g.add_node("action", "Tag releases")
    g.link(old.id, plain_action.id, "precedent_for")  # precedent_for only makes decisions rest
    assert g.stale() == []
    new = g.record_decision("Use GitHub Actions")
    g.supersede(old.id, new.id)

    found = {(s.node.id, s.edge_type.value) for s in g.stale()}
    assert found == {
        (action.id, "leads_to"),
        (needs.id, "requires"),
        (enabled.id, "enables"),
        (follows.id, "precedent_for"),
    }
    assert outcome.id not in {s.node.id for s in g.stale()}
    for item in g.stale():
        assert item.premise.id == old.id
        assert [n.id for n in item.standing] == [new.id]


def test_a_proposal_or_a_rejected_link_does_not_make_anything_stale(g: decisis.Graph) -> None:
    old = g.record_decision("Use Jenkins for CI")
    g.add_node("action", "Write a Jenkinsfile", parent=old.id)
    new = g.record_decision("Use GitHub Actions")
    g.supersede(old.id, new.id, state="candidate", confidence=0.2)
    assert g.stale() == []
    g.judge(old.id, new.id, "rejected")
    assert g.stale() == []
    g.judge(old.id, new.id, "confirmed")
    assert len(g.stale()) == 1


def test_a_superseded_dependent_is_not_stale(g: decisis.Graph) -> None:
    old = g.record_decision("Use Jenkins for CI")
    action = g.add_node("action", "Write a Jenkinsfile", parent=old.id)
    g.supersede(old.id, g.record_decision("Use GitHub Actions").id)
    g.supersede(action.id, g.add_node("action", "Write a workflow file").id)
    assert g.stale() == []


def test_reaffirm_is_one_event_and_lasts_until_the_new_premise_is_replaced(
    g: decisis.Graph,
) -> None:
    old = g.record_decision("Use Jenkins for CI")
    action = g.add_node("action", "Run the smoke tests nightly", parent=old.id)
    new = g.record_decision("Use GitHub Actions")
    g.supersede(old.id, new.id)
    before = _events(g)

    g.reaffirm(g.short_ids([action.id])[action.id], note="a scheduled workflow does it")

    after = _events(g)
    assert len(after) == len(before) + 1
    assert after[-1].kind is EventKind.NODE_UPDATED
    assert g.stale() == []
    mark = reaffirmation(g.get(action.id), old.id)
    assert mark is not None
    assert mark["standing"] == [new.id]
    assert mark["note"] == "a scheduled workflow does it"
    assert set(g.get(action.id).metadata) == {REAFFIRMED}

    newer = g.record_decision("Use Buildkite")
    g.supersede(new.id, newer.id)
    [again] = g.stale()
    assert again.node.id == action.id
    assert [n.id for n in again.standing] == [newer.id]
    assert g.verify().ok


def test_reaffirm_refuses_what_rests_on_nothing_replaced_and_writes_nothing(
    g: decisis.Graph,
) -> None:
    old = g.record_decision("Use Jenkins for CI")
    action = g.add_node("action", "Write a Jenkinsfile", parent=old.id)
    with pytest.raises(decisis.InvalidInput) as refused:
        g.reaffirm(action.id)
    assert refused.value.field == "id"
    g.supersede(old.id, g.record_decision("Use GitHub Actions").id)
    other = g.record_decision("Keep build logs for a year")
    count = len(_events(g))
    with pytest.raises(decisis.InvalidInput) as refused:
        g.reaffirm(action.id, premise=other.id)
    assert refused.value.field == "premise"
    assert old.id in str(refused.value.allowed)
    with pytest.raises(decisis.InvalidInput):
        g.reaffirm(action.id, note="x" * 5000)
    assert len(_events(g)) == count
    assert len(g.stale()) == 1


def test_stale_of_one_node_or_one_premise(g: decisis.Graph) -> None:
    first = g.record_decision("Use Jenkins for CI")
    second = g.record_decision("Host artefacts on Nexus")
    a = g.add_node("action", "Write a Jenkinsfile", parent=first.id)
    b = g.add_node("action", "Publish to Nexus", parent=second.id)
    middle = g.record_decision("Use Concourse")
    g.supersede(first.id, middle.id)
    g.supersede(middle.id, g.record_decision("Use GitHub Actions").id)
    g.supersede(second.id, g.record_decision("Host artefacts on S3").id)

    assert {s.node.id for s in g.stale()} == {a.id, b.id}
    assert [s.node.id for s in g.stale(a.id)] == [a.id]
    assert [s.node.id for s in g.stale(premise=first.id)] == [a.id]
    assert [s.node.id for s in g.stale(premise=second.id)] == [b.id]
    assert g.stale(premise=middle.id) == []  # a rests on first, not on the middle record


def test_reaffirm_keeps_the_rest_of_the_metadata(g: decisis.Graph) -> None:
    old = g.record_decision("Use Jenkins for CI")
    job = g.add_node("action", "Write a Jenkinsfile", parent=old.id, metadata={"pr": 42})
    g.supersede(old.id, g.record_decision("Use GitHub Actions").id)
    g.reaffirm(job.id, premise=old.id)
    assert g.get(job.id).metadata["pr"] == 42
    assert REAFFIRMED in g.get(job.id).metadata
    assert "note" not in (reaffirmation(g.get(job.id), old.id) or {"note": 1})


def test_work_resting_on_a_teams_replaced_record_is_stale() -> None:
    from pathlib import Path

    from decisis.adr import ingest, view_of

    g = decisis.open("memory://")
    ingest(g, Path(__file__).resolve().parents[2] / "data" / "adr-corpus" / "cloud-platform")
    records = view_of(g).records
    job = g.add_node("action", "Keep the Concourse workers patched")
    g.link(job.id, records["cloud-platform:003"].id, "requires")
    g.link(job.id, records["cloud-platform:040"].id, "requires")  # what stands: not stale
    [item] = g.stale()
    assert (item.node.id, item.premise.id) == (job.id, records["cloud-platform:003"].id)
    assert [n.id for n in item.standing] == [records["cloud-platform:040"].id]
