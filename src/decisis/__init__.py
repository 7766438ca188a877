"""decisis: decision memory for AI agents and engineering teams.

import decisis
g = decisis.open("sqlite:///decisions.db", graph="default")
goal = g.add_goal("Implement auth", confidence=0.9)
d = g.record_decision("Use JWT tokens", goal=goal.id, rationale="Stateless")
"""

import typing as _typing
from importlib import import_module as _import_module

from decisis.errors import (
    AmbiguousId,
    Conflict,
    CycleError,
    DecisisError,
    HeadMoved,
    IntegrityError,
    InvalidArguments,
    InvalidInput,
    MalformedImport,
    MissingExtra,
    NotFound,
    StoreError,
    ToolsDisabled,
    Unauthorized,
    UnsupportedStore,
)
from decisis.graph import GoalTree, Graph, Standing, open
from decisis.model import (
    AgentType,
    Edge,
    EdgeType,
    Event,
    EventKind,
    LinkState,
    Node,
    NodeStatus,
    NodeType,
    Provenance,
)
from decisis.stale import Stale
from decisis.stores import Reached, SearchHit, Store, open_store

if _typing.TYPE_CHECKING:
    from decisis.plans import PlanCheck
    from decisis.stores.replay import VerifyReport

__version__ = "0.1.0.dev0"


# Names loaded on first use, with the module each lives in: the plan check's word lists
# cost a CLI start ~70 ms; ``VerifyReport`` loads as ``decisis.graph`` offers it.
_LAZY = {"PlanCheck": "decisis.plans", "VerifyReport": "decisis.stores.replay"}


def __getattr__(name: str) -> _typing.Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'decisis' has no attribute {name!r}")
    return getattr(_import_module(home), name)


__all__ = [
    "AgentType",
    "AmbiguousId",
    "Conflict",
    "CycleError",
    "DecisisError",
    "Edge",
    "EdgeType",
    "Event",
    "EventKind",
    "GoalTree",
    "Graph",
    "HeadMoved",
    "IntegrityError",
    "InvalidArguments",
    "InvalidInput",
    "LinkState",
    "MalformedImport",
    "MissingExtra",
    "Node",
    "NodeStatus",
    "NodeType",
    "NotFound",
    "PlanCheck",
    "Provenance",
    "Reached",
    "SearchHit",
    "Stale",
    "Standing",
    "Store",
    "StoreError",
    "ToolsDisabled",
    "Unauthorized",
    "UnsupportedStore",
    "VerifyReport",
    "__version__",
    "open",
    "open_store",
]
