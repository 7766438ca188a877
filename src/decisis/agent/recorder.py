"""Per-run recording: every agent run leaves exactly one decision with its provenance.

``with recorder.run(agent="planner", role="plan") as run:`` writes, when the block
ends, one decision node and its provenance entry, in one append: a
``provenance.recorded`` event (``decisis.model.provenance``: the activity
``run:<role>``, the run's agent as a ``software_agent`` in the run's role, start and end,
outcome, the error if any), which ``Graph.provenance`` and the PROV-O export read. The
node's ``metadata.provenance`` keeps the same words with the spans seen in the run and
the trace id.
The run's exception is recorded and re-raised; a failure to record is logged and
never fails the run. With OpenTelemetry installed the run is also a span, so spans
started inside it are its children, and their trace id is kept.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from decisis.agent.handlers import RUN_KIND
from decisis.graph import Graph
from decisis.model import Node, NodeStatus, NodeType, format_time, new_id, utc_now
from decisis.model import events as drafts
from decisis.model.enums import AgentType
from decisis.model.provenance import MAX_ERROR_LENGTH, MAX_NAME_LENGTH, provenance_payload

__all__ = ["Recorder", "Run"]

log = logging.getLogger("decisis.agent")


@dataclass
class Run:
    """One run in progress: its id, who and what, and the spans and notes gathered so far."""

    id: str
    agent: str
    role: str
    started: float
    spans: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    trace_id: str | None = None
    collected: bool = False  # OpenTelemetry hands this run its spans (``_SpanCollector``)
    span_id: int = 0  # the run's own OpenTelemetry span
    provider: Any = None  # the OpenTelemetry tracer provider, ``None`` for the global one

    @contextmanager
    def span(self, name: str) -> Iterator[None]:
        """Time a step of the run; it lands in the provenance (and in OpenTelemetry)."""
        start = time.perf_counter()
        with _otel_span(name, self.provider):
            try:
                yield
            finally:
                if not self.collected:
                    ms = (time.perf_counter() - start) * 1000
                    self.spans.append({"name": name, "ms": round(ms, 3)})


def _otel_span(name: str, provider: Any) -> AbstractContextManager[Any]:
    try:
        from opentelemetry import trace
    except ImportError:
        return nullcontext()
    tracer = trace.get_tracer("decisis.agent", tracer_provider=provider)
    return tracer.start_as_current_span(name)


class _SpanCollector:
    """An OpenTelemetry span processor: spans started under a run's span, at any depth,
    are handed to that run when they end. Installed once, on an SDK tracer provider."""

    def __init__(self) -> None:
        self.owner: dict[int, Run] = {}  # span id -> the run it belongs to

    def on_start(self, span: Any, parent_context: Any = None) -> None:
        parent = span.parent
        run = self.owner.get(parent.span_id) if parent is not None else None
        if run is not None:
            self.owner[span.context.span_id] = run

    def on_end(self, span: Any) -> None:
        run = self.owner.pop(span.context.span_id, None)
        if run is not None and span.context.span_id != run.span_id and span.end_time:
            ms = (span.end_time - span.start_time) / 1e6
            run.spans.append({"name": span.name, "ms": round(ms, 3)})

    def _on_ending(self, span: Any) -> None:
        pass

    def shutdown(self) -> None:
        self.owner.clear()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


_COLLECTORS: dict[int, _SpanCollector] = {}


def _collector(provider: Any) -> _SpanCollector | None:
    """The collector on an SDK tracer provider (added on first use), if it is one."""
    if provider is None:
        from opentelemetry import trace

        provider = trace.get_tracer_provider()
    add = getattr(provider, "add_span_processor", None)
    if add is None:
        return None
    collector = _COLLECTORS.get(id(provider))
    if collector is None:
        collector = _COLLECTORS[id(provider)] = _SpanCollector()
        add(collector)
    return collector


def _follow(run: Run, span: Any) -> None:
    """Note the run's trace id, and have spans under its span collected into it."""
    context = span.get_span_context() if span is not None else None
    if context is None or not context.trace_id:
        return
    run.trace_id = f"{context.trace_id:032x}"
    collector = _collector(run.provider)
    if collector is not None:
        collector.owner[context.span_id] = run
        run.span_id = context.span_id
        run.collected = True


