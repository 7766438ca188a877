"""Status lines: which lines of a Status section state the status, and what status they mean.

Teams write ``Accepted``, ``✅ Accepted``, ``Approved``, ``Pending``, ``🤔 Incomplete``,
``⌛️ Superseded by [036. Multi-cluster](036-multi-cluster.md)``, ``Partly superseded``,
``Accepted`` followed by ``Amended by [17](0017-x.md)``. A later record acting on this
one (``superseded by``, ``amended by``) outranks the word before it; ``partly superseded``
counts as ``amended``, since part of the record still stands. Otherwise the first status
word written wins, and an emoji decides only when no word does. Struck-through words
(``~~Accepted~~ Deprecated``) were withdrawn by their author and say nothing.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

from decisis.adr.read.markdown import blocks, strip_markdown
from decisis.adr.read.records import AdrStatus
from decisis.adr.read.scan import Ahead, replace_spans

__all__ = ["clean_status", "normalise_status", "status_line_spans"]

_LATER_RECORD = (
    (
        re.compile(
            r"\b(?:partly|partially|in part)\s+(?:supersed|supercede|replac)\w*"
            r"|\b(?:amended|revised|extended|updated|modified|clarified)\s+(?:in part\s+)?by\b"
        ),
        AdrStatus.AMENDED,
    ),
    (
        re.compile(r"\b(?:supersed|supercede|replac|obsolet)\w*\s+(?:in full\s+)?by\b"),
        AdrStatus.SUPERSEDED,
    ),
)

_WORDS: tuple[tuple[AdrStatus, tuple[str, ...]], ...] = (
    (
        AdrStatus.REJECTED,
        (
            "not accepted",
            "rejected",
            "declined",
            "abandoned",
            "withdrawn",
            "cancelled",
            "canceled",
            "won't do",
            "wont do",
            "refused",
            "dropped",
            "not approved",
        ),
    ),
    (
        AdrStatus.SUPERSEDED,
        ("superseded", "superceded", "supersceded", "replaced", "obsoleted"),
    ),
    (AdrStatus.AMENDED, ("amended", "revised")),
    (
        AdrStatus.DEPRECATED,
        ("deprecated", "obsolete", "retired", "archived", "sunset", "outdated", "out of date"),
    ),
    (
        AdrStatus.PROPOSED,
        (
            "proposed",
            "proposal",
            "pending",
            "draft",
            "drafted",
            "incomplete",
            "in progress",
            "in review",
            "under review",
            "for review",
            "open",
            "wip",
            "work in progress",
            "suggested",
            "under discussion",
            "in discussion",
            "rfc",
            "on hold",
            "planned",
            "new",
            "todo",
            "to do",
        ),
    ),
    (
        AdrStatus.ACCEPTED,
        (
            "accepted",
            "approved",
            "adopted",
            "agreed",
            "decided",
            "done",
            "implemented",
            "active",
            "completed",
            "complete",
            "in effect",
            "current",
            "final",
            "live",
        ),
    ),
)
_WORD_PATTERN = re.compile(
    r"\b("
    + "|".join(sorted((re.escape(w) for _, ws in _WORDS for w in ws), key=len, reverse=True))
    + r")\b"
)
_WORD_STATUS = {w: status for status, ws in _WORDS for w in ws}

_EMOJI = (
    ("\u2705\u2714\u2611", AdrStatus.ACCEPTED),  # ✅ ✔ ☑
    ("\u274c\u2716\U0001f6ab\u26d4", AdrStatus.REJECTED),  # ❌ ✖ 🚫 ⛔
    ("\u231b", AdrStatus.SUPERSEDED),  # ⌛ (hourglass done)
    ("\u26a0\U0001f5d1", AdrStatus.DEPRECATED),  # ⚠ 🗑
    ("\U0001f914\u23f3\U0001f4dd\U0001f6a7\U0001f4ad", AdrStatus.PROPOSED),  # 🤔 ⏳ 📝 🚧 💭
)

# A block of a Status section that states a status (rather than telling a story) starts
# with one of these once emoji and markdown are gone.
_STATUS_START = re.compile(
    r"^(?:status\s*:\s*)?(?:partly\s+|partially\s+|in part\s+)?(?:"
    + "|".join(re.escape(w) for w in sorted(_WORD_STATUS, key=len, reverse=True))
    + r"|amends|supersedes|supercedes|replaces|deprecates|obsoletes|extends|see|refines"
    r"|implements|related to|relates to|date)\b"
)
_STATUS_LINE_LIMIT = 200
# Text its author struck through: markdown ``~~…~~`` or HTML ``<del>``, ``<s>``, ``<strike>``,
# the spans of ``~~(?!\s).+?~~|<(del|s|strike)\b[^>]*>.*?</\1\s*>`` (re.I, re.S). That
# expression reads to the end of the text for each opening that nothing closes, quadratic
# in a status line of ``<s>``s; here each opening asks where the next closing is, once.
_STRUCK_OPEN = re.compile(r"~~(?!\s)(?s:.)|<(del|s|strike)\b", re.IGNORECASE)
_TILDES = re.compile("~~")
_TAG_END = re.compile(">")


@functools.lru_cache(maxsize=64)
def _closing_tag(name: str) -> re.Pattern[str]:
    """``</name\\s*>``, in any case: as the back-reference ``\\1`` compares, but for Unicode's
    odd pairs (the long s and s, the Kelvin sign and k), which a literal matches and a
    back-reference does not; no team's tag is written so."""
    return re.compile(rf"</{re.escape(name)}\s*>", re.IGNORECASE)


