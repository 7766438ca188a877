"""The one error table: every error of the tree has one HTTP status, one exit code and one
body shape, whichever door reports it."""

from __future__ import annotations

import decisis
from decisis.agent.tools import Toolbox, error_result
from decisis.errors import ERROR_TABLE, answer_for, error_body


def _tree(kind: type[decisis.DecisisError]) -> list[type[decisis.DecisisError]]:
    return [kind, *(k for sub in kind.__subclasses__() for k in _tree(sub))]


def test_every_error_of_the_tree_has_an_answer_by_class_and_by_name() -> None:
    for kind in _tree(decisis.DecisisError):
        by_name = answer_for(kind.__name__)
        assert by_name.exit == 2, kind
        assert by_name == next(a for k, a in ERROR_TABLE if issubclass(kind, k)), kind


def test_statuses_follow_the_most_specific_class() -> None:
    assert answer_for(decisis.AmbiguousId("node", "ab", ["abc", "abd"])).http == 409
    assert answer_for(decisis.NotFound("node", "ab")).http == 404
    assert answer_for(decisis.InvalidArguments("add_goal", "label: missing", "label")).http == 422
    assert answer_for(decisis.UnsupportedStore("ftp://x")).http == 503
    assert answer_for(decisis.StoreError("locked")).http == 503
    assert answer_for(decisis.ToolsDisabled("no store")).http == 503
    assert answer_for("HeadMoved").http == 409
    # a subclass defined outside decisis.errors is found by name once its module is loaded (a
    # tool result names an error its own process raised)
    from decisis.adr.read.reader import NotARecord

    assert answer_for(NotARecord.__name__).http == 422
    assert answer_for(RuntimeError("a bug")) == (500, 1) and answer_for("KeyError").http == 500


def test_one_body_shape_on_every_door() -> None:
    refused = decisis.InvalidInput("confidence", "must be in [0, 1]", "0 to 1")
    body = error_body(refused)
    assert body == {
        "error": {
            "type": "InvalidInput",
            "message": "confidence: must be in [0, 1] (allowed: 0 to 1)",
            "field": "confidence",
            "allowed": "0 to 1",
        }
    }
    assert error_result("add_goal", refused).data == body  # the tools keep field and allowed
    missing = error_body(decisis.NotFound("node", "abc"))["error"]
    assert missing["field"] is None and missing["allowed"] is None


def test_disabled_tools_and_refused_arguments_are_errors_of_the_tree() -> None:
    disabled = Toolbox(None, disabled_reason="no store is configured").call("add_goal", {})
    assert disabled.data["error"]["type"] == "ToolsDisabled"
    assert "no store is configured" in disabled.data["error"]["message"]
    with decisis.open("memory://") as graph:
        bad = Toolbox(graph).call("add_goal", {"confidence": "high"})
    error = bad.data["error"]
    assert error["type"] == "InvalidArguments" and error["field"] == "arguments"
    assert error["message"].startswith("add_goal: ") and "label" in error["allowed"]
    unknown = Toolbox(None).call("undo_everything", {}).data["error"]
    assert unknown["type"] == "InvalidArguments" and unknown["field"] == "name"
    assert "add_goal" in unknown["allowed"]
