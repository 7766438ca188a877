"""ADR formats: where each keeps its title, status, date, context and decision.

A format is a name, a ``detect`` test and a ``parse`` function over a parsed Markdown
document. Formats are tried most recently registered first, so a team's own format,
added with :func:`register`, is tried before the built-ins, which are registered the
same way below:

- ``log4brains`` (and MADR 2): ``- Status: accepted`` / ``- Date: 2020-09-26`` bullets
  under the title, ``## Context and Problem Statement``, ``## Decision Outcome``;
- ``madr`` (MADR 3 and 4): YAML front matter ``status:`` / ``date:``, the same sections;
- ``nygard`` (Michael Nygard's template, adr-tools): ``# 1. Title``, ``Date: 2019-06-01``,
  ``## Status``, ``## Context``, ``## Decision``;
- ``generic``: anything else with a title; it looks everywhere the others look.

The helpers a parse function needs (status lines, ``Key: value`` fields, the
decision section) are public, so a custom format is usually a few lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from decisis.adr.read.dates import parse_date
from decisis.adr.read.markdown import MarkdownDoc, Section, heading_key
from decisis.adr.read.status import status_line_spans
from decisis.adr.read.summary import summarise
from decisis.errors import InvalidInput

__all__ = [
    "CONTEXT_HEADINGS",
    "DECISION_HEADINGS",
    "TITLE_MARK",
    "AdrFormat",
    "Fields",
    "banner",
    "choose_format",
    "context_text",
    "date_field",
    "date_field_text",
    "decision_text",
    "field_line",
    "formats",
    "parse_fields",
    "register",
    "status_field",
    "status_section",
    "title_mark",
    "unregister",
]

DECISION_HEADINGS = frozenset(
    {
        "decision",
        "decisions",
        "decision outcome",
        "the decision",
        "our decision",
        "proposed decision",
        "decision made",
        "outcome",
        "resolution",
        "proposal",
        "the proposal",
        "proposed solution",
        "what's proposed",
        "what is proposed",
        "the existing decision",
        "chosen option",
        "recommendation",
    }
)
CONTEXT_HEADINGS = frozenset(
    {
        "context",
        "context and problem statement",
        "context and problem",
        "problem statement",
        "problem",
        "the problem",
        "background",
        "introduction",
        "issue",
        "motivation",
    }
)
_AFTER_DECISION = frozenset(
    {
        "consequences",
        "consequence",
        "positive consequences",
        "negative consequences",
        "confirmation",
        "pros and cons",
        "pros and cons of the options",
        "more information",
        "implications",
    }
)
_NOT_A_DECISION = (
    _AFTER_DECISION
    | CONTEXT_HEADINGS
    | {
        "status",
        "definitions",
        "references",
        "links",
        "useful links",
        "notes",
        "user needs",
        "options",
        "considered options",
        "alternatives",
        "decision drivers",
        "next steps",
        "progress",
        "related",
        "related decisions",
        "see also",
        "reason for rejection",
    }
)
_INLINE_DECISION = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?Decision(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?[ \t]*", re.M
)


@dataclass(frozen=True)
class Fields:
    """What a format found in one document; the reader builds the record from it.

    ``status_spans`` are offsets of the status lines in ``doc.text``; when the status
    is written outside the text (front matter) they are empty and ``status_text`` holds it.
    """

    title: str | None
    status_text: str = ""
    status_spans: tuple[tuple[int, int], ...] = ()
    date: date | None = None
    decision: str = ""
    context: str = ""
    date_text: str = ""  # the date as written, for a folder to settle month-first dates


DetectFn = Callable[[MarkdownDoc], bool]
ParseFn = Callable[[MarkdownDoc], Fields]


@dataclass(frozen=True)
class AdrFormat:
    name: str
    detect: DetectFn
    parse: ParseFn


_REGISTRY: list[AdrFormat] = []


def register(fmt: AdrFormat, *, replace: bool = False) -> AdrFormat:
    """Add ``fmt``; it is tried before every format registered earlier."""
    existing = [f for f in _REGISTRY if f.name == fmt.name]
    if existing and not replace:
        raise InvalidInput(
            "format", f"an ADR format named {fmt.name!r} is already registered", "replace=True"
        )
    for old in existing:
        _REGISTRY.remove(old)
    _REGISTRY.append(fmt)
    return fmt


def unregister(name: str) -> None:
    """Remove the format called ``name`` (tests and plugins that clean up after themselves)."""
    _REGISTRY[:] = [f for f in _REGISTRY if f.name != name]


def formats() -> tuple[AdrFormat, ...]:
    """The registered formats in the order they are tried."""
    return tuple(reversed(_REGISTRY))


def choose_format(doc: MarkdownDoc) -> AdrFormat:
    for fmt in formats():
        if fmt.detect(doc):
            return fmt
    raise InvalidInput(
        "format", "no registered ADR format accepts this file", [f.name for f in _REGISTRY]
    )


# --- helpers for parse functions -------------------------------------------------------------


def _field_pattern(name: str, colon: bool) -> re.Pattern[str]:
    """``- **Status:** value`` lines. The spaces around the colon are taken at once (``*+``:
    nothing after them can match a space, so giving some back finds nothing new, only takes
    time quadratic in them) and the value ends at the line's last character that is not a
    space (a lazy value before ``[ \\t]*$`` read the spaces after it again for each end)."""
    sep = r"[ \t]*+:" if colon else r"[ \t]*+:?"
    return re.compile(
        rf"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?{name}(?:\*\*|__)?{sep}(?:\*\*|__)?[ \t]*+"
        r"(?:\*\*|__)?[ \t]*+(?P<value>\S(?:[^\n]*[^ \t\n])?)[ \t]*$",
        re.M | re.IGNORECASE,
    )


_STATUS_FIELD = _field_pattern("status", colon=True)
_DATE_FIELD = _field_pattern(
    r"(?:(?:decision[ \t]+)?date(?:[ \t]+of[ \t]+decision)?|created|drafted|decided)", colon=False
)


def field_line(doc: MarkdownDoc, pattern: re.Pattern[str]) -> tuple[str, tuple[int, int]] | None:
    """The first ``Key: value`` line of the preamble (between title and first section)."""
    start = doc.title_end
    end = doc.sections[0].start if doc.sections else len(doc.text)
    m = pattern.search(doc.text, start, end)
    if m is None:
        return None
    return m.group("value"), (m.start("value"), m.end("value"))


def status_field(doc: MarkdownDoc) -> tuple[str, tuple[int, int]] | None:
    """``- Status: accepted`` (log4brains, MADR 2) or ``Status: Accepted`` under the title."""
    return field_line(doc, _STATUS_FIELD)


def status_section(doc: MarkdownDoc) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    """The status lines of a ``## Status`` section (or ``## Status: Accepted``), with spans."""
    for section in doc.sections:
        key = heading_key(section.heading)
        if key == "status":
            spans = tuple(status_line_spans(section.text, section.body_start))
            return "\n".join(doc.text[s:e].strip() for s, e in spans), spans
        if key.startswith("status ") and ":" in section.heading:
            # A heading is not a block of the text: the value is read as a status of its own.
            return section.heading.split(":", 1)[1].strip(), ()
    return None


