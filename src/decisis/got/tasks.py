"""Tasks: how replies are read, how thoughts are scored, and the default plan and prompts.

A machine names its task, so it stays serialisable; tasks live in a registry and
are added with ``register_task`` (the built-ins, ``text`` and the paper's
``sort``, are registered the same way). A task's ``parse`` turns a reply into the
thought's content or raises ``ValueError`` (the machine then stops in the error
state with that reason); its ``scorer``, when it has one, scores thoughts without
a model call, higher being better.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from decisis.errors import InvalidInput

from .operations import Aggregate, Connect, Generate, KeepBestN, Operation, Refine, Score
from .prompts import DEFAULT_PROMPTS, Prompts

__all__ = [
    "SORT_PROMPTS",
    "Task",
    "get_task",
    "parse_number_list",
    "register_task",
    "sort_errors",
    "task_names",
]


@dataclass(frozen=True, slots=True)
class Task:
    """How one kind of problem is reasoned about."""

    name: str
    prompts: Prompts
    plan: tuple[Operation, ...]
    parse: Callable[[str], str]
    scorer: Callable[[str, str], float] | None = None


_TASKS: dict[str, Task] = {}


def register_task(task: Task) -> None:
    """Make ``task`` available by name to machines (replacing one of the same name)."""
    if not task.plan:
        raise InvalidInput("plan", "is empty", "at least one operation")
    _TASKS[task.name] = task


def get_task(name: str) -> Task:
    try:
        return _TASKS[name]
    except KeyError:
        raise InvalidInput("task", f"{name!r} is not a registered task", sorted(_TASKS)) from None


def task_names() -> list[str]:
    return sorted(_TASKS)


# -- text: any question, scored by the model ------------------------------------------
def parse_text(reply: str) -> str:
    text = reply.strip()
    if not text:
        raise ValueError("the reply is empty")
    return text


TEXT_PLAN: tuple[Operation, ...] = (
    Generate(3),
    Score(),
    KeepBestN(2),
    Connect(),
    Aggregate(),
    Score(),
)

# -- sort: the GoT paper's example, scored by the number of errors --------------------
_LIST = re.compile(r"\[[^\[\]]*\]")


def parse_number_list(text: str) -> list[float | int]:
    """The first ``[…]`` list of numbers in ``text``; ``ValueError`` when there is none."""
    for match in _LIST.finditer(text):
        try:
            value = json.loads(match.group())
        except json.JSONDecodeError:
            continue
        if isinstance(value, list) and all(
            isinstance(item, int | float) and not isinstance(item, bool) for item in value
        ):
            return value
    raise ValueError(f"no list of numbers in the reply {text[:80]!r}")


def parse_sorted(reply: str) -> str:
    return json.dumps(parse_number_list(reply))


def sort_errors(numbers: list[float | int], attempt: list[float | int]) -> int:
    """Errors as the GoT paper counts them: adjacent pairs out of order plus, for each
    value, how far its count in ``attempt`` is from its count in ``numbers``."""
    out_of_order = sum(1 for a, b in pairwise(attempt) if a > b)
    expected, got = Counter(numbers), Counter(attempt)
    missing = sum(abs(expected[value] - got[value]) for value in expected.keys() | got.keys())
    return out_of_order + missing


def score_sorted(content: str, prompt: str) -> float:
    """Minus the number of errors, so that higher is better and 0 is a correct sort."""
    return float(-sort_errors(parse_number_list(prompt), parse_number_list(content)))


SORT_PROMPTS = DEFAULT_PROMPTS.replace(
    system="You sort lists of numbers. Reply with a list in square brackets and nothing else.",
    generate="Sort this list of numbers in ascending order: $prompt\nReply with the list only.",
    refine=(
        "This list was meant to be $prompt sorted in ascending order, with exactly the same "
        "numbers, but it may have mistakes: $thought\nReply with the corrected list only."
    ),
    aggregate=(
        "These are attempts at sorting $prompt in ascending order:\n$thoughts\n"
        "Merge them into one correctly sorted list with exactly the input numbers. "
        "Reply with the list only."
    ),
)

SORT_PLAN: tuple[Operation, ...] = (
    Generate(3),
    Score(),
    KeepBestN(2),
    Aggregate(),
    Score(),
    Refine(),
    Score(),
    KeepBestN(1),
)

register_task(Task("text", DEFAULT_PROMPTS, TEXT_PLAN, parse_text))
register_task(Task("sort", SORT_PROMPTS, SORT_PLAN, parse_sorted, score_sorted))
