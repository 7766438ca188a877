"""Plan checks: a plan's steps against what stands (``check_plan``), the face other
packages and the front doors import::

    from decisis.plans import check_plan, CheckSettings
"""

from decisis.plans.check import (
    DEFAULT_CHECK,
    CheckSettings,
    Finding,
    PlanCheck,
    StepCheck,
    check_plan,
)
from decisis.plans.steps import MAX_PLAN_CHARS, MAX_STEPS, Step, split_steps

__all__ = [
    "DEFAULT_CHECK",
    "MAX_PLAN_CHARS",
    "MAX_STEPS",
    "CheckSettings",
    "Finding",
    "PlanCheck",
    "Step",
    "StepCheck",
    "check_plan",
    "split_steps",
]
