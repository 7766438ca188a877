"""The text of a new record, in each format decisis writes, so that the reader reads it back.

- ``nygard`` is adr-tools' template: ``# 7. Title``, ``Date: 2024-05-01``, a ``## Status``
  section (``Accepted``, then ``Supersedes [3. Old title](0003-old-title.md)`` as its own
  status line), ``## Context``, ``## Decision``, ``## Consequences``;
- ``madr`` is MADR 4's: front matter ``status:`` and ``date:``, ``# Title`` (MADR puts no
  number in the title), ``## Context and Problem Statement``, ``## Decision Outcome``
  with ``### Consequences``; a ``Supersedes`` line sits under the title, where MADR has no
  place of its own for it.

The section texts are the templates' own prompts, for the author to replace.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass

from decisis.errors import InvalidInput

__all__ = ["FORMATS", "NewRecord", "check_format", "check_title", "render", "yaml_value"]

FORMATS = ("madr", "nygard")
_PLAIN_YAML = re.compile(r"[A-Za-z][A-Za-z0-9 ._-]*")
_TITLE_ALLOWED = "a one-line title such as 'Use PostgreSQL for orders'"


@dataclass(frozen=True)
class NewRecord:
    """What a new record says: its number, title, date, status and the lines that link it
    to others (``Supersedes [3. Old](0003-old.md)``)."""

    number: int
    title: str
    date: dt.date
    status: str = "Accepted"
    links: tuple[str, ...] = ()


def yaml_value(text: str) -> str:
    """``text`` as a YAML scalar: bare when it is plain words (``accepted``), else in double
    quotes (JSON's escapes are YAML's), so that a ``: `` or a ``#`` in a title stays text."""
    return text if _PLAIN_YAML.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def check_format(name: str) -> str:
    """``name`` lower-cased, when decisis writes that format."""
    chosen = name.strip().lower()
    if chosen not in FORMATS:
        raise InvalidInput("format", f"{name!r} is not a format decisis writes", FORMATS)
    return chosen


def check_title(title: str) -> str:
    """The title without surrounding spaces; an empty or multi-line one is refused, as is a
    ``{placeholder}`` title, which the reader skips as a template."""
    clean = title.strip()
    if not clean:
        raise InvalidInput("title", "is empty", _TITLE_ALLOWED)
    if "\n" in clean or "\r" in clean:
        raise InvalidInput("title", "spans several lines", _TITLE_ALLOWED)
    if "{" in clean and "}" in clean[clean.index("{") :]:
        raise InvalidInput(
            "title", f"{clean!r} reads as a template placeholder ({{...}})", _TITLE_ALLOWED
        )
    return clean


def _nygard(record: NewRecord) -> str:
    status = "\n\n".join((record.status, *record.links))
    return (
        f"# {record.number}. {record.title}\n\n"
        f"Date: {record.date.isoformat()}\n\n"
        f"## Status\n\n{status}\n\n"
        "## Context\n\n"
        "The issue motivating this decision, and any context that influences or constrains"
        " the decision.\n\n"
        "## Decision\n\n"
        "The change that we're proposing or have agreed to implement.\n\n"
        "## Consequences\n\n"
        "What becomes easier or more difficult to do and any risks introduced by the change"
        " that will need to be mitigated.\n"
    )


def _madr(record: NewRecord) -> str:
    links = "".join(f"{line}\n\n" for line in record.links)
    return (
        "---\n"
        f"status: {yaml_value(record.status.lower())}\n"
        f"date: {record.date.isoformat()}\n"
        "---\n\n"
        f"# {record.title}\n\n"
        f"{links}"
        "## Context and Problem Statement\n\n"
        "Describe the context and problem statement, in two or three sentences.\n\n"
        "## Decision Outcome\n\n"
        "Chosen option: the option chosen, because of the reasons that decided it.\n\n"
        "### Consequences\n\n"
        "* Good, because what it makes easier.\n"
        "* Bad, because what it makes harder.\n"
    )


def render(fmt: str, record: NewRecord) -> str:
    """The file text of ``record`` in format ``fmt`` (``nygard`` or ``madr``)."""
    return _madr(record) if check_format(fmt) == "madr" else _nygard(record)