class Recorder:
    """Writes one decision per run into ``graph``; ``graph=None`` records nothing.

    ``tracer_provider`` is the OpenTelemetry provider runs trace with (the global one
    by default); on an SDK provider, spans started inside a run are collected into it.
    """

    def __init__(self, graph: Graph | None, *, tracer_provider: Any = None) -> None:
        self.graph = graph
        self.tracer_provider = tracer_provider

    @contextmanager
    def run(self, *, agent: str, role: str, label: str | None = None) -> Iterator[Run]:
        """Record the run the block performs, on success and on failure."""
        run = Run(new_id(), agent, role, time.perf_counter(), provider=self.tracer_provider)
        began = utc_now()
        with _otel_span(f"run:{role}", self.tracer_provider) as span:
            _follow(run, span)
            try:
                yield run
            except BaseException as exc:
                self._record(run, began, label, exc)
                raise
            self._record(run, began, label, None)

    def _record(self, run: Run, began: Any, label: str | None, exc: BaseException | None) -> None:
        if self.graph is None:
            return
        try:
            node = _run_node(run, began, label, exc)
            entry = drafts.provenance_recorded(_run_entry(run, node), node.recorded_at)
            self.graph.store.append(
                self.graph.name, [drafts.node_added(node, node.recorded_at), entry]
            )
        except Exception:  # recording must never fail the run it describes
            log.warning("decisis could not record run %s (%s)", run.id, run.role, exc_info=True)


def _run_entry(run: Run, node: Node) -> dict[str, Any]:
    """The run's provenance entry: the words its node's metadata keeps, as an entry (an
    empty agent or role is left out, a long role cut, rather than refused: recording must
    not fail)."""
    said = node.metadata["provenance"]
    error = said.get("error")
    return provenance_payload(
        node.id,
        said["activity"][:MAX_NAME_LENGTH],
        agent=run.agent.strip() or None if isinstance(run.agent, str) else None,
        agent_type=AgentType.SOFTWARE_AGENT,
        role=run.role.strip()[:MAX_NAME_LENGTH] or None if isinstance(run.role, str) else None,
        started_at=said["started_at"],
        ended_at=said["ended_at"],
        outcome=said["outcome"],
        error=f"{error['type']}: {error['message']}"[:MAX_ERROR_LENGTH] if error else None,
    )


def _run_node(run: Run, began: Any, label: str | None, exc: BaseException | None) -> Node:
    at = utc_now()
    outcome = "failed" if exc is not None else "succeeded"
    provenance: dict[str, Any] = {
        "activity": f"run:{run.role}",
        "entity": run.id,
        "agent": run.agent,
        "started_at": format_time(began),
        "ended_at": format_time(at),
        "duration_ms": round((time.perf_counter() - run.started) * 1000, 3),
        "outcome": outcome,
    }
    if exc is not None:
        provenance["error"] = {"type": type(exc).__name__, "message": str(exc)[:500]}
    if run.spans:
        provenance["spans"] = run.spans
    if run.trace_id:
        provenance["trace_id"] = run.trace_id
    metadata: dict[str, Any] = {"kind": RUN_KIND, "provenance": provenance}
    if run.notes:
        metadata["notes"] = run.notes
    return Node(
        id=run.id,
        type=NodeType.DECISION,
        label=label or f"run:{run.role} {outcome}",
        status=NodeStatus.COMPLETED if exc is None else NodeStatus.REJECTED,
        recorded_at=at,
        updated_at=at,
        valid_from=began,
        metadata=metadata,
        agent=run.agent,
        rationale=None if exc is None else f"{type(exc).__name__}: {exc}"[:500],
    )
