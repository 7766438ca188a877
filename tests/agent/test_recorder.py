"""Per-run recording: one decision with its provenance per run, on success and on failure."""

from __future__ import annotations

import logging

import pytest

import decisis
from decisis.agent import Recorder
from decisis.model import NodeStatus, NodeType


def runs(graph: decisis.Graph) -> list[decisis.Node]:
    return [
        n for n in graph.nodes(types=[NodeType.DECISION]) if n.metadata.get("kind") == "agent-run"
    ]


def test_a_successful_run_records_one_decision_with_provenance(graph: decisis.Graph) -> None:
    before = graph.store.head(graph.name)[0]
    with Recorder(graph).run(agent="planner", role="plan") as run:
        with run.span("think"):
            pass
        run.notes["model"] = "m"
    [node] = runs(graph)
    added, recorded = graph.events(after_seq=before)  # the node and its entry, one append
    assert added.entity == recorded.entity == node.id
    assert recorded.kind is decisis.EventKind.PROVENANCE
    [entry] = graph.provenance(node.id)
    assert (entry.activity, entry.agent, entry.role) == ("run:plan", "planner", "plan")
    assert entry.agent_type is decisis.AgentType.SOFTWARE_AGENT
    assert entry.outcome == "succeeded" and entry.error is None
    assert entry.started_at is not None and entry.ended_at is not None
    assert entry.started_at <= entry.ended_at == node.recorded_at
    prov = node.metadata["provenance"]
    assert prov["activity"] == "run:plan" and prov["entity"] == run.id == node.id
    assert prov["agent"] == node.agent == "planner" and prov["outcome"] == "succeeded"
    assert prov["duration_ms"] >= 0 and [s["name"] for s in prov["spans"]] == ["think"]
    assert node.metadata["notes"] == {"model": "m"} and node.status is NodeStatus.COMPLETED
    assert graph.verify().ok


def test_a_failed_run_is_recorded_and_the_exception_re_raised(graph: decisis.Graph) -> None:
    with pytest.raises(KeyError, match="missing"), Recorder(graph).run(agent="a", role="fetch"):
        raise KeyError("missing")
    [node] = runs(graph)
    prov = node.metadata["provenance"]
    assert prov["outcome"] == "failed" and prov["error"]["type"] == "KeyError"
    assert node.status is NodeStatus.REJECTED and "KeyError" in (node.rationale or "")
    [entry] = graph.provenance(node.id)
    assert entry.outcome == "failed" and entry.error == "KeyError: 'missing'"


def test_a_run_with_an_empty_agent_or_a_long_role_is_still_recorded(graph: decisis.Graph) -> None:
    with Recorder(graph).run(agent="  ", role="r" * 300):
        pass
    [node] = runs(graph)
    [entry] = graph.provenance(node.id)
    assert entry.agent is None and entry.role == "r" * 200 and graph.verify().ok


def test_a_failure_to_record_is_logged_and_never_fails_the_run(
    graph: decisis.Graph, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder(graph)
    graph.close()
    with (
        caplog.at_level(logging.WARNING, logger="decisis.agent"),
        recorder.run(agent="a", role="plan") as run,
    ):
        value = 42
    assert value == 42 and run.id in caplog.text


def test_no_graph_records_nothing_and_still_runs() -> None:
    with Recorder(None).run(agent="a", role="r") as run:
        pass
    assert run.role == "r"


def test_opentelemetry_spans_inside_the_run_are_collected(graph: decisis.Graph) -> None:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider  # in the test environment, not a dep

    provider = TracerProvider()
    tracer = provider.get_tracer("test")
    outside = tracer.start_span("outside")
    with (
        trace.use_span(outside, end_on_exit=True),
        Recorder(graph, tracer_provider=provider).run(agent="a", role="plan") as run,
    ):
        with tracer.start_as_current_span("fetch"), tracer.start_as_current_span("parse"):
            pass
        with run.span("think"):
            pass
    with tracer.start_as_current_span("after"):
        pass
    [node] = runs(graph)
    prov = node.metadata["provenance"]
    assert sorted(s["name"] for s in prov["spans"]) == ["fetch", "parse", "think"]
    assert prov["trace_id"] == f"{outside.get_span_context().trace_id:032x}"
