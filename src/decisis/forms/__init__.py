"""The JSON forms of decisis values, as pydantic models: one set for every front door.

The CLI's ``--json`` prints them, the web API sends them and its OpenAPI document
describes them, and the decision tools take their arguments in them (the JSON Schemas
agents see). A form is built from the value it shows (``NodeOut.of(node)``) and is
closed: a field the model does not name is refused wherever the form is made, so the
doors cannot drift apart. Plain data with full ids::

    from decisis.forms import ReachedOut
    [ReachedOut.of(r).dump() for r in graph.why(node_id)]

Each name loads its module on first use: a command that prints one read pays for pydantic
and that read's models only (the tool arguments need ``decisis.adr``'s limits).
"""

import typing as _typing
from importlib import import_module as _import_module

if _typing.TYPE_CHECKING:
    from decisis.forms._answers import (
        AnswerOut,
        CorrectionOut,
        Evidence,
        ExcerptOut,
        LearnedLink,
        LearnedOut,
        NoEvidence,
        ReplacedStep,
        RestoredLink,
        RuleTrust,
        TrustMove,
    )
    from decisis.forms._base import (
        Form,
        Metadata,
        Time,
        dump_all,
    )
    from decisis.forms._reads import (
        AtNodesOut,
        AtOut,
        CurrentOut,
        FindingOut,
        GoalChild,
        GoalTreeOut,
        GoverningOut,
        HitOut,
        NamedNode,
        NearEdge,
        NearNode,
        NeighbourhoodOut,
        PathDecisionsOut,
        PlanCheckOut,
        PlanStepOut,
        PrecedentOut,
        ReachedOut,
        StaleOut,
        StandingOut,
        VerifyOut,
    )
    from decisis.forms._records import (
        EdgeDetail,
        EdgeOut,
        EventOut,
        NodeDetail,
        NodeOut,
        event_data,
    )
    from decisis.forms._requests import (
        TEXT_PATTERN,
        AskBody,
        CorrectionBody,
        ErrorBody,
        ErrorDetail,
    )
    from decisis.forms._tools import (
        QUERY_KINDS,
        AddGoal,
        CheckPlan,
        CorrectDecision,
        CurrentDecision,
        DecisionsFor,
        FindDecisions,
        FindPrecedents,
        QueryDecisions,
        ReaffirmDecision,
        RecordDecision,
        RecordOutcome,
        StaleDependents,
        SupersedeDecision,
        ToolArgs,
        ToolSpecOut,
        json_schema,
    )

_HOMES = {
    "AddGoal": "_tools",
    "AnswerOut": "_answers",
    "AskBody": "_requests",
    "AtNodesOut": "_reads",
    "AtOut": "_reads",
    "CheckPlan": "_tools",
    "CorrectDecision": "_tools",
    "CorrectionBody": "_requests",
    "CorrectionOut": "_answers",
    "CurrentDecision": "_tools",
    "CurrentOut": "_reads",
    "DecisionsFor": "_tools",
    "EdgeDetail": "_records",
    "EdgeOut": "_records",
    "ErrorBody": "_requests",
    "ErrorDetail": "_requests",
    "EventOut": "_records",
    "Evidence": "_answers",
    "ExcerptOut": "_answers",
    "FindDecisions": "_tools",
    "FindPrecedents": "_tools",
    "FindingOut": "_reads",
    "Form": "_base",
    "GoalChild": "_reads",
    "GoalTreeOut": "_reads",
    "GoverningOut": "_reads",
    "HitOut": "_reads",
    "LearnedLink": "_answers",
    "LearnedOut": "_answers",
    "Metadata": "_base",
    "NamedNode": "_reads",
    "NearEdge": "_reads",
    "NearNode": "_reads",
    "NeighbourhoodOut": "_reads",
    "NoEvidence": "_answers",
    "NodeDetail": "_records",
    "NodeOut": "_records",
    "PathDecisionsOut": "_reads",
    "PlanCheckOut": "_reads",
    "PlanStepOut": "_reads",
    "PrecedentOut": "_reads",
    "QUERY_KINDS": "_tools",
    "QueryDecisions": "_tools",
    "ReachedOut": "_reads",
    "ReaffirmDecision": "_tools",
    "RecordDecision": "_tools",
    "RecordOutcome": "_tools",
    "ReplacedStep": "_answers",
    "RestoredLink": "_answers",
    "RuleTrust": "_answers",
    "StaleDependents": "_tools",
    "StaleOut": "_reads",
    "StandingOut": "_reads",
    "SupersedeDecision": "_tools",
    "TEXT_PATTERN": "_requests",
    "Time": "_base",
    "ToolArgs": "_tools",
    "ToolSpecOut": "_tools",
    "TrustMove": "_answers",
    "VerifyOut": "_reads",
    "dump_all": "_base",
    "event_data": "_records",
    "json_schema": "_tools",
}


def __getattr__(name: str) -> _typing.Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'decisis.forms' has no attribute {name!r}")
    value = getattr(_import_module(f"decisis.forms.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "QUERY_KINDS",
    "TEXT_PATTERN",
    "AddGoal",
    "AnswerOut",
    "AskBody",
    "AtNodesOut",
    "AtOut",
    "CheckPlan",
    "CorrectDecision",
    "CorrectionBody",
    "CorrectionOut",
    "CurrentDecision",
    "CurrentOut",
    "DecisionsFor",
    "EdgeDetail",
    "EdgeOut",
    "ErrorBody",
    "ErrorDetail",
    "EventOut",
    "Evidence",
    "ExcerptOut",
    "FindDecisions",
    "FindPrecedents",
    "FindingOut",
    "Form",
    "GoalChild",
    "GoalTreeOut",
    "GoverningOut",
    "HitOut",
    "LearnedLink",
    "LearnedOut",
    "Metadata",
    "NamedNode",
    "NearEdge",
    "NearNode",
    "NeighbourhoodOut",
    "NoEvidence",
    "NodeDetail",
    "NodeOut",
    "PathDecisionsOut",
    "PlanCheckOut",
    "PlanStepOut",
    "PrecedentOut",
    "QueryDecisions",
    "ReachedOut",
    "ReaffirmDecision",
    "RecordDecision",
    "RecordOutcome",
    "ReplacedStep",
    "RestoredLink",
    "RuleTrust",
    "StaleDependents",
    "StaleOut",
    "StandingOut",
    "SupersedeDecision",
    "Time",
    "ToolArgs",
    "ToolSpecOut",
    "TrustMove",
    "VerifyOut",
    "dump_all",
    "event_data",
    "json_schema",
]
