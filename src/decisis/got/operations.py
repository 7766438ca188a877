"""Operations in the style of the GoT framework (Besta et al.), and the plans made of them.

A plan is the graph of operations for a task. Here it is a chain: each operation
works on the thoughts the previous one left (the *frontier*), which covers the
paper's plans for sorting and set operations except the split-and-merge of
sublists. Operations are plain frozen values so a machine that holds its plan
stays serialisable.

=============  ==========================================================  ==========
operation      what it does                                                model calls
=============  ==========================================================  ==========
Generate(k)    k new thoughts from each frontier thought (``generates``)   k per thought
Refine()       one improved thought per frontier thought (``refines``)     1 per thought
Score()        scores unscored frontier thoughts: the task's scorer, or    0 or 1 each
               the model when the task has none
KeepBestN(n)   keeps the n best-scored frontier thoughts                   0
Connect()      asks which frontier thoughts support which (``connects``)   1
Aggregate()    merges the frontier into one thought (``aggregates``) by    0 or 1
               the machine's strategy: voting, weighted, synthesis
=============  ==========================================================  ==========
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from decisis.errors import InvalidInput

__all__ = [
    "Aggregate",
    "Connect",
    "Generate",
    "KeepBestN",
    "Operation",
    "Refine",
    "Score",
    "plan_from_map",
    "plan_to_map",
]


@dataclass(frozen=True, slots=True)
class Generate:
    k: int = 3

    def __post_init__(self) -> None:
        _check_count("k", self.k)


@dataclass(frozen=True, slots=True)
class Refine:
    pass


@dataclass(frozen=True, slots=True)
class Score:
    pass


@dataclass(frozen=True, slots=True)
class KeepBestN:
    n: int = 1

    def __post_init__(self) -> None:
        _check_count("n", self.n)


@dataclass(frozen=True, slots=True)
class Connect:
    pass


@dataclass(frozen=True, slots=True)
class Aggregate:
    pass


Operation = Generate | Refine | Score | KeepBestN | Connect | Aggregate

_NAMES: dict[str, type[Operation]] = {
    "generate": Generate,
    "refine": Refine,
    "score": Score,
    "keep_best_n": KeepBestN,
    "connect": Connect,
    "aggregate": Aggregate,
}
_BY_TYPE = {cls: name for name, cls in _NAMES.items()}


def _check_count(field: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000:
        raise InvalidInput(field, f"{value!r} is not a count", "a whole number from 1 to 1,000,000")


def op_name(op: Operation) -> str:
    return _BY_TYPE[type(op)]


def plan_to_map(plan: Sequence[Operation]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for op in plan:
        item: dict[str, Any] = {"op": op_name(op)}
        if isinstance(op, Generate):
            item["k"] = op.k
        elif isinstance(op, KeepBestN):
            item["n"] = op.n
        out.append(item)
    return out


def plan_from_map(data: object) -> tuple[Operation, ...]:
    """A plan from its JSON form; refuses unknown operations by name."""
    if not isinstance(data, list) or not data:
        raise InvalidInput("plan", "is not a list of operations", "a non-empty list")
    plan: list[Operation] = []
    for item in data:
        if not isinstance(item, Mapping) or item.get("op") not in _NAMES:
            raise InvalidInput("plan", f"{item!r} is not an operation", sorted(_NAMES))
        args = {key: value for key, value in item.items() if key != "op"}
        try:
            plan.append(_NAMES[item["op"]](**args))
        except TypeError as exc:
            allowed = "k for generate, n for keep_best_n"
            raise InvalidInput("plan", f"{item!r}: {exc}", allowed) from None
    return tuple(plan)
