"""References from one record to others, with the sentence and the replacement verbs around them.

Recognised references, outside code blocks and inline code:

- Markdown links, inline (``[021](021-Multi-cluster.md)``) or by reference
  (``[x][id]`` … ``[id]: 0003-y.md``), and autolinks (``<https://…/0019-z.md>``);
- bare URLs and bare file names (``021-foo.md``);
- written numbers: ``ADR-021``, ``ADR 21``, ``ADR021``, ``adr-0021``, ``ADR #0033``,
  ``Decision 036``, ``decision record 12``.

A target resolves to a key of the same folder by file name first (a relative link or a
URL, e.g. a GitHub address, whose file exists in the folder), then, for written numbers
and relative links to a missing file, by number with zero padding ignored (``ADR 21``
finds ``021-x.md``). A link to a numbered ``.md`` file elsewhere is kept with
``target_key=None``; links to anything that is not a numbered or known record file
(tickets, docs, images) are not record references and are left out, as are links of
a record to itself.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from decisis.adr.read.keys import MARKDOWN_SUFFIXES, FolderIndex, number_in_name
from decisis.adr.read.markdown import (
    LINK_DEST,
    LINK_TEXT,
    LINK_TITLE,
    MarkdownDoc,
    Section,
    blocks,
    mask_code,
    sentence_span,
    strip_markdown,
)
from decisis.adr.read.records import Link, LinkKind, LinkRole

__all__ = ["MAX_REFERENCES", "VERBS", "extract_links", "find_verbs"]

# Canonical verb → the pattern that finds its forms in a sentence.
VERBS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("supersede", r"\bsupers[ce]e?d\w*|\bsupercede\w*"),
        ("replace", r"\breplac\w*"),
        ("migrate", r"\bmigrat\w*"),
        ("instead of", r"\binstead\s+of\b"),
        ("deprecate", r"\bdeprecat\w*"),
        ("amend", r"\bamend\w*"),
        ("move on", r"\bmov(?:e|ed|es|ing)\s+on\b"),
        ("move away", r"\bmov(?:e|ed|es|ing)\s+away\b"),
        ("in favour of", r"\bin\s+favou?r\s+of\b"),
        ("reject", r"\breject\w*"),
        ("decommission", r"\bdecommission\w*"),
        ("retire", r"\bretir(?:e|ed|es|ing)\b"),
        ("obsolete", r"\bobsolet\w*"),
        ("switch", r"\bswitch(?:es|ed|ing)?\b"),
        ("revert", r"\brevert\w*"),
        ("no longer", r"\bno\s+longer\b"),
        ("override", r"\boverrid\w*|\boverrode\b|\boverturn\w*"),
    )
)

_PASSIVE = (
    r"(?:superseded|superceded|replaced|amended|deprecated|obsoleted|overridden|revised"
    r"|updated|extended)"
)
_ACTIVE = (
    r"(?:supersedes?|supercedes?|replaces?|amends?|deprecates?|obsoletes?|overrides?|revises?"
    r"|overturns?)"
)
# What an active verb may take before the record it names: "overrides our previous decision
# from [ADR 004]", "replaces our decision to use pa11y-ci in 005", "supersedes the approach
# of ADR 3", "supersede [ADR 17] and [ADR 27] decisions".
_OBJECT = (
    r"(?:\s+(?:our|the|a|an|its|their|this|that)){0,1}(?:\s+(?:previous|earlier|prior|original"
    r"|old|older|existing|former|initial))?\s+(?:decisions?|choices?|approach(?:es)?|records?|adrs?)"
    r"\b[^.;:!?]{0,60}?\b(?:from|in|of|by|made\s+in|taken\s+in|recorded\s+in|described\s+in"
    r"|documented\s+in|set\s+out\s+in)"
)
_NEGATED = re.compile(
    r"\b(?:not|n't|never|nor|without)\s+(?:\w+\s+){0,2}$|\bnot\s+a\s+$", re.IGNORECASE
)
# What may stand between two references of one list: "and", "or", "as well as", "plus", or
# only punctuation (``^\W*(?:,|and|or|&|as\s+well\s+as|plus)?\W*$``, which backtracks
# quadratically over a long run of punctuation, read as the word between two such runs).
_NON_WORD = re.compile(r"\W*")
_CONJUNCTION = re.compile(r"and|or|as\s+well\s+as|plus", re.IGNORECASE)
_PARTLY = r"(?:\s+(?:in\s+part|partly|partially|fully))?"
# "superseded on 1st June 2020 by", "Superseded (as never implemented) by"
_WHEN = r"(?:\s+(?:on|in|as\s+of|from)\s+[\w ,]{1,30}?|\s*\([^()\n]{1,40}\))?"
_SUCCESSOR_BEFORE = re.compile(rf"\b{_PASSIVE}{_PARTLY}{_WHEN}\s+by\W*$", re.IGNORECASE)
_SUCCESSOR_BEFORE_STATUS = re.compile(rf"\b{_PASSIVE}{_PARTLY}(?:\s+by)?\W*$", re.IGNORECASE)
_PREDECESSOR_BEFORE = re.compile(
    rf"(?:\b{_ACTIVE}{_PARTLY}(?:{_OBJECT})?|\binstead\s+of|\bmigrat\w+\s+(?:away\s+)?from)\W*$",
    re.IGNORECASE,
)
# The replacements said outright, among the roles above: no "instead of", no "migrating from".
_STATED_PREDECESSOR = re.compile(rf"\b{_ACTIVE}{_PARTLY}(?:{_OBJECT})?\W*$", re.IGNORECASE)
_TO = (
    r"\b(?:migrat\w*|mov(?:e|es|ed|ing)|switch\w*|transition\w*|upgrad\w*)\s+(?:over\s+)?"
    r"(?:on)?to\b"
)
_DESTINATION_BEFORE = re.compile(rf"{_TO}(?:\s+(?:the|an?|our|using))?\W*$", re.IGNORECASE)
_DESTINATION_LABEL = re.compile(rf"^\W*(?:the\s+)?{_TO}", re.IGNORECASE)  # [migration to EKS](…)
_PREDECESSOR_AFTER = re.compile(
    rf"^\W*(?:is|was|are|were|has\s+been|have\s+been)\s+(?:now\s+)?{_PASSIVE}{_PARTLY}\s+by\s+this\b",
    re.IGNORECASE,
)

# ``(?<!!)\[(TEXT)\]\(\s*<?(DEST)>?TITLE\s*\)`` gave back the spaces after ``(`` one at a
# time, each time reading them all again; the spaces are taken at once here, and the one
# match giving some back could find (an empty target, then a title) is the second branch.
_INLINE_LINK = re.compile(
    rf"(?<!!)\[({LINK_TEXT})\]\((?:\s*+<?({LINK_DEST})>?{LINK_TITLE}\s*\)"
    r"|\s++\"[^\"\n]{0,200}\"\s*\))"
)
_IMAGE = re.compile(rf"!\[{LINK_TEXT}\]\({LINK_DEST}{LINK_TITLE}\s*\)")
_REF_DEF = re.compile(
    r"^[ \t]{0,3}\[([^\]\n]{1,200})\]:[ \t]*<?(\S+?)>?(?:[ \t]+[\"'(].*)?[ \t]*$", re.M
)
_REF_USE = re.compile(rf"\[({LINK_TEXT})\](?:\[([^\]\n]{{0,200}})\])?(?![(:])")
# ``<((?:https?://)[^>\s]+)>``, which read each ``<`` of ``<http://<http://…`` to the end:
# the characters up to the first that closes or ends it are taken at once, closed or not
# (every opening among them would have stopped there too), and only a closed one is a link.
_AUTOLINK = re.compile(r"<(https?://([^>\s]*+))(>)?")
_BARE_URL = re.compile(r"\bhttps?://[^\s<>()\[\]\"'`]+[^\s<>()\[\]\"'`.,;:!?*_]")
_BARE_FILE = re.compile(r"(?<![\w/.\-])((?:adr[-_])?\d{1,5}-[\w.\-]*?\.(?:md|markdown))\b", re.I)
_WRITTEN = re.compile(r"\bADR(?:[-_ ]?#?|\s#)0*(\d{1,5})\b", re.IGNORECASE)
# A file's name without its suffix, written in the text ("supersedes 005-frontend-a11y-toolset").
_BARE_STEM = re.compile(
    r"(?<![\w/.\-])((?:adr[-_])?\d{1,5}-[a-z0-9][\w\-]*[a-z0-9])(?![\w\-]|\.\w)", re.I
)
# A number with the folder's zero padding, written alone ("our decision to use pa11y-ci in 005").
_PADDED = re.compile(r"(?<![\w.,/#\-])(0\d{1,4})(?![\w\-]|[.,]\d)")
_WRITTEN_DECISION = re.compile(r"\b(?:Decision|[Dd]ecision\s+record)\s+#?0*(\d{1,5})\b")
_MAYBE_REF = re.compile(r"\[|https?:|\.md|\.markdown|adr|decision|\d-|\b0\d", re.IGNORECASE)
_CONTEXT_LIMIT = 400
# Real records cite a handful of others; past this many references a file is generated or
# hostile, and reading on would only slow ingest down.
MAX_REFERENCES = 500
_WINDOW = 600


@dataclass(frozen=True)
class _Ref:
    start: int
    end: int
    target: str
    key: str | None
    number: int | None


def find_verbs(text: str) -> tuple[str, ...]:
    """The canonical replacement verbs that ``text`` uses, in ``VERBS`` order; a verb
    denied ("does not directly supersede", "is not replacing") is not used."""
    return tuple(
        name
        for name, pattern in VERBS
        if any(not _NEGATED.search(text[: m.start()]) for m in pattern.finditer(text))
    )


def _resolve_path(target: str, index: FolderIndex) -> tuple[str | None, int | None] | None:
    """Key and number of a link target, or ``None`` when it names no record file.

    A target in this site without a Markdown suffix counts when it names a record all
    the same: a file of the folder by its stem (``./024-remove-protobufs``) or, in a
    site's own paths, a number as the last part (Docusaurus' ``/adr/18``).
    """
    parts = urlsplit(target)
    path = unquote(parts.path)
    name = path.rstrip("/").rsplit("/", 1)[-1]
    local = not parts.scheme and not parts.netloc
    if not name:
        return None
    if not any(name.lower().endswith(s) for s in MARKDOWN_SUFFIXES):
        if not local or "." in name:
            return None
        key = index.key_for_stem(name)
        if key is not None:
            return key, index.keys_by_key[key].number
        if name.isdigit() and len(name) <= 5:
            return index.key_for_number(int(name)), int(name)
        return None
    digits = number_in_name(name)
    number = int(digits) if digits is not None else None
    key = index.key_for_name(name)
    same_folder = local and "/" not in path.removeprefix("./")
    if key is None and same_folder and number is not None:
        key = index.key_for_number(number)
    if key is None and number is None:
        return None
    return key, number


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with each of the (sorted, disjoint) ``spans`` replaced by spaces, in one
    pass: blanking them one copy at a time is quadratic in a record full of links."""
    pieces, at = [], 0
    for start, end in spans:
        pieces += [text[at:start], " " * (end - start)]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _spaces(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


def _targets(masked: str) -> Iterator[tuple[int, int, str]]:
    """Each inline link, autolink, bare URL and bare file name: its span and its target."""
    for m in _INLINE_LINK.finditer(masked):
        yield m.start(), m.end(), m.group(2) or ""
    for m in _AUTOLINK.finditer(masked):
        if m.group(2) and m.group(3):
            yield m.start(), m.end(), m.group(1)
    for pattern, group in ((_BARE_URL, 0), (_BARE_FILE, 1)):
        for m in pattern.finditer(masked):
            yield m.start(), m.end(), m.group(group)


def _link_refs(masked: str, index: FolderIndex, defs: dict[str, str]) -> Iterator[_Ref]:
    """Markdown links (inline, by reference, autolinks), bare URLs and file names."""
    for start, end, target in _targets(masked):
        resolved = _resolve_path(target, index)
        if resolved is not None:
            yield _Ref(start, end, target, *resolved)
    for m in _REF_USE.finditer(masked) if defs else ():
        label = (m.group(2) or m.group(1)).strip().lower()
        if label in defs:
            resolved = _resolve_path(defs[label], index)
            if resolved is not None:
                yield _Ref(m.start(), m.end(), defs[label], *resolved)


def _block_refs(masked: str, index: FolderIndex, defs: dict[str, str]) -> list[_Ref]:
    """All references in one block, each span used once (a link's text is not read again)."""
    refs: list[_Ref] = []
    if not _MAYBE_REF.search(masked):
        return refs
    masked = _IMAGE.sub(_spaces, masked)
    reach = -1  # the furthest end of a kept ref: sorted by start, a ref inside one is dropped
    for ref in sorted(_link_refs(masked, index, defs), key=lambda r: (r.start, -r.end)):
        if ref.start < reach:
            continue
        refs.append(ref)
        reach = max(reach, ref.end)
    masked = _blank(masked, ((r.start, r.end) for r in refs))
    masked = _INLINE_LINK.sub(_spaces, masked)  # links to non-records: their text is no reference
    for m in _BARE_STEM.finditer(masked):
        key = index.key_for_stem(m.group(1))
        if key is not None:
            refs.append(_Ref(m.start(), m.end(), m.group(1), key, index.keys_by_key[key].number))
    masked = _blank(masked, ((r.start, r.end) for r in sorted(refs, key=lambda r: r.start)))
    for pattern in (_WRITTEN, _WRITTEN_DECISION):
        for m in pattern.finditer(masked):
            number = int(m.group(1))
            refs.append(_Ref(m.start(), m.end(), m.group(0), index.key_for_number(number), number))
    if index.padding > 1:
        masked = _blank(masked, ((r.start, r.end) for r in sorted(refs, key=lambda r: r.start)))
        for m in _PADDED.finditer(masked):
            if len(m.group(1)) == index.padding:
                number = int(m.group(1))
                key = index.key_for_number(number)
                if key is not None:
                    refs.append(_Ref(m.start(), m.end(), m.group(1), key, number))
    return sorted(refs, key=lambda r: r.start)


def _role(before: str, after: str, kind: LinkKind, label: str = "") -> tuple[LinkRole | None, bool]:
    """Which way the sentence points at a reference, and whether it says so outright."""
    before, after = strip_markdown(before + " x")[:-1], strip_markdown("x " + after)[1:]
    if _SUCCESSOR_BEFORE.search(before):
        return "successor", not _negated(before, _SUCCESSOR_BEFORE)
    if kind == "status" and _SUCCESSOR_BEFORE_STATUS.search(before):
        return "successor", True
    predecessor = _PREDECESSOR_BEFORE.search(before)
    if predecessor or _PREDECESSOR_AFTER.search(after):
        if predecessor and _NEGATED.search(before[: predecessor.start()]):
            return None, False  # "this does not directly supersede [ADR23]"
        stated = bool(_STATED_PREDECESSOR.search(before)) or bool(_PREDECESSOR_AFTER.search(after))
        return "predecessor", stated
    if _DESTINATION_BEFORE.search(before) or _DESTINATION_LABEL.search(strip_markdown(label)):
        return "destination", False
    return None, False


def _negated(before: str, pattern: re.Pattern[str]) -> bool:
    m = pattern.search(before)
    return m is not None and bool(_NEGATED.search(before[: m.start()]))


class _SectionNames:
    """The innermost section holding a position, as plain text, found without reading every
    section for every reference (a record of many headings and many links was quadratic).

    Sections nest (each ends where the next heading of its level or a higher one starts), so
    the innermost holding ``pos`` is the last one starting at or before it, or one of the
    sections that one sits in. Sections given in another order, or that overlap without
    nesting, are looked through one by one as before.
    """

    def __init__(self, sections: Sequence[Section]) -> None:
        self._sections = sections
        self._starts = [s.start for s in sections]
        self._parents = self._nesting(sections)
        self._names: dict[int, str] = {}

    @staticmethod
    def _nesting(sections: Sequence[Section]) -> list[int] | None:
        """The index of the section each one sits in (-1 for none), or ``None`` when the
        sections are not in order or overlap without nesting."""
        parents: list[int] = []
        holding: list[int] = []  # the sections open at the current start, innermost last
        for i, section in enumerate(sections):
            while holding and sections[holding[-1]].end <= section.start:
                holding.pop()
            if i and section.start < sections[i - 1].start:
                return None
            if holding and sections[holding[-1]].end < section.end:
                return None
            parents.append(holding[-1] if holding else -1)
            holding.append(i)
        return parents

    def at(self, pos: int) -> str:
        if self._parents is None:
            found = -1
            for i, section in enumerate(self._sections):
                if section.start <= pos < section.end:
                    found = i  # the last one that holds pos is the innermost
        else:
            found = bisect_right(self._starts, pos) - 1
            while found >= 0 and not pos < self._sections[found].end:
                found = self._parents[found]
        if found not in self._names:
            self._names[found] = strip_markdown(self._sections[found].heading if found >= 0 else "")
        return self._names[found]


def _sentence_around(block: str, start: int, end: int) -> tuple[int, int]:
    """The sentence holding a reference; in a table, the row (cells are not sentences).

    Only ``_WINDOW`` characters either side are looked at: a context is short anyway,
    and a block with no full stops must not make every reference read all of it.
    """
    if block.lstrip().startswith("|"):
        left = block.rfind("\n", max(0, start - _WINDOW), start) + 1 or max(0, start - _WINDOW)
        right = block.find("\n", end, end + _WINDOW)
        return left, right if right >= 0 else min(len(block), end + _WINDOW)
    low = max(0, start - _WINDOW)
    left, right = sentence_span(block[low : end + _WINDOW], start - low, end - low)
    return low + left, low + right


def _context(sentence: str) -> str:
    plain = strip_markdown(sentence)
    if plain.startswith("|"):
        plain = " ".join(" ; ".join(c.strip() for c in plain.strip("| ").split("|")).split())
    if len(plain) > _CONTEXT_LIMIT:
        plain = plain[:_CONTEXT_LIMIT].rsplit(" ", 1)[0] + "\u2026"
    return plain


@dataclass(frozen=True)
class _Block:
    text: str
    masked: str
    kind: LinkKind
    start: int | None  # offset in doc.text; None for a status written in front matter


def _blocks_of(
    doc: MarkdownDoc, status_spans: list[tuple[int, int]], extra_status_text: str
) -> Iterator[_Block]:
    """The blocks to search, each with its kind; a front-matter status first."""
    if extra_status_text:
        yield _Block(extra_status_text, mask_code(extra_status_text), "status", None)
    masked = _REF_DEF.sub(lambda m: " " * len(m.group(0)), mask_code(doc.text))
    # Whether a block starts inside a status span, by bisection: a Status section of many
    # short lines gives many spans, and testing each against every block was quadratic.
    spans = sorted(status_spans)
    starts = [s for s, _ in spans]
    reach: list[int] = []  # the furthest end of the spans starting at or before each one
    for _, end in spans:
        reach.append(max(end, reach[-1]) if reach else end)
    for start, end in blocks(doc.text):
        at = bisect_right(starts, start) - 1
        kind: LinkKind = "status" if at >= 0 and start < reach[at] else "body"
        yield _Block(doc.text[start:end], masked[start:end], kind, start)


def _coordinated(between: str) -> bool:
    """Whether ``between`` is only punctuation and at most one "and", "or", "as well as" or
    "plus": the lead and the tail that are not words are cut off, and what stays is the word."""
    lead = _NON_WORD.match(between)
    tail = _NON_WORD.match(between[::-1])
    start, end = lead.end() if lead else 0, len(between) - (tail.end() if tail else 0)
    return start >= end or _CONJUNCTION.fullmatch(between, start, end) is not None


def _follows_in_a_list(
    text: str, last: tuple[int, LinkRole | None, bool, str] | None, start: int, context: str
) -> bool:
    """Whether a reference follows the previous one of its sentence with only "and", "or" or a
    comma between them, so that it shares the previous one's role."""
    if last is None or last[1] is None or last[3] != context:
        return False
    return _coordinated(strip_markdown(text[last[0] : start] + " x")[:-1])


def extract_links(
    doc: MarkdownDoc,
    index: FolderIndex,
    own_key: str,
    status_spans: list[tuple[int, int]],
    extra_status_text: str = "",
) -> list[Link]:
    """Every reference to a record in ``doc``, in the order written.

    ``status_spans`` are the offsets of the status lines in ``doc.text``: a reference
    inside them is of kind ``"status"``. ``extra_status_text`` is a status written
    outside the text (front matter), read as a status line of its own. A target named
    twice in one sentence gives one link; only the first ``MAX_REFERENCES`` are read.
    """
    defs = {m.group(1).strip().lower(): m.group(2) for m in _REF_DEF.finditer(mask_code(doc.text))}
    links: list[Link] = []
    seen: set[tuple[str, str, str]] = set()
    section_names = _SectionNames(doc.sections)
    examined = 0
    for block in _blocks_of(doc, status_spans, extra_status_text):
        last: tuple[int, LinkRole | None, bool, str] | None = None  # end, role, stated, context
        for ref in _block_refs(block.masked, index, defs):
            examined += 1
            if examined > MAX_REFERENCES:
                return links
            left, right = _sentence_around(block.text, ref.start, ref.end)
            context = _context(block.text[left:right])
            role, stated = _role(
                block.text[left : ref.start],
                block.text[ref.end : right],
                block.kind,
                block.text[ref.start : ref.end],
            )
            if role is None and _follows_in_a_list(block.text, last, ref.start, context):
                # "superseded by [ADR 23] and [ADR 26]", "we supersede [ADR 17] and [ADR 27]"
                assert last is not None
                role, stated = last[1], last[2]
            last = (ref.end, role, stated, context)
            marker = (ref.key or ref.target, context, block.kind)
            if ref.key == own_key or marker in seen:
                continue
            seen.add(marker)
            links.append(
                Link(
                    target=ref.target,
                    target_key=ref.key,
                    target_number=ref.number,
                    kind=block.kind,
                    section="Status" if block.start is None else section_names.at(block.start),
                    context=context,
                    verbs=find_verbs(context),
                    role=role,
                    stated=stated,
                )
            )
    return links
