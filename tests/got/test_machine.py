"""The machine without any model: pure transitions, limits, bad replies, JSON round trips."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from decisis.errors import InvalidInput
from decisis.got import (
    Aggregate,
    CallModel,
    Complete,
    Connect,
    EdgeKind,
    EmitPartial,
    Fail,
    Generate,
    KeepBestN,
    LLMFailed,
    LLMPartial,
    LLMResult,
    Machine,
    ModelReply,
    Operation,
    Refine,
    Score,
    Start,
    Termination,
)
from decisis.got.scripted import drive, sorting_answer, text_answer


def calls(directives: Sequence[object]) -> list[CallModel]:
    return [d for d in directives if isinstance(d, CallModel)]


def started(
    machine: Machine | None = None, prompt: str = "How to cache?"
) -> tuple[Machine, list[CallModel]]:
    machine, directives = (machine or Machine()).update(Start(prompt, "r"))
    return machine, calls(directives)


def test_a_new_machine_is_idle_and_empty() -> None:
    machine = Machine()
    assert machine.status() == "idle"
    assert machine.get_nodes() == []
    assert machine.find_best_leaf() is None


def test_start_adds_the_root_and_asks_for_k_thoughts() -> None:
    machine, requested = started(Machine(plan=[Generate(4)]))
    assert machine.status() == "generating"
    assert [c.call_id for c in requested] == ["r/0", "r/1", "r/2", "r/3"]
    assert all(c.purpose == "generate" for c in requested)
    assert "How to cache?" in requested[0].messages[-1].content
    assert "candidate 2 of 4" in requested[1].messages[-1].content
    assert machine.get_node(0) is not None and machine.get_node(0).content == "How to cache?"  # type: ignore[union-attr]


def test_update_never_mutates_the_machine_it_was_given() -> None:
    idle = Machine(plan=[Generate(2)])
    before = idle.to_map()
    first, requested = started(idle)
    snapshot = first.to_map()
    second, _ = first.update(LLMResult(requested[0].call_id, "idea"))
    assert idle.to_map() == before and first.to_map() == snapshot
    assert second != first
    with pytest.raises(AttributeError):
        first.config = idle.config


def test_replies_out_of_order_give_the_same_graph() -> None:
    machine, requested = started(Machine(plan=[Generate(3)]))
    forward = backward = machine
    for call in requested:
        forward, _ = forward.update(LLMResult(call.call_id, f"idea {call.call_id}"))
    for call in reversed(requested):
        backward, _ = backward.update(LLMResult(call.call_id, f"idea {call.call_id}"))
    assert forward == backward
    assert [t.content for t in forward.get_children(0)] == ["idea r/0", "idea r/1", "idea r/2"]


def test_unknown_stale_and_repeated_call_ids_are_ignored() -> None:
    machine, requested = started(Machine(plan=[Generate(2), Generate(1)]))
    same, directives = machine.update(LLMResult("nobody/9", "x"))
    assert same is machine and directives == []
    once, _ = machine.update(LLMResult(requested[0].call_id, "a"))
    again, directives = once.update(LLMResult(requested[0].call_id, "b"))
    assert again is once and directives == []
    moved_on, nxt = once.update(LLMResult(requested[1].call_id, "c"))
    assert calls(nxt) and calls(nxt)[0].call_id == "r/2"
    stale, directives = moved_on.update(LLMResult(requested[0].call_id, "late"))
    assert stale is moved_on and directives == []
    ignored, directives = moved_on.update(Start("again", "r2"))
    assert ignored is moved_on and directives == []


@pytest.mark.parametrize(
    ("plan", "reply", "expected"),
    [
        ([Generate(1)], "   ", "malformed generate reply to r/0: the reply is empty"),
        ([Generate(1)], 42, "the reply to r/0 has no text"),
        ([Generate(1)], {"text": "x", "prompt_tokens": -1}, "the reply to r/0 has no text"),
        ([Generate(1), Score()], "no idea", "malformed score reply to r/1: no score"),
        ([Generate(1), Score()], "11", "score 11.0 is outside 0 to 10"),
    ],
)
def test_malformed_replies_end_in_the_error_state(
    plan: list[object], reply: object, expected: str
) -> None:
    machine, requested = started(Machine(plan=plan))  # type: ignore[arg-type]
    while requested:
        call = requested.pop(0)
        answer = reply if call.call_id == f"r/{len(plan) - 1}" else "fine"
        machine, directives = machine.update(LLMResult(call.call_id, answer))
        requested += calls(directives)
        if machine.status() == "error":
            break
    assert machine.status() == "error"
    assert machine.termination is Termination.ERROR
    assert machine.error is not None and expected in machine.error
    assert isinstance(directives[-1], Fail) and directives[-1].reason == machine.error
    assert machine.pending_calls == []


@pytest.mark.parametrize(
    "reply", ["[[0, 5]]", "[[0]]", "pairs: none", '[["a", 1]]', "[[0, 1], [true, 0]]"]
)
def test_malformed_connection_replies_end_in_error(reply: str) -> None:
    machine = drive(
        Machine(plan=[Generate(2), Connect()]),
        "q",
        lambda call: reply if call.purpose == "connect" else f"idea {call.call_id}",
    )
    assert machine.status() == "error"
    assert "malformed connect reply" in (machine.error or "")


def test_a_failed_call_ends_in_error_and_a_sort_reply_without_a_list_too() -> None:
    machine, requested = started(Machine(plan=[Generate(2)]))
    failed, directives = machine.update(LLMFailed(requested[1].call_id, "HTTP 500"))
    assert failed.status() == "error" and "r/1 failed: HTTP 500" in (failed.error or "")
    assert directives == [Fail(failed.error or "")]
    sort = drive(Machine(task="sort"), "[3, 1, 2]", lambda call: "sorted!")
    assert sort.status() == "error" and "no list of numbers" in (sort.error or "")


def test_partials_stream_the_text_of_the_current_call() -> None:
    machine, requested = started(Machine(plan=[Generate(2)]))
    first, second = (c.call_id for c in requested)
    machine, out = machine.update(LLMPartial(first, "Hel"))
    machine, out = machine.update(LLMPartial(first, "lo"))
    assert out == [EmitPartial(first, "lo", "text", "Hello")]
    assert machine.streaming_text == "Hello"
    machine, out = machine.update(LLMPartial(second, "thinking…", "reasoning"))
    assert machine.stream(second) == "" and out[0].chunk_type == "reasoning"  # type: ignore[union-attr]
    machine, _ = machine.update(LLMPartial(first, "", "reset"))
    assert machine.stream(first) == ""
    same, out = machine.update(LLMPartial("unknown", "x"))
    assert same is machine and out == []


def test_usage_is_summed_over_every_reply() -> None:
    machine, requested = started(Machine(plan=[Generate(2)]))
    machine, _ = machine.update(LLMResult(requested[0].call_id, ModelReply("a", 10, 3)))
    machine, out = machine.update(LLMResult(requested[1].call_id, ModelReply("b", 7, 2)))
    assert (machine.usage.prompt_tokens, machine.usage.completion_tokens) == (17, 5)
    assert machine.usage.total_tokens == 22 and machine.usage.calls == 2
    assert isinstance(out[-1], Complete) and out[-1].reason is Termination.SUCCESS


def test_max_nodes_stops_before_the_graph_grows_past_the_limit() -> None:
    machine = drive(Machine(max_nodes=6, plan=[Generate(2), Generate(2)]), "q", text_answer())
    assert machine.status() == "completed"
    assert machine.termination is Termination.MAX_NODES
    assert len(machine.get_nodes()) == 3  # root + 2; the next 4 would make 7
    assert machine.result is not None and machine.result.depth == 1


def test_max_depth_stops_before_a_thought_deeper_than_the_limit() -> None:
    plan: list[Operation] = [Generate(1), Refine(), Refine(), Refine()]
    machine = drive(Machine(max_depth=2, plan=plan), "q", text_answer())
    assert machine.termination is Termination.MAX_DEPTH
    assert max(t.depth for t in machine.get_nodes()) == 2


def test_the_sorting_example_finds_a_correct_sort_from_flawed_attempts() -> None:
    machine = drive(
        Machine(task="sort", aggregation_strategy="synthesis"),
        "[5, 3, 9, 1, 1, 7]",
        sorting_answer(),
    )  # the swap of the two 1s is harmless: one flawed attempt is lucky
    assert machine.termination is Termination.SUCCESS
    assert machine.result is not None
    assert json.loads(machine.result.content) == [1, 1, 3, 5, 7, 9]
    assert machine.result.score == 0.0
    scores = sorted(t.score for t in machine.get_children(0) if t.score is not None)
    assert scores == [-1.0, 0.0, 0.0]  # a dropped number, a harmless swap, a correct sort
    path = machine.trace_path(machine.result.id)
    assert path[0].id == 0 and path[-1] == machine.result
    assert [t.metadata.get("op") for t in path[1:]] == ["generate", "aggregate", "refine"]


@pytest.mark.parametrize("strategy", ["voting", "weighted", "synthesis"])
def test_each_aggregation_strategy_merges_the_kept_thoughts(strategy: str) -> None:
    machine = drive(Machine(aggregation_strategy=strategy), "q", text_answer())  # type: ignore[arg-type]
    assert machine.termination is Termination.SUCCESS
    merged = [e for e in machine.get_edges() if e.kind is EdgeKind.AGGREGATES]
    assert len(merged) == 2 and len({e.target for e in merged}) == 1
    node = machine.get_node(merged[0].target)
    assert node is not None and len(machine.get_parents(node.id)) == 2
    assert machine.result == node


def test_voting_picks_the_answer_most_thoughts_agree_on_and_weighted_the_heaviest() -> None:
    replies = {"run/0": "A", "run/1": "B", "run/2": " a ", "run/3": "2", "run/4": "9", "run/5": "1"}
    plan: list[Operation] = [Generate(3), Score(), Aggregate()]
    voted = drive(Machine(plan=plan), "q", lambda call: replies[call.call_id])
    assert voted.result is not None and voted.result.content == "A"  # A and a: 2 votes to 1
    weighted = drive(
        Machine(plan=plan, aggregation_strategy="weighted"), "q", lambda c: replies[c.call_id]
    )
    assert weighted.result is not None and weighted.result.content == "B"  # 0.9 against 0.2 + 0.1


def test_connections_skip_self_links_repeats_and_loops() -> None:
    machine = drive(
        Machine(plan=[Generate(3), Connect(), Connect()]),
        "q",
        lambda call: (
            "[[0, 1], [1, 2], [2, 0], [1, 1], [0, 1]]" if call.purpose == "connect" else "t"
        ),
    )
    connects = [(e.source, e.target) for e in machine.get_edges() if e.kind is EdgeKind.CONNECTS]
    assert connects == [(1, 2), (2, 3)]
    assert not machine.has_cycle()
    assert [t.id for t in machine.find_leaves()] == [1, 2, 3]  # connects do not derive


def test_helpers_walk_the_graph() -> None:
    machine = drive(Machine(aggregation_strategy="synthesis"), "q", text_answer())
    aggregate = machine.result
    assert aggregate is not None
    assert {t.id for t in machine.get_ancestors(aggregate.id)} >= {0}
    assert aggregate in machine.get_descendants(0)
    assert [e.kind for e in machine.incoming_edges(aggregate.id)] == [EdgeKind.AGGREGATES] * 2
    assert all(e.source == 0 for e in machine.outgoing_edges(0))
    assert machine.get_children(0) == machine.get_nodes([1, 2, 3])
    assert machine.get_node(99) is None and machine.get_children(99) == []
    assert machine.find_best_leaf() == aggregate
    assert machine.get_nodes([1, 99]) == [machine.get_node(1)]


@pytest.mark.parametrize("strategy", ["voting", "synthesis"])
def test_json_round_trip_restores_an_equal_machine_at_every_step(strategy: str) -> None:
    machine, requested = started(Machine(aggregation_strategy=strategy))  # type: ignore[arg-type]
    answer = text_answer()
    seen = 0
    while requested:
        restored = Machine.from_map(json.loads(json.dumps(machine.to_map())))
        assert restored == machine
        call = requested.pop(0)
        machine, directives = machine.update(LLMPartial(call.call_id, "partial"))
        machine, directives = machine.update(LLMResult(call.call_id, answer(call)))
        requested += calls(directives)
        seen += 1
    assert seen > 5 and machine.status() == "completed"
    assert Machine.from_map(json.loads(json.dumps(machine.to_map()))) == machine


def test_a_restored_machine_carries_on_like_the_original() -> None:
    machine, requested = started(Machine(plan=[Generate(2), Score()]))
    restored = Machine.from_map(json.loads(json.dumps(machine.to_map())))
    for call in requested:
        machine, a = machine.update(LLMResult(call.call_id, "x"))
        restored, b = restored.update(LLMResult(call.call_id, "x"))
    assert restored == machine and a == b


def test_from_map_refuses_what_is_not_a_saved_machine() -> None:
    with pytest.raises(InvalidInput):
        Machine.from_map({"format": 99})
    data = drive(Machine(plan=[Generate(1)]), "q", text_answer()).to_map()
    data["edges"][0]["target"] = 7
    with pytest.raises(InvalidInput, match="dense"):
        Machine.from_map(data)
    data = drive(Machine(plan=[Generate(1)]), "q", text_answer()).to_map()
    data["plan"] = None
    del data["config"]["plan"]
    with pytest.raises(InvalidInput):
        Machine.from_map(data)


def test_has_cycle_finds_a_loop_in_a_loaded_graph() -> None:
    data = drive(Machine(plan=[Generate(1), Refine()]), "q", text_answer()).to_map()
    assert not Machine.from_map(data).has_cycle()
    data["edges"].append({"id": len(data["edges"]), "source": 2, "target": 0, "kind": "connects"})
    looped = Machine.from_map(data)
    assert looped.has_cycle()
    assert [t.id for t in looped.trace_path(2)] == [0, 1, 2]  # trace stops rather than loop


def test_bad_configuration_is_refused_with_the_field_named() -> None:
    for kwargs, field in [
        ({"max_nodes": 0}, "max_nodes"),
        ({"max_depth": True}, "max_depth"),
        ({"aggregation_strategy": "magic"}, "aggregation_strategy"),
        ({"task": "nope"}, "task"),
        ({"plan": []}, "plan"),
    ]:
        with pytest.raises(InvalidInput) as caught:
            Machine(**kwargs)  # type: ignore[arg-type]
        assert caught.value.field == field
    with pytest.raises(InvalidInput):
        Generate(0)
    with pytest.raises(InvalidInput):
        KeepBestN(-1)
    with pytest.raises(InvalidInput):
        Machine().update("hello")  # type: ignore[arg-type]


def test_an_empty_prompt_is_an_error_state_not_an_exception() -> None:
    machine, directives = Machine().update(Start("  ", "r"))
    assert machine.status() == "error" and directives == [Fail("the prompt is empty")]