def _front(doc: MarkdownDoc, key: str) -> str:
    value = doc.front_matter.get(key)
    if isinstance(value, list):
        return ", ".join(value)
    return value or ""


def date_field_text(doc: MarkdownDoc) -> str:
    """The value of the record's date as written: front matter ``date:``, else a ``Date:``
    line under the title or in the Status section (``Date 09/04/2018`` without a colon counts
    when it reads as a date); empty when there is none."""
    written = _front(doc, "date")
    if written and parse_date(written) is not None:
        return written
    regions = [(doc.title_end, doc.sections[0].start if doc.sections else len(doc.text))]
    regions += [(s.body_start, s.end) for s in doc.sections if heading_key(s.heading) == "status"]
    for start, end in regions:
        for m in _DATE_FIELD.finditer(doc.text, start, end):
            if parse_date(m.group("value")) is not None:
                return str(m.group("value"))
    return ""


def date_field(doc: MarkdownDoc) -> date | None:
    """The record's date (see :func:`date_field_text`), or ``None``."""
    written = date_field_text(doc)
    return parse_date(written) if written else None


def _without(doc: MarkdownDoc, section: Section, drop: frozenset[str]) -> str:
    """``section``'s text without the subsections named in ``drop`` (MADR's Consequences)."""
    cuts = [
        (s.start, s.end)
        for s in doc.sections
        if s.level > section.level
        and section.start < s.start < section.end
        and heading_key(s.heading) in drop
    ]
    out, pos = [], section.body_start
    for start, end in sorted(cuts):
        if start >= pos:
            out.append(doc.text[pos:start])
            pos = end
    out.append(doc.text[pos : section.end])
    return "".join(out).strip()


def _inline_decisions(doc: MarkdownDoc) -> str:
    """Paragraphs that start ``**Decision:** …``, as some records state several decisions.

    A ``Decision:`` line inside a paragraph already taken is part of it, not a paragraph of
    its own again: taken again, a paragraph of such lines came back once per line (quadratic
    in time and in the text kept).
    """
    found = []
    taken = 0
    for m in _INLINE_DECISION.finditer(doc.text):
        if m.start() < taken:
            continue
        end = doc.text.find("\n\n", m.end())
        taken = end if end >= 0 else len(doc.text)
        found.append(doc.text[m.end() : taken].strip())
    return "\n\n".join(f for f in found if f)


def decision_text(doc: MarkdownDoc) -> str:
    """The Decision section; else inline ``**Decision:**`` paragraphs; else the first top-level
    section that is neither context, status nor consequences and says something."""
    section = doc.find(DECISION_HEADINGS)
    if section is not None:
        return _without(doc, section, _AFTER_DECISION)
    inline = _inline_decisions(doc)
    if inline:
        return inline
    top = min((s.level for s in doc.sections), default=2)
    for candidate in doc.sections:
        if candidate.level == top and heading_key(candidate.heading) not in _NOT_A_DECISION:
            text = candidate.text.strip()
            if summarise(text):
                return text
    return ""


