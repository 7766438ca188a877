"""A plan in steps, however it is written."""

from __future__ import annotations

import pytest

from decisis.errors import InvalidInput
from decisis.plans import MAX_PLAN_CHARS, MAX_STEPS, split_steps


@pytest.mark.parametrize(
    "plan",
    [
        "1. Add a Jenkins job\n2. Push the image to ECR\n3) Deploy it",
        "- Add a Jenkins job\n* Push the image to ECR\n+ Deploy it",
        "Add a Jenkins job\n\nPush the image to ECR\n   Deploy it  ",
        "Add a Jenkins job. Push the image to ECR! Deploy it",
        "Step 1: Add a Jenkins job\nStep 2: Push the image to ECR\nStep 3: Deploy it",
    ],
)
def test_lists_lines_and_sentences_are_steps(plan: str) -> None:
    texts = [s.text.rstrip(".!") for s in split_steps(plan)]
    assert texts == ["Add a Jenkins job", "Push the image to ECR", "Deploy it"]
    assert [s.number for s in split_steps(plan)] == [1, 2, 3]


def test_a_dotted_name_stays_inside_its_step() -> None:
    steps = split_steps("Register puppet.stack.internal in v1.2 of the zone. Then reload it.")
    assert [s.text for s in steps] == [
        "Register puppet.stack.internal in v1.2 of the zone.",
        "Then reload it.",
    ]


@pytest.mark.parametrize(
    ("plan", "problem"),
    [
        ("", "is empty"),
        ("  \n ", "is empty"),
        (None, "is empty"),
        ("x" * (MAX_PLAN_CHARS + 1), "characters"),
        ("\n".join(["a step"] * (MAX_STEPS + 1)), "steps"),
    ],
)
def test_no_plan_or_too_much_is_refused(plan: object, problem: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        split_steps(plan)
    assert refused.value.field == "plan"
    assert problem in str(refused.value)
