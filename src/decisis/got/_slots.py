"""Fast constructors for the frozen, slotted dataclasses made on every transition.

A frozen dataclass's generated ``__init__`` writes each field through
``object.__setattr__`` (a lookup and a generic call per field), which makes it
two to three times slower to build than a tuple. The classes a transition creates
by the dozen (thoughts, edges, graphs, directives) write out their ``__init__``
with the slot setters from ``slot_setters`` instead: the same fields, the same
frozen value, about twice as fast. ``tests/got`` checks that each such class has
a setter per field, in field order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

__all__ = ["slot_setters"]


def slot_setters(cls: type) -> tuple[Callable[[object, Any], None], ...]:
    """The ``__set__`` of each of ``cls``'s field slots, in field order."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))