def _struck_spans(text: str) -> Iterator[tuple[int, int]]:
    """The spans of struck-through text in ``text``, left to right, as ``re.sub`` finds them."""
    tildes, tag_ends = Ahead(text, _TILDES), Ahead(text, _TAG_END)
    closings: dict[str, Ahead] = {}
    pos = 0
    while (m := _STRUCK_OPEN.search(text, pos)) is not None:
        end: int | None = None
        name = m.group(1)
        if name is None:  # ~~x…~~: the first ~~ after at least one character
            close = tildes.at(m.start() + 3)
            end = close + 2 if close < len(text) else None
        elif (tag_end := tag_ends.at(m.end())) < len(text):
            if name not in closings:
                closings[name] = Ahead(text, _closing_tag(name))
            found = closings[name].next(tag_end + 1)
            end = found.end() if found is not None else None
        if end is None:
            pos = m.start() + 1
        else:
            yield m.start(), end
            pos = end


def clean_status(text: str) -> str:
    """Lower-case plain text of a status, without markdown, emoji or decoration."""
    plain = strip_markdown(text)
    kept = "".join(
        " " if unicodedata.category(ch) in {"So", "Sk", "Cf", "Mn", "Co"} else ch for ch in plain
    )
    return " ".join(kept.lower().replace("\u2019", "'").split()).strip(" -:*")


def normalise_status(text: str) -> AdrStatus:
    """The status that ``text`` (one or more status lines, as written) states."""
    text = replace_spans(text, _struck_spans(text), lambda start, end: " ")
    plain = clean_status(text)
    for pattern, status in _LATER_RECORD:
        if pattern.search(plain):
            return status
    word = _WORD_PATTERN.search(plain)
    if word:
        return _WORD_STATUS[word.group(1)]
    for chars, status in _EMOJI:
        if any(ch in text for ch in chars):
            return status
    return AdrStatus.UNKNOWN


def status_line_spans(section_text: str, offset: int = 0) -> list[tuple[int, int]]:
    """Spans of the lines of a Status section that state the status.

    The first block always does; later blocks do while they are short and start
    with a status word or a relation (``Amended by``, ``Supersedes``). Narrative
    after them ("**May 2021 Update** We're looking to move on…") is body text.
    """
    spans: list[tuple[int, int]] = []
    for start, end in blocks(section_text):
        raw = section_text[start:end]
        if raw.lstrip().startswith("|"):
            break
        plain = clean_status(raw)
        if spans and (len(plain) > _STATUS_LINE_LIMIT or not _STATUS_START.match(plain)):
            break
        spans.append((offset + start, offset + end))
    return spans
