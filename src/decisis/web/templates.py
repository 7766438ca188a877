"""The pages' templates (``decisis/web/templates``): every value escaped, every time
shown to the second, bidirectional controls shown as escapes."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from decisis.display import show_bidi
from decisis.web.views import when

__all__ = ["render"]


def _shown(value: Any) -> Any:
    """Every text a page prints, with bidirectional controls shown as escapes (``\\u202e``):
    they would reorder the line around them. ``Markup`` stays ``Markup``."""
    if isinstance(value, str):
        shown = show_bidi(value)
        return type(value)(shown) if isinstance(value, Markup) else shown
    return value


@cache
def _templates() -> Environment:
    env = Environment(
        loader=PackageLoader("decisis.web", "templates"),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters["when"] = when  # every time on every page, to the second
    return env


def render(name: str, **context: Any) -> str:
    """The page ``name`` filled with ``context`` (every value escaped)."""
    return _templates().get_template(name).render(**context)
