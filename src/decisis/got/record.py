"""Keep a reasoning run on record: its thoughts become nodes of a decisis graph.

The prompt becomes a ``goal``; every other thought an ``option`` with its content as
the label (and in full as the rationale when it is long), its score as the
confidence when the score is in [0, 1], and its place in the run under the
``got`` metadata key. Thought edges map onto causal edge types, so ``why`` and
``impact`` walk them; the original kind is kept in the edge's metadata:

=============  ==============
thought edge   decisis edge
=============  ==============
generates      leads_to
refines        leads_to
aggregates     influenced
connects       influenced
=============  ==============

The whole run lands in one transaction (a ``graph.batch()``): one ledger event per
record, in one unbroken stretch of the ledger, so the run can be replayed and
verified, and a run that cannot be recorded whole is not recorded at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from decisis.model import EdgeType, NodeType
from decisis.model.validation import MAX_LABEL_LENGTH, MAX_RATIONALE_LENGTH

from .machine import Machine
from .operations import plan_to_map
from .thoughts import EdgeKind, Thought

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = ["EDGE_TYPES", "record_thoughts"]

EDGE_TYPES: dict[EdgeKind, EdgeType] = {
    EdgeKind.GENERATES: EdgeType.LEADS_TO,
    EdgeKind.REFINES: EdgeType.LEADS_TO,
    EdgeKind.AGGREGATES: EdgeType.INFLUENCED,
    EdgeKind.CONNECTS: EdgeType.INFLUENCED,
}


def _text(content: str, limit: int) -> str:
    clean = content.replace("\x00", "").strip() or "(empty)"
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def _run_summary(machine: Machine) -> dict[str, Any]:
    usage = machine.usage
    config = machine.config
    return {
        "status": machine.status(),
        "termination": machine.termination.value if machine.termination else None,
        "error": machine.error,
        "result": machine.result.id if machine.result else None,
        "task": config.task,
        "aggregation_strategy": config.aggregation_strategy,
        "max_nodes": config.max_nodes,
        "max_depth": config.max_depth,
        "plan": plan_to_map(config.plan),
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "calls": usage.calls,
        },
    }


def _node_fields(machine: Machine, thought: Thought, run_id: str) -> dict[str, Any]:
    label = _text(thought.content, MAX_LABEL_LENGTH)
    got: dict[str, Any] = {
        "run": run_id,
        "thought": thought.id,
        "depth": thought.depth,
        "score": thought.score,
        "metadata": thought.metadata,
    }
    if thought.id == 0:
        got["run_summary"] = _run_summary(machine)
    result = machine.result
    if result is not None and thought.id == result.id:
        got["best"] = True
    fields: dict[str, Any] = {"metadata": {"got": got}}
    if label != thought.content.strip():
        fields["rationale"] = _text(thought.content, MAX_RATIONALE_LENGTH)
    score = thought.score
    if score is not None and 0.0 <= score <= 1.0:
        fields["confidence"] = score
    node_type = NodeType.GOAL if thought.id == 0 else NodeType.OPTION
    return {"type": node_type, "label": label, **fields}


def record_thoughts(graph: Graph, machine: Machine) -> dict[int, str]:
    """Write every thought and edge of ``machine`` into ``graph`` in one transaction, or
    nothing if any is refused; returns the decisis node id of each thought id."""
    run_id = machine.run_id
    ids: dict[int, str] = {}
    with graph.batch() as batch:
        for thought in machine.get_nodes():
            node = batch.add_node(**_node_fields(machine, thought, run_id))
            ids[thought.id] = node.id
        for edge in machine.get_edges():
            batch.link(
                ids[edge.source],
                ids[edge.target],
                EDGE_TYPES[edge.kind],
                metadata={"got_kind": edge.kind.value, "got_run": run_id},
            )
    return ids
