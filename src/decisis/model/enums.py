"""The closed vocabularies of the graph: node types, statuses, edge types, link states,
ledger event kinds and the agent types of provenance entries."""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "CAUSAL_EDGE_TYPES",
    "AgentType",
    "EdgeType",
    "EventKind",
    "LinkState",
    "NodeStatus",
    "NodeType",
]


class NodeType(StrEnum):
    GOAL = "goal"
    DECISION = "decision"
    OPTION = "option"
    ACTION = "action"
    OUTCOME = "outcome"
    OBSERVATION = "observation"
    REVISIT = "revisit"


class NodeStatus(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"
    SUPERSEDED = "superseded"
    REJECTED = "rejected"


class EdgeType(StrEnum):
    LEADS_TO = "leads_to"
    CHOSEN = "chosen"
    REJECTED = "rejected"
    REQUIRES = "requires"
    BLOCKS = "blocks"
    ENABLES = "enables"
    SUPERSEDES = "supersedes"
    CAUSED = "caused"
    INFLUENCED = "influenced"
    PRECEDENT_FOR = "precedent_for"


class LinkState(StrEnum):
    """How far an edge is to be believed: written by a person, proposed by a rule, or judged."""

    STATED = "stated"
    CANDIDATE = "candidate"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"


class EventKind(StrEnum):
    """Every mutation the ledger knows; the fold in ``decisis.stores.fold`` defines each one."""

    NODE_ADDED = "node.added"
    NODE_UPDATED = "node.updated"
    EDGE_ADDED = "edge.added"
    EDGE_UPDATED = "edge.updated"
    SUPERSEDED = "superseded"
    TOMBSTONED = "tombstoned"
    RULE_TRUSTED = "rule.trusted"
    PROVENANCE = "provenance.recorded"


class AgentType(StrEnum):
    """Who an agent of a provenance entry is, in the words of W3C PROV's agent subtypes."""

    PERSON = "person"
    SOFTWARE_AGENT = "software_agent"
    ORGANIZATION = "organization"


# Edges along which one record explains another: ``why`` walks them backwards, ``impact`` forwards.
# ``supersedes`` is left out: it points from the new record to the old one, against the flow of
# cause, so walking it would list a later replacement among the causes of the old record's outcome.
CAUSAL_EDGE_TYPES: frozenset[EdgeType] = frozenset(
    {
        EdgeType.LEADS_TO,
        EdgeType.CHOSEN,
        EdgeType.ENABLES,
        EdgeType.CAUSED,
        EdgeType.INFLUENCED,
        EdgeType.PRECEDENT_FOR,
    }
)