def context_text(doc: MarkdownDoc) -> str:
    section = doc.find(CONTEXT_HEADINGS)
    return section.text.strip() if section else ""


# --- the built-in formats --------------------------------------------------------------------

_StatusSource = Callable[[MarkdownDoc], tuple[str, tuple[tuple[int, int], ...]] | None]


def _from_front(doc: MarkdownDoc) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    value = _front(doc, "status")
    return (value, ()) if value else None


def _from_field(doc: MarkdownDoc) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    found = status_field(doc)
    return (found[0], (found[1],)) if found else None


# A mark in front of the title that the record no longer holds: "OUTDATED Use DynamoDB",
# "[Superseded] Use X", "Deprecated: Use Y". A capitalised word alone ("Deprecated APIs are
# removed") is a title, not a mark.
TITLE_MARK = re.compile(
    r"^\s*(?:(?P<upper>OUTDATED|DEPRECATED|SUPERSEDED|SUPERCEDED|OBSOLETE|ARCHIVED|REJECTED)\b"
    r"|[\[(](?P<bracketed>outdated|deprecated|superseded|superceded|obsolete|archived|rejected)"
    r"[\])]|(?P<colon>outdated|deprecated|superseded|superceded|obsolete|archived|rejected):)"
    r"[\s:\-\u2013\u2014]*",
    re.IGNORECASE,
)
# A banner right under the title saying the record no longer holds: "This ADR has been
# superseded by [028](…)", "This document is now outdated.", "Superseded by ADR 7".
_BANNER = re.compile(
    r"^(?:(?:note|warning|important)\s*:?\s*)?(?:(?:this|the)\s+(?:adr|record|decision|document"
    r"|decision record)\b[^.]{0,40}?\b(?:is|was|has\s+been|have\s+been)\s+(?:now\s+)?"
    r"(?:superseded|superceded|replaced|deprecated|outdated|obsolete|retired|rejected"
    r"|withdrawn|overridden)|(?:superseded|superceded|replaced|deprecated)\s+by\b)",
    re.IGNORECASE,
)
_BANNER_BLOCKS = 2  # the banner is the first or second thing under the title


def title_mark(title: str | None) -> str | None:
    """The word a title is marked with (``"outdated"``), or ``None``."""
    m = TITLE_MARK.match(title or "")
    if m is None or (m.group("upper") and not m.group("upper").isupper()):
        return None
    return next(g for g in m.groups() if g).lower()


def banner(doc: MarkdownDoc) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    """A banner under the title (a heading or a paragraph) saying the record no longer holds,
    else a mark in front of the title; with the banner's span when it is a paragraph."""
    from decisis.adr.read.markdown import blocks, strip_markdown

    heads = [(s.start, s.body_start, True) for s in doc.sections]
    parts = [(s, e, False) for s, e in blocks(doc.text, 0) if s >= doc.title_end]
    for start, end, is_heading in sorted(heads + parts)[:_BANNER_BLOCKS]:
        raw = doc.text[start:end].strip()
        plain = strip_markdown(raw.lstrip("#").lstrip(">").strip())
        if _BANNER.match(plain):
            return (raw.lstrip("#").strip(), ()) if is_heading else (raw, ((start, end),))
    mark = title_mark(doc.title)
    return (mark, ()) if mark else None


def parse_fields(doc: MarkdownDoc, status_sources: tuple[_StatusSource, ...]) -> Fields:
    """The fields of ``doc``, with the status taken from the first source that has one: a
    banner or title mark saying the record no longer holds first, the latest word on it."""
    status_text = ""
    spans: tuple[tuple[int, int], ...] = ()
    for source in (banner, *status_sources):
        found = source(doc)
        if found is not None and found[0].strip():
            status_text, spans = found
            break
    return Fields(
        title=doc.title,
        status_text=status_text,
        status_spans=spans,
        date=date_field(doc),
        date_text=date_field_text(doc),
        decision=decision_text(doc),
        context=context_text(doc),
    )


def _has_status_section(doc: MarkdownDoc) -> bool:
    return any(heading_key(s.heading).split(" ")[0] == "status" for s in doc.sections)


def _looks_madr(doc: MarkdownDoc) -> bool:
    if _from_front(doc) or _front(doc, "date"):
        return True
    return doc.find(frozenset({"decision outcome", "context and problem statement"})) is not None


register(
    AdrFormat(
        "generic",
        lambda doc: True,
        lambda doc: parse_fields(doc, (_from_front, _from_field, status_section)),
    )
)
register(
    AdrFormat(
        "nygard",
        _has_status_section,
        lambda doc: parse_fields(doc, (status_section, _from_field, _from_front)),
    )
)
register(
    AdrFormat(
        "madr",
        _looks_madr,
        lambda doc: parse_fields(doc, (_from_front, _from_field, status_section)),
    )
)
register(
    AdrFormat(
        "log4brains",
        lambda doc: status_field(doc) is not None,
        lambda doc: parse_fields(doc, (_from_field, _from_front, status_section)),
    )
)
