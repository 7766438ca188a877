"""The decision tools: schemas, every handler on a real SQLite graph, and bad calls as errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

import decisis
from decisis.agent import TOOLS, Toolbox, ToolResult, tool_names
from decisis.model import EdgeType, NodeStatus, NodeType

EXPECTED = {
    "add_goal", "record_decision", "record_outcome", "query_decisions", "supersede_decision",
    "current_decision", "find_decisions", "find_precedents", "correct_decision", "decisions_for",
    "stale_dependents", "reaffirm_decision", "check_plan",
}  # fmt: skip


def ok(result: ToolResult) -> dict[str, Any]:
    assert not result.is_error, result.text
    assert json.loads(result.text) == result.data
    return result.data


def error(result: ToolResult) -> dict[str, Any]:
    assert result.is_error, result.text
    err = result.data["error"]
    assert isinstance(err, dict)
    return err


def test_every_tool_has_a_description_and_a_closed_self_contained_schema() -> None:
    assert set(tool_names()) == EXPECTED
    for spec in TOOLS:
        schema = spec.schema
        assert spec.description.strip()
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert "$ref" not in json.dumps(schema) and "$defs" not in schema
        for prop in schema["properties"].values():
            assert prop.get("description"), (spec.name, prop)


def test_goal_decision_outcome_land_in_the_graph(box: Toolbox, graph: decisis.Graph) -> None:
    goal = ok(box.call("add_goal", {"label": "Ship auth", "confidence": 0.9}))["goal"]
    made = ok(
        box.call(
            "record_decision",
            {"label": "Use JWT", "goal_id": goal["id"], "chosen": ["JWT"], "rejected": ["cookies"]},
        )
    )
    decision = made["decision"]
    assert len(decision["id"]) < 26 and decision["status"] == "active"
    assert {o["label"]: o["status"] for o in made["options"]} == {
        "JWT": "active",
        "cookies": "rejected",
    }
    outcome = ok(
        box.call("record_outcome", {"label": "Login works", "decision_id": decision["id"]})
    )
    node = graph.get(decision["id"])
    assert node.type is NodeType.DECISION and graph.get(goal["id"]).confidence == 0.9
    kinds = {edge.type for edge, _ in graph.children(node.id)}
    assert kinds == {EdgeType.CHOSEN, EdgeType.REJECTED, EdgeType.LEADS_TO}
    assert graph.get(outcome["outcome"]["id"]).type is NodeType.OUTCOME
    assert graph.verify().ok


def test_short_ids_handed_out_stay_usable_as_the_graph_grows(box: Toolbox) -> None:
    first = ok(box.call("add_goal", {"label": "First"}))["goal"]["id"]
    for n in range(30):
        ok(box.call("add_goal", {"label": f"goal {n}"}))
    why = ok(box.call("query_decisions", {"kind": "current", "id": first}))
    assert why["node"]["label"] == "First"


def test_queries_of_every_kind(box: Toolbox) -> None:
    goal = ok(box.call("add_goal", {"label": "Ship auth"}))["goal"]["id"]
    dec = ok(box.call("record_decision", {"label": "Use JWT", "goal_id": goal}))["decision"]["id"]
    out = ok(box.call("record_outcome", {"label": "It works", "decision_id": dec}))["outcome"]["id"]

    def labels(kind: str, **more: Any) -> list[str]:
        data = ok(box.call("query_decisions", {"kind": kind, **more}))
        return [n["label"] for n in data["nodes"]]

    assert labels("active_goals") == ["Ship auth"]
    assert labels("recent") == ["Use JWT"]
    assert labels("path", id=goal, target_id=out) == ["Ship auth", "Use JWT", "It works"]
    assert labels("ancestors", id=out) == ["Use JWT", "Ship auth"]
    assert labels("descendants", id=goal) == ["Use JWT", "It works"]
    assert labels("why", id=out) == ["Use JWT", "Ship auth"]
    assert labels("descendants", id=goal, limit=1) == ["Use JWT"]
    capped = ok(box.call("query_decisions", {"kind": "descendants", "id": goal, "limit": 1}))
    assert capped["not_shown"] == 1


def test_supersede_by_new_label_and_by_id(box: Toolbox, graph: decisis.Graph) -> None:
    old = ok(box.call("record_decision", {"label": "Use JWT"}))["decision"]["id"]
    done = ok(box.call("supersede_decision", {"old_id": old, "new_label": "Use PASETO"}))
    assert done["superseded"]["status"] == "superseded"
    new = done["standing"]["id"]
    current = ok(box.call("query_decisions", {"kind": "current", "id": old}))
    assert current["superseded"] is True and [n["id"] for n in current["standing"]] == [new]
    other = ok(box.call("record_decision", {"label": "Use opaque tokens"}))["decision"]["id"]
    ok(box.call("supersede_decision", {"old_id": new, "new_id": other, "rationale": "simpler"}))
    assert graph.get(new).status is NodeStatus.SUPERSEDED


def test_find_decisions_searches_the_store(box: Toolbox) -> None:
    ok(box.call("record_decision", {"label": "Use PostgreSQL for the ledger"}))
    ok(box.call("record_decision", {"label": "Deploy with Kubernetes"}))
    hits = ok(box.call("find_decisions", {"search": "postgresql"}))["hits"]
    assert [h["label"] for h in hits] == ["Use PostgreSQL for the ledger"] and "score" in hits[0]


def test_find_decisions_leaves_out_the_questions_corrections_keep(adr_box: Toolbox) -> None:
    question = "Which GitHub Actions runner builds the docs?"
    ok(adr_box.call("correct_decision", {"question": question, "correct_decision_id": "team:002"}))
    graph = adr_box.graph
    assert graph is not None
    stored = [n for n in graph.nodes(types=[NodeType.OBSERVATION]) if n.label == question]
    assert stored  # the correction keeps its question as a node ...
    hits = ok(adr_box.call("find_decisions", {"search": "GitHub Actions runner docs"}))["hits"]
    assert hits and question not in [h["label"] for h in hits]  # ... which is not a decision


def test_find_precedents_finds_by_meaning(box: Toolbox) -> None:
    ok(box.call("record_decision", {"label": "Use server sessions in Redis"}))
    ok(box.call("record_decision", {"label": "Deploy with Kubernetes"}))
    ok(box.call("record_decision", {"label": "Use PostgreSQL for orders"}))
    found = ok(box.call("find_precedents", {"situation": "where do we keep login state?", "k": 2}))
    labels = [p["label"] for p in found["precedents"]]
    assert "Use server sessions in Redis" in labels
    assert all(p["found_by"] and "score" in p for p in found["precedents"])
    assert "situation" in error(box.call("find_precedents", {"situation": ""}))["message"]


def test_current_decision_answers_from_recorded_decisions_too(box: Toolbox) -> None:
    jwt = ok(box.call("record_decision", {"label": "Use JWT tokens for login"}))["decision"]["id"]
    swap = {"old_id": jwt, "new_label": "Use server sessions for login", "rationale": "revocable"}
    sessions = ok(box.call("supersede_decision", swap))["standing"]["id"]
    answer = ok(box.call("current_decision", {"question": "Do we still use JWT tokens?"}))
    assert (answer["kind"], answer["answer"]) == ("decision", sessions)
    assert answer["chain"] == [jwt, sessions] and "replacing Use JWT tokens" in answer["text"]
    nothing = ok(box.call("current_decision", {"question": "What is the dress code?"}))
    assert (nothing["answer"], nothing["kind"], nothing["decisions"]) == (None, None, [])


def test_current_decision_says_which_kind_of_record_stands(adr_box: Toolbox) -> None:
    ok(adr_box.call("record_decision", {"label": "Run the nightly builds on a Jenkins agent"}))
    answer = ok(adr_box.call("current_decision", {"question": "Do we build on a Jenkins server?"}))
    assert (answer["kind"], answer["answer"]) == ("adr-record", "team:002")
    assert [d["label"] for d in answer["decisions"]] == [
        "Run the nightly builds on a Jenkins agent"
    ]


def test_current_decision_and_correction_use_the_adr_answers(adr_box: Toolbox) -> None:
    answer = ok(adr_box.call("current_decision", {"question": "Do we build on a Jenkins server?"}))
    assert answer["answer"] == "team:002" and answer["chain"] == ["team:001", "team:002"]
    question = "What is the dress code for the summer party?"
    assert ok(adr_box.call("current_decision", {"question": question}))["answer"] is None
    fixed = ok(
        adr_box.call("correct_decision", {"question": question, "correct_decision_id": "team:002"})
    )
    assert fixed == {"question": question, "answer": "team:002", "was": None}
    assert ok(adr_box.call("current_decision", {"question": question}))["answer"] == "team:002"
    hits = ok(adr_box.call("find_decisions", {"search": "GitHub Actions"}))["hits"]
    by_id = ok(
        adr_box.call(
            "correct_decision", {"question": question, "correct_decision_id": hits[0]["id"]}
        )
    )
    assert by_id["answer"] == "team:002"
    none = ok(adr_box.call("correct_decision", {"question": question, "correct_decision_id": None}))
    assert none["answer"] is None


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("record_decision", {"label": "x", "chosen": "JWT"}, "chosen"),
        ("record_decision", {}, "label"),
        ("record_decision", {"label": "x", "colour": "red"}, "colour"),
        ("add_goal", {"label": "x", "confidence": 3}, "confidence"),
        ("query_decisions", {"kind": "sideways"}, "kind"),
        ("query_decisions", {"kind": "why"}, "needs id"),
        ("query_decisions", {"kind": "path", "id": "01"}, "target_id"),
        ("supersede_decision", {"old_id": "01"}, "exactly one"),
        ("find_decisions", {"search": ""}, "search"),
        ("add_goal", "{not json", "JSON object"),
        ("add_goal", "[1, 2]", "JSON object"),
        ("undo_everything", {}, "no tool named so"),
    ],
)
def test_bad_calls_come_back_as_errors_saying_what_is_allowed(
    box: Toolbox, name: str, arguments: Any, says: str
) -> None:
    err = error(box.call(name, arguments))
    assert says in err["message"] and err["allowed"]


def test_store_errors_name_the_field(box: Toolbox) -> None:
    err = error(box.call("record_outcome", {"label": "x", "decision_id": "zzzz"}))
    assert err["type"] == "NotFound" and "zzzz" in err["message"]
    dec = ok(box.call("record_decision", {"label": "Use JWT"}))["decision"]["id"]
    err = error(box.call("supersede_decision", {"old_id": dec, "new_id": dec}))
    assert err["type"] == "InvalidInput" and err["field"] == "new" and err["allowed"]
    err = error(box.call("correct_decision", {"question": "q", "correct_decision_id": dec}))
    assert err["type"] == "NotFound" and "decision record" in err["message"]


def test_a_broken_store_is_an_error_result_not_an_exception(graph: decisis.Graph) -> None:
    box = Toolbox(graph)
    graph.close()
    result = box.call("add_goal", {"label": "after close"})
    assert result.is_error and result.data["error"]["type"]


def test_a_toolbox_without_a_graph_says_it_is_disabled() -> None:
    result = Toolbox(None, disabled_reason="the store did not open").call(
        "add_goal", {"label": "x"}
    )
    assert result.is_error and "disabled" in result.data["error"]["message"]
    assert "did not open" in result.data["error"]["message"]


def test_recent_leaves_run_records_out(box: Toolbox, graph: decisis.Graph) -> None:
    from decisis.agent import Recorder

    ok(box.call("record_decision", {"label": "Use JWT"}))
    with Recorder(graph).run(agent="a", role="plan"):
        pass
    ok(box.call("record_decision", {"label": "Use Redis"}))
    recent = ok(box.call("query_decisions", {"kind": "recent", "limit": 1}))
    assert [n["label"] for n in recent["nodes"]] == ["Use Redis"] and recent["not_shown"] == 1


def test_the_tools_take_every_question_the_library_takes(adr_box: Toolbox) -> None:
    from decisis.adr.answer import MAX_QUESTION_CHARS

    longest = "Do we build on a Jenkins server? " + "x" * (MAX_QUESTION_CHARS - 33)
    assert len(longest) == MAX_QUESTION_CHARS
    assert ok(adr_box.call("current_decision", {"question": longest}))["answer"] == "team:002"
    for name in ("current_decision", "correct_decision"):
        schema = next(t for t in TOOLS if t.name == name).schema
        assert schema["properties"]["question"]["maxLength"] == MAX_QUESTION_CHARS
        err = error(
            adr_box.call(name, {"question": longest + "?", "correct_decision_id": "team:002"})
        )
        assert "question" in err["message"] and err["allowed"]


def test_stale_reaffirm_and_check_plan_tools(box: Toolbox) -> None:
    graph = box.graph
    assert graph is not None
    old = graph.record_decision("Use Jenkins for CI")
    job = graph.add_node("action", "Write a Jenkinsfile", parent=old.id)
    new = graph.record_decision("Use GitHub Actions")
    graph.supersede(old.id, new.id)
    [item] = ok(box.call("stale_dependents", {}))["stale"]
    assert (item["node"]["label"], item["edge_type"]) == ("Write a Jenkinsfile", "leads_to")
    assert [n["label"] for n in item["standing"]] == ["Use GitHub Actions"]
    current = ok(box.call("query_decisions", {"kind": "current", "id": old.id}))
    assert [s["node"]["label"] for s in current["stale"]] == ["Write a Jenkinsfile"]
    checked = ok(box.call("check_plan", {"plan": "1. Add a Jenkins job\n2. Open a PR"}))
    assert checked["steps_checked"] == 2
    [step] = checked["steps"]
    assert step["step"] == 1 and step["findings"][0]["kind"] == "replaced"
    done = ok(box.call("reaffirm_decision", {"id": job.id, "note": "moved to a workflow"}))
    assert done["stale"] == []
    again = box.call("reaffirm_decision", {"id": job.id})
    assert again.is_error and again.data["error"]["field"] == "id"
    assert box.call("check_plan", {"plan": ""}).is_error


def test_superseding_through_the_tool_lists_what_rested_on_it(box: Toolbox) -> None:
    graph = box.graph
    assert graph is not None
    nexus = graph.record_decision("Host artefacts on Nexus")
    graph.add_node("action", "Publish the jars to Nexus", parent=nexus.id)
    done = ok(box.call("supersede_decision", {"old_id": nexus.id, "new_label": "Host on S3"}))
    [item] = done["stale"]
    assert item["node"]["label"] == "Publish the jars to Nexus"
    assert [n["label"] for n in item["standing"]] == ["Host on S3"]
