"""The transitions: pure functions from (config, run, message) to (run, directives).

An operation begins by checking the limits, then either acts at once (local
scoring, keeping the best, voting) or issues its model calls and waits. Replies
are parsed on arrival, so a malformed one stops the run at once, and committed in
call order when the last arrives. Nothing here raises on a bad reply: it becomes
the error state with a reason.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from .graph import ThoughtGraph, rank_key
from .messages import (
    CallModel,
    Complete,
    Directive,
    EmitPartial,
    Fail,
    LLMFailed,
    LLMPartial,
    LLMResult,
    ModelReply,
    Start,
    Termination,
)
from .operations import Aggregate, Connect, Generate, KeepBestN, Operation, Refine, Score
from .prompts import render_thoughts, renderer
from .pvector import PVector
from .state import NO_CALLS, Call, Config, Run
from .tasks import Task, get_task
from .thoughts import EdgeKind, Phase, Thought, Usage

__all__ = ["on_failed", "on_partial", "on_result", "on_start", "parse_pairs", "parse_score"]

Step = tuple[Run, list[Directive]]

_PHASE = {"generate": Phase.GENERATING, "refine": Phase.GENERATING, "score": Phase.GENERATING}
_PHASE |= {"connect": Phase.CONNECTING, "aggregate": Phase.AGGREGATING}
_KIND = {"generate": EdgeKind.GENERATES, "refine": EdgeKind.REFINES}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


# -- reply parsing --------------------------------------------------------------------
def parse_score(text: str) -> float:
    """A 0-10 rating as a score in [0, 1]; ``ValueError`` when there is none."""
    match = _NUMBER.search(text)
    if match is None:
        raise ValueError(f"no score in the reply {text[:80]!r}")
    value = float(match.group())
    if not (math.isfinite(value) and 0.0 <= value <= 10.0):
        raise ValueError(f"score {value} is outside 0 to 10")
    return value / 10.0


def parse_pairs(text: str, count: int) -> list[tuple[int, int]]:
    """``[[from, to], …]`` index pairs below ``count``; ``ValueError`` otherwise."""
    start, end = text.find("["), text.rfind("]")
    try:
        data = json.loads(text[start : end + 1]) if 0 <= start < end else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, list):
        raise ValueError(f"no JSON array of pairs in the reply {text[:80]!r}")
    pairs: list[tuple[int, int]] = []
    for pair in data:
        ok = isinstance(pair, list) and len(pair) == 2
        if not ok or not all(type(i) is int and 0 <= i < count for i in pair):
            raise ValueError(f"{pair!r} is not a pair of thought indexes below {count}")
        pairs.append((pair[0], pair[1]))
    return pairs


def _reply_text(result: object) -> tuple[str, int, int] | None:
    """The text and token counts of a result, or None when it has no text."""
    if isinstance(result, ModelReply):
        text, prompt, completion = result.text, result.prompt_tokens, result.completion_tokens
    elif isinstance(result, str):
        text, prompt, completion = result, 0, 0
    elif isinstance(result, Mapping):
        text = result.get("text", result.get("content"))
        prompt, completion = result.get("prompt_tokens", 0), result.get("completion_tokens", 0)
    else:
        return None
    counts_ok = type(prompt) is int and prompt >= 0 and type(completion) is int and completion >= 0
    return (text, prompt, completion) if isinstance(text, str) and counts_ok else None


def _check_reply(task: Task, call: Call, text: str, count: int) -> None:
    """Raise ``ValueError`` if ``text`` cannot be committed for ``call``."""
    if call.purpose == "score":
        parse_score(text)
    elif call.purpose == "connect":
        parse_pairs(text, count)
    else:
        task.parse(text)


_EMPTY: PVector[Any] = PVector()


# -- endings --------------------------------------------------------------------------
def _no_calls(run: Run) -> Run:
    """``run`` with no operation in flight."""
    return run._replace(
        pending=NO_CALLS, replies=_EMPTY, answered=0, streams=_EMPTY, current_call=None
    )


def fail(run: Run, reason: str) -> Step:
    failed = _no_calls(run)._replace(phase=Phase.ERROR, termination=Termination.ERROR, error=reason)
    return failed, [Fail(reason)]


def finish(run: Run, reason: Termination) -> Step:
    graph = run.graph
    best = graph.best(graph.nodes[i] for i in run.frontier) or graph.best(graph.leaves())
    assert best is not None  # a started run always has its root
    done = _no_calls(run)._replace(phase=Phase.COMPLETED, termination=reason, result_id=best.id)
    return done, [Complete(best.content, best.id, reason)]


# -- beginning operations -------------------------------------------------------------
def _limit(config: Config, run: Run, op: Operation, thoughts: list[Thought]) -> Termination | None:
    """The limit ``op`` would break by adding thoughts to the frontier ``thoughts``, if any."""
    if isinstance(op, Generate):
        new = len(thoughts) * op.k
    elif isinstance(op, Refine):
        new = len(thoughts)
    elif isinstance(op, Aggregate):
        new = 1
    else:
        return None
    if len(run.graph.nodes) + new > config.max_nodes:
        return Termination.MAX_NODES
    if 1 + max([t.depth for t in thoughts]) > config.max_depth:
        return Termination.MAX_DEPTH
    return None


Request = tuple[tuple[int, ...], Mapping[str, object]]  # sources, template values


@lru_cache(maxsize=64)
def _blank(size: int, fill: str | None) -> PVector[Any]:
    """``size`` copies of ``fill``: the empty replies and streams of an operation's calls.
    Shared between runs, which is safe because a ``PVector`` never changes."""
    return PVector([fill] * size)


def _issue(config: Config, run: Run, purpose: str, requests: Sequence[Request]) -> Step:
    """Wait on one model call per request: (source thoughts, template values, which
    include the run's ``prompt``)."""
    pending: dict[str, Call] = {}
    directives: list[Directive] = []
    fill, prefix, made = renderer(config.prompts, purpose), run.run_id, run.calls_made
    for order, (sources, values) in enumerate(requests):
        call_id = f"{prefix}/{made + order}"
        pending[call_id] = tuple.__new__(Call, (purpose, sources, order))  # Call(), less a frame
        directives.append(CallModel(call_id, fill(values), purpose))
    count = len(requests)
    waiting = run._replace(
        phase=_PHASE[purpose],
        pending=pending,
        replies=_blank(count, None),
        answered=0,
        streams=_blank(count, ""),
        current_call=None,
        calls_made=made + count,
    )
    return waiting, directives


def _begin(config: Config, task: Task, run: Run, op: Operation, thoughts: list[Thought]) -> Step:
    """Start ``op`` on the frontier ``thoughts``: issue its calls, or do it at once and
    move past it (no directives)."""
    prompt = run.prompt
    if isinstance(op, Generate):
        k = op.k
        requests = [
            ((t.id,), {"prompt": prompt, "thought": t.content, "number": n + 1, "k": k})
            for t in thoughts
            for n in range(k)
        ]
        return _issue(config, run, "generate", requests)
    if isinstance(op, Refine):
        requests = [((t.id,), {"prompt": prompt, "thought": t.content}) for t in thoughts]
        return _issue(config, run, "refine", requests)
    if isinstance(op, Score):
        return _score(config, task, run, [t for t in thoughts if t.score is None])
    if isinstance(op, KeepBestN):
        kept = tuple([t.id for t in sorted(thoughts, key=rank_key)[: op.n]])
        return run._replace(frontier=kept, step=run.step + 1), []
    listing = {"prompt": prompt, "thoughts": render_thoughts([t.content for t in thoughts])}
    if isinstance(op, Connect) and len(thoughts) > 1:
        return _issue(config, run, "connect", [(run.frontier, listing)])
    if isinstance(op, Aggregate) and config.aggregation_strategy == "synthesis":
        return _issue(config, run, "aggregate", [(run.frontier, listing)])
    if isinstance(op, Aggregate):
        return _vote(config, run, thoughts), []
    return run._replace(step=run.step + 1), []  # Connect with a single thought


def _score(config: Config, task: Task, run: Run, unscored: list[Thought]) -> Step:
    if task.scorer is None:
        requests = [((t.id,), {"prompt": run.prompt, "thought": t.content}) for t in unscored]
        if requests:
            return _issue(config, run, "score", requests)
        return run._replace(step=run.step + 1), []
    graph = run.graph
    for thought in unscored:
        try:
            score = task.scorer(thought.content, run.prompt)
        except ValueError as exc:
            return fail(run, f"cannot score thought {thought.id}: {exc}")
        graph = graph.set_score(thought.id, score)
    return run._replace(graph=graph, step=run.step + 1), []


def _vote(config: Config, run: Run, thoughts: list[Thought]) -> Run:
    """Aggregate without a model: the answer most thoughts agree on ("voting"), or that
    carries the most score ("weighted"; negative scores are shifted up to start at 0)."""
    floor = min([0.0, *(t.score for t in thoughts if t.score is not None)])
    support: dict[str, float] = {}
    best: dict[str, Thought] = {}
    for thought in sorted(thoughts, key=rank_key):
        key = " ".join(thought.content.split()).casefold()
        weight = 1.0
        if config.aggregation_strategy == "weighted":
            weight = (thought.score if thought.score is not None else floor) - floor
        support[key] = support.get(key, 0.0) + weight
        best.setdefault(key, thought)
    winner = max(support, key=support.__getitem__)  # ties: the first, i.e. best-ranked
    chosen = best[winner]
    metadata = {
        "op": "aggregate",
        "strategy": config.aggregation_strategy,
        "support": support[winner],
        "total": sum(support.values()),
    }
    depth = 1 + max(t.depth for t in thoughts)
    graph, node = run.graph.add_node(chosen.content, depth, metadata)
    if chosen.score is not None:
        graph = graph.set_score(node.id, chosen.score)
    for thought in thoughts:
        graph = graph.add_edge(thought.id, node.id, EdgeKind.AGGREGATES)
    return run._replace(graph=graph, frontier=(node.id,), step=run.step + 1)


def advance(config: Config, task: Task, run: Run) -> Step:
    """Run operations until one waits on the model, the plan ends, or a limit is hit."""
    plan = config.plan
    while run.step < len(plan):
        op = plan[run.step]
        thoughts = run.graph.nodes.take(run.frontier)
        limit = _limit(config, run, op, thoughts)
        if limit is not None:
            return finish(run, limit)
        run, directives = _begin(config, task, run, op, thoughts)
        if directives or run.phase is Phase.ERROR:
            return run, directives
    return finish(run, Termination.SUCCESS)


# -- committing replies ---------------------------------------------------------------
def _commit(task: Task, run: Run, texts: list[str | None], usage: Usage) -> Run:
    """Fold the finished operation's reply ``texts`` (by call order) into the graph, in
    call order, and leave no call in flight (one ``_replace``: this runs at the end of
    every operation)."""
    graph: ThoughtGraph = run.graph
    derived: list[tuple[str, int, dict[str, Any], Sequence[int], EdgeKind]] = []
    depths: dict[tuple[int, ...], int] = {}  # calls of one operation often share sources
    for purpose, sources, order in run.pending.values():  # built in call order
        text = texts[order]
        assert text is not None
        if purpose == "score":
            graph = graph.set_score(sources[0], parse_score(text))
        elif purpose == "connect":
            graph = _connect(graph, sources, parse_pairs(text, len(sources)))
        else:
            depth = depths.get(sources)
            if depth is None:
                nodes = graph.nodes
                depth = depths[sources] = 1 + max([nodes[s].depth for s in sources])
            kind = _KIND.get(purpose, EdgeKind.AGGREGATES)
            derived.append((task.parse(text), depth, {"op": purpose}, sources, kind))
    frontier = run.frontier
    if derived:
        first = len(graph.nodes)  # the new thoughts' ids follow on
        graph, _ = graph.add_derived(derived)
        frontier = tuple(range(first, first + len(derived)))
    return run._replace(
        graph=graph,
        frontier=frontier,
        step=run.step + 1,
        usage=usage,
        pending=NO_CALLS,
        replies=_EMPTY,
        answered=0,
        streams=_EMPTY,
        current_call=None,
    )


def _connect(
    graph: ThoughtGraph, sources: tuple[int, ...], pairs: list[tuple[int, int]]
) -> ThoughtGraph:
    """Add ``connects`` edges, skipping self-links, repeats and links that would close a loop."""
    for a, b in pairs:
        source, target = sources[a], sources[b]
        repeat = any(graph.edges[e].target == target for e in graph.out[source])
        if source != target and not repeat and not graph.reaches(target, source):
            graph = graph.add_edge(source, target, EdgeKind.CONNECTS)
    return graph


# -- messages -------------------------------------------------------------------------
def on_start(config: Config, run: Run, message: Start) -> Step:
    if run.phase is not Phase.IDLE:
        return run, []
    if not isinstance(message.prompt, str) or not message.prompt.strip():
        return fail(run._replace(run_id=str(message.call_id)), "the prompt is empty")
    graph, root = ThoughtGraph().add_node(message.prompt, 0, {"role": "prompt"})
    started = run._replace(
        phase=Phase.GENERATING,
        prompt=message.prompt,
        run_id=str(message.call_id),
        graph=graph,
        frontier=(root.id,),
    )
    return advance(config, get_task(config.task), started)


def on_result(config: Config, run: Run, message: LLMResult) -> Step:
    call = run.waiting(message.call_id)
    if call is None:
        return run, []  # unknown, stale or repeated: ignored
    reply = _reply_text(message.result)
    if reply is None:
        return fail(run, f"the reply to {message.call_id} has no text")
    text, prompt_tokens, completion_tokens = reply
    usage = run.usage.add(prompt_tokens, completion_tokens)
    task = get_task(config.task)
    try:
        _check_reply(task, call, text, len(call.sources))
    except ValueError as exc:
        reason = f"malformed {call.purpose} reply to {message.call_id}: {exc}"
        return fail(run._replace(usage=usage), reason)
    answered = run.answered + 1
    if answered < len(run.pending):
        replies = run.replies.set(call.order, text)
        return run._replace(usage=usage, replies=replies, answered=answered), []
    texts = list(run.replies)  # the last reply: a list, as the vector would be dropped at once
    texts[call.order] = text
    return advance(config, task, _commit(task, run, texts, usage))


def on_partial(run: Run, message: LLMPartial) -> Step:
    call = run.waiting(message.call_id)
    if call is None or not isinstance(message.delta, str):
        return run, []
    text = run.streams[call.order]
    if message.chunk_type == "reset":
        text = ""
    elif message.chunk_type == "text":
        text += message.delta
    streams = run.streams.set(call.order, text)
    streaming = run._replace(streams=streams, current_call=message.call_id)
    return streaming, [EmitPartial(message.call_id, message.delta, message.chunk_type, text)]


def on_failed(run: Run, message: LLMFailed) -> Step:
    if run.waiting(message.call_id) is None:
        return run, []
    return fail(run, f"call {message.call_id} failed: {message.reason}")
