"""The Graph facade on every backend: the verbs people and agents use."""

from __future__ import annotations

import json
import time

import pytest

import decisis
import decisis.model
from decisis import EdgeType, NodeStatus, NodeType
from decisis.model import format_time, utc_now


def test_record_decision_with_goal_and_options(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Implement auth", confidence=0.9)
    decision = graph.record_decision(
        "Use JWT tokens", goal=goal.id, rationale="Stateless", chosen=["PyJWT"], rejected=["DIY"]
    )
    children = graph.children(decision.id)
    kinds = sorted((e.type.value, n.label, n.status.value) for e, n in children)
    assert kinds == [("chosen", "PyJWT", "active"), ("rejected", "DIY", "rejected")]
    trees = graph.goal_trees()
    assert [t.goal.id for t in trees] == [goal.id]
    assert [n.id for _, n in trees[0].children] == [decision.id]
    assert graph.verify().ok


def test_supersede_is_atomic_and_current_follows_the_chain(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Auth")
    a = graph.record_decision("JWT", goal=goal.id)
    b = graph.record_decision("Sessions", goal=goal.id)
    c = graph.record_decision("Passkeys", goal=goal.id)
    graph.supersede(a.id, b.id, rationale="sessions fit better")
    graph.supersede(b.id, c.id)
    old = graph.get(a.id)
    assert old.status is NodeStatus.SUPERSEDED and old.valid_until is not None
    standing = graph.current(a.id)
    assert [n.id for n in standing.standing] == [c.id]
    assert [[n.id for n in chain] for chain in standing.chains] == [[a.id, b.id, c.id]]
    assert standing.superseded
    assert graph.current(c.id).standing[0].id == c.id and not graph.current(c.id).superseded


def test_current_follows_only_believed_supersession(graph: decisis.Graph) -> None:
    """A rule's guess below ``believe`` or a link a person rejected leaves the node standing."""
    old, guess, sure = (graph.record_decision(label) for label in ("Old", "Guess", "Sure"))
    weak = graph.supersede(old.id, guess.id, state="candidate", confidence=0.3)
    assert not graph.current(old.id).superseded
    assert [n.id for n in graph.current(old.id, believe=0.2).standing] == [guess.id]
    graph.update_edge(weak.id, confidence=0.7)
    assert [n.id for n in graph.current(old.id).standing] == [guess.id]
    graph.update_edge(weak.id, state="rejected")
    assert not graph.current(old.id, believe=0.0).superseded
    graph.supersede(guess.id, sure.id, state="confirmed")
    assert [n.id for n in graph.current(guess.id).standing] == [sure.id]
    for bad in (1.5, -0.1, "high", True):
        with pytest.raises(decisis.InvalidInput, match="believe"):
            graph.current(old.id, believe=bad)  # type: ignore[arg-type]


def test_supersede_refuses_self_and_cycles_and_changes_nothing(graph: decisis.Graph) -> None:
    a = graph.record_decision("A")
    b = graph.record_decision("B")
    graph.supersede(a.id, b.id)
    before = list(graph.events())
    with pytest.raises(decisis.InvalidInput, match="itself"):
        graph.supersede(a.id, a.id)
    with pytest.raises(decisis.CycleError):
        graph.supersede(b.id, a.id)
    assert list(graph.events()) == before
    assert graph.get(b.id).status is NodeStatus.ACTIVE


def test_split_replacement_reports_every_standing_node(graph: decisis.Graph) -> None:
    old = graph.record_decision("One cluster for everything")
    left = graph.record_decision("Cluster per environment")
    right = graph.record_decision("Manager cluster for tooling")
    graph.supersede(old.id, left.id)
    graph.supersede(old.id, right.id)
    assert {n.id for n in graph.current(old.id).standing} == {left.id, right.id}


def test_why_impact_and_path(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Ship search")
    decision = graph.record_decision("Use FTS5", goal=goal.id)
    action = graph.add_node("action", "Build index", parent=decision.id)
    outcome = graph.record_outcome("Queries under 5 ms", decision=action.id)
    assert [r.node.id for r in graph.why(outcome.id)] == [action.id, decision.id, goal.id]
    assert [r.depth for r in graph.why(outcome.id)] == [1, 2, 3]
    assert {r.node.id for r in graph.impact(goal.id)} == {decision.id, action.id, outcome.id}
    path = graph.path_between(goal.id, outcome.id)
    assert [n.id for n in path] == [goal.id, decision.id, action.id, outcome.id]
    assert graph.path_between(outcome.id, goal.id) == []
    assert [r.node.id for r in graph.descendants(goal.id, max_depth=1)] == [decision.id]
    blocked = graph.ancestors(outcome.id, edge_types=[EdgeType.BLOCKS])
    assert blocked == []


def test_short_prefixes_resolve_and_ambiguity_is_an_error(graph: decisis.Graph) -> None:
    nodes = [graph.add_goal(f"goal {i}") for i in range(5)]
    short = graph.short_ids([n.id for n in nodes])
    for node in nodes:
        assert graph.get(short[node.id]).id == node.id
        assert graph.get(node.id.upper()).id == node.id
    with pytest.raises(decisis.AmbiguousId):
        graph.get(nodes[0].id[:3])
    with pytest.raises(decisis.NotFound):
        graph.get("zzzzzzzz")


def test_recent_decisions_newest_first_and_bounded(graph: decisis.Graph) -> None:
    made = [graph.record_decision(f"decision {i}") for i in range(7)]
    recent = graph.recent_decisions(limit=3)
    assert [n.id for n in recent] == [m.id for m in reversed(made)][:3]
    with pytest.raises(decisis.InvalidInput):
        graph.recent_decisions(limit=0)


def test_at_shows_the_graph_as_it_stood(graph: decisis.Graph) -> None:
    a = graph.record_decision("Use Concourse")
    time.sleep(0.01)
    before = utc_now()
    time.sleep(0.01)
    b = graph.record_decision("Use GitHub Actions")
    graph.supersede(a.id, b.id)
    then = graph.at(before)
    assert [n.id for n in then.recent_decisions()] == [a.id]
    assert then.get(a.id).status is NodeStatus.ACTIVE
    assert then.current(a.id).standing[0].id == a.id
    with pytest.raises(decisis.Conflict, match="read-only"):
        then.add_goal("nope")
    assert graph.at(format_time(utc_now())).current(a.id).standing[0].id == b.id


def test_tombstone_hides_without_breaking_the_chain(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Keep")
    gone = graph.record_decision("Leaked secret in label", goal=goal.id)
    graph.tombstone(gone.id, "contained a secret")
    assert graph.children(goal.id) == []
    assert graph.recent_decisions() == []
    assert graph.get(gone.id).tombstoned
    assert graph.verify().ok
    with pytest.raises(decisis.Conflict):
        graph.update(gone.id, label="edit after tombstone")


def test_update_validates_and_lands(graph: decisis.Graph) -> None:
    node = graph.add_node(NodeType.ACTION, "Rotate keys")
    updated = graph.update(node.id, status="completed", confidence=0.7)
    assert updated.status is NodeStatus.COMPLETED and updated.confidence == 0.7
    with pytest.raises(decisis.InvalidInput, match="allowed"):
        graph.update(node.id, type="goal")
    with pytest.raises(decisis.InvalidInput):
        graph.update(node.id, confidence=2)
    assert graph.get(node.id).confidence == 0.7


def test_link_to_missing_node_is_not_found(graph: decisis.Graph) -> None:
    node = graph.add_goal("G")
    with pytest.raises(decisis.NotFound):
        graph.link(node.id, "0" * 26, "leads_to")
    with pytest.raises(decisis.InvalidInput, match="supersede"):
        graph.link(node.id, graph.add_goal("H").id, "supersedes")


def test_writes_to_a_whole_id_that_is_missing_or_retired_are_refused(
    graph: decisis.Graph,
) -> None:
    node = graph.add_goal("G")
    retired = graph.add_goal("Old")
    graph.tombstone(retired.id, "mistake")
    edge = graph.link(node.id, graph.add_goal("H").id)
    head = graph.store.head(graph.name)
    for ref, error in (
        ("0" * 26, decisis.NotFound),
        (edge.id, decisis.NotFound),
        (retired.id.upper(), decisis.Conflict),
    ):
        with pytest.raises(error):
            graph.link(node.id, ref)
        with pytest.raises(error):
            graph.add_node("decision", "D", parent=ref)
        with pytest.raises(error):
            graph.record_decision("D", goal=ref, chosen=["A"])
    assert graph.store.head(graph.name) == head
    linked = graph.link(node.id.upper(), edge.target)
    assert linked.source == node.id


def test_search_finds_labels_and_rationale(graph: decisis.Graph) -> None:
    graph.record_decision("Use PostgreSQL for the ledger", rationale="teams share one server")
    graph.record_decision("Adopt Kubernetes", rationale="container orchestration")
    hits = graph.search("orchestration")
    assert [h.node.label for h in hits] == ["Adopt Kubernetes"]
    assert graph.search("nothing-matches-this") == []


def test_export_import_round_trip(graph: decisis.Graph) -> None:
    goal = graph.add_goal("G")
    a = graph.record_decision("A", goal=goal.id)
    graph.supersede(a.id, graph.record_decision("B", goal=goal.id).id)
    text = graph.export("json")
    copy = decisis.Graph(graph.store, "copy")
    assert copy.import_(text) == len(list(graph.events()))
    assert [n.to_dict() for n in copy.nodes()] == [n.to_dict() for n in graph.nodes()]
    assert copy.verify().ok
    assert "digraph" in graph.export("dot") and "flowchart" in graph.export("mermaid")


def test_tampered_or_malformed_import_changes_nothing(graph: decisis.Graph) -> None:
    graph.add_goal("G")
    text = graph.export("json")
    target = decisis.Graph(graph.store, "target")
    with pytest.raises(decisis.IntegrityError, match="seq 1"):
        target.import_(text.replace('"label": "G"', '"label": "H"'))
    with pytest.raises(decisis.MalformedImport):
        target.import_("{not json")
    with pytest.raises(decisis.MalformedImport):
        target.import_('{"format": "something-else"}')
    # Python's reader takes NaN and Infinity; hashing the event then raised ValueError
    for constant in ("NaN", "-Infinity"):
        with pytest.raises(decisis.MalformedImport, match=constant):
            target.import_(text.replace('"metadata": {}', f'"metadata": {{"x": {constant}}}', 1))
    assert list(target.events()) == []


def test_import_with_a_well_chained_but_malformed_payload_is_refused(
    graph: decisis.Graph,
) -> None:
    from decisis.ledger import GENESIS, canonical_bytes, chain_checksum

    at = "2026-11-01T12:00:00.000000Z"
    payload = {"nodes": "not what node.added needs"}
    raw = canonical_bytes("x", 1, "node.added", "e", payload, decisis.model.parse_time(at))
    event = {
        "seq": 1,
        "kind": "node.added",
        "entity": "e",
        "payload": payload,
        "at": at,
        "prev_checksum": GENESIS,
        "checksum": chain_checksum(raw, GENESIS),
    }
    text = json.dumps({"format": "decisis-export", "version": 1, "graph": "x", "events": [event]})
    with pytest.raises(decisis.InvalidInput, match=r"payload\.node"):
        graph.import_(text)
    assert list(graph.events()) == []


def test_why_does_not_list_a_later_replacement_as_a_cause(graph: decisis.Graph) -> None:
    goal = graph.add_goal("Authenticate users")
    jwt = graph.record_decision("Use JWT", goal=goal.id)
    outcome = graph.record_outcome("A leaked token stayed usable", decision=jwt.id)
    sessions = graph.record_decision("Use sessions", goal=goal.id)
    graph.supersede(jwt.id, sessions.id)
    assert [r.node.id for r in graph.why(outcome.id)] == [jwt.id, goal.id]
    assert sessions.id not in {r.node.id for r in graph.impact(jwt.id)}
