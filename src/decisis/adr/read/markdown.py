"""Just enough Markdown for ADRs: front matter, sections, blocks, sentences and plain text.

ADRs use a small part of Markdown (ATX headings, paragraphs, lists, links, the odd
table or code block), so a few regular expressions read them faithfully without a
parser dependency. Offsets are kept into one normalised text (``\\n`` line ends, no
front matter) so that links can be placed in their section and status line.

Every expression here reads a file in time linear in its size, whatever the file holds
(a record is read before anyone knows it is one): spans are bounded in length, and where
a faithful expression would backtrack over a line, headings and title lines are read by
:mod:`decisis.adr.read.lines`, and an opening that nothing closes takes the text it would
have read in vain with it (tags, autolinks).
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date as date_type

from decisis.adr.read.lines import atx_headings, is_atx_line, setext_title

__all__ = [
    "LINK_DEST",
    "LINK_TEXT",
    "LINK_TITLE",
    "FrontMatter",
    "MarkdownDoc",
    "Section",
    "blocks",
    "first_sentence",
    "heading_key",
    "is_list_item",
    "mask_code",
    "parse_markdown",
    "prose",
    "sentence_span",
    "sentences",
    "strip_markdown",
]

FrontMatter = dict[str, "str | list[str]"]

# The fence and the code span open with a whole run of backticks (possessive, and not
# after another backtick): a long run no fence closes is then read once, not once per
# shorter run inside it.
_FENCE = re.compile(
    r"^[ \t]{0,3}(`{3,}+|~{3,}+)[^\n]*+\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S
)
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)([^\n]{1,500}?)(?<!`)\1(?!`)")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_FRONT = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
# ``key: value`` and ``- item`` lines: the value is the rest of the line without its trailing
# spaces, taken with ``rstrip`` (a lazy group before ``[ \t]*$`` is quadratic in a line).
_YAML_PAIR = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*")
_YAML_ITEM = re.compile(r"[ \t]+-[ \t]+|-[ \t]+")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,3}[.)]|[a-zA-Z]\))[ \t]+")  # "a) " too


@dataclass(frozen=True)
class Section:
    """A heading and everything under it up to the next heading of the same or a higher level."""

    level: int
    heading: str
    start: int
    body_start: int
    end: int
    text: str


@dataclass(frozen=True)
class MarkdownDoc:
    """A record's text split for reading; ``text`` excludes the front matter."""

    text: str
    front_matter: FrontMatter
    title: str | None
    title_end: int
    sections: tuple[Section, ...] = field(default=())

    @property
    def preamble(self) -> str:
        """The text between the title and the first section: where ``Date:`` lines live."""
        end = self.sections[0].start if self.sections else len(self.text)
        return self.text[self.title_end : end]

    def find(self, names: frozenset[str]) -> Section | None:
        """The first section whose heading, normalised, is one of ``names``."""
        for section in self.sections:
            if heading_key(section.heading) in names:
                return section
        return None


@functools.lru_cache(maxsize=4096)
def heading_key(heading: str) -> str:
    """``## 3. Decision Outcome ✅`` → ``decision outcome``: headings as teams vary them."""
    text = strip_markdown(heading).lower().replace("\u2019", "'")
    text = re.sub(r"^[\d.\s)]+", "", text)
    text = re.sub(r"[^\w' ]+", " ", text)
    return " ".join(text.split())


def mask_code(text: str) -> str:
    """Blank out code blocks, inline code and HTML comments, keeping every offset in place."""

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    for pattern in (_FENCE, _HTML_COMMENT, _INLINE_CODE):
        text = pattern.sub(blank, text)
    return text


def _parse_front_matter(raw: str) -> FrontMatter:
    """Front matter as flat ``key: value`` pairs and lists of strings; nested maps are left out.

    Read as YAML (block scalars such as Docusaurus' ``title: |`` included); front matter that is
    not valid YAML, which hand-written records have, is read line by line instead.
    """
    import yaml  # only for a record with front matter: a question's answer seldom has one

    try:
        loaded = yaml.safe_load(raw)
    except yaml.YAMLError:
        return _parse_front_lines(raw)
    if not isinstance(loaded, dict):
        return _parse_front_lines(raw)
    out: FrontMatter = {}
    for key, value in loaded.items():
        if isinstance(value, list):
            out[str(key).lower()] = [_scalar(v) for v in value if not isinstance(v, dict | list)]
        elif not isinstance(value, dict):
            out[str(key).lower()] = _scalar(value)
    return out


def _scalar(value: object) -> str:
    """A YAML scalar as the text the record wrote: dates in ISO form, ``None`` as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date_type):
        return value.isoformat()
    return " ".join(str(value).split())


def _parse_front_lines(raw: str) -> FrontMatter:
    """Flat ``key: value`` pairs and lists, line by line, for front matter YAML refuses."""
    out: FrontMatter = {}
    last_key: str | None = None
    for line in raw.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _YAML_ITEM.match(line)
        if item and last_key is not None and out.get(last_key) in ("", None, []):
            values = out.get(last_key)
            items = values if isinstance(values, list) else []
            items.append(_unquote(line[item.end() :].rstrip(" \t")))
            out[last_key] = items
            continue
        pair = _YAML_PAIR.match(line)
        if pair is None:
            continue
        last_key = pair.group(1).lower()
        value = line[pair.end() :].rstrip(" \t")
        if value.startswith("[") and value.endswith("]"):
            out[last_key] = [_unquote(v) for v in value[1:-1].split(",") if v.strip()]
        else:
            out[last_key] = _unquote(value)
    return out


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _sections(text: str, masked: str) -> tuple[Section, ...]:
    heads = list(atx_headings(masked))
    # Each section ends where the next heading of its level or a higher one starts: one
    # pass with the headings still open, so a file of many headings reads in linear time.
    ends = [len(text)] * len(heads)
    open_heads: list[int] = []
    for i, (start, _, level) in enumerate(heads):
        while open_heads and heads[open_heads[-1]][2] >= level:
            ends[open_heads.pop()] = start
        open_heads.append(i)
    out: list[Section] = []
    for (start, head_end, level), end in zip(heads, ends, strict=True):
        heading = text[start:head_end].strip().lstrip("#").strip().rstrip("#").strip()
        body_start = min(head_end + 1, len(text))
        out.append(Section(level, heading, start, body_start, end, text[body_start:end]))
    return tuple(out)


def _restates(heading: str, title: str) -> bool:
    """Whether a heading is the title again, perhaps after a number and in a few more words
    (``## ADR 0023 — Title``): it holds at least 80% of the title's words."""
    said, named = set(heading_key(heading).split()), heading_key(title).split()
    return bool(named) and sum(w in said for w in named) >= 0.8 * len(named)


def parse_markdown(text: str) -> MarkdownDoc:
    """Split ``text`` (already decoded) into front matter, title and sections."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front: FrontMatter = {}
    m = _FRONT.match(text)
    if m:
        front = _parse_front_matter(m.group(1))
        text = text[m.end() :]
    masked = mask_code(text)
    sections = _sections(text, masked)
    title: str | None = None
    title_end = 0
    fm_title = front.get("title")
    if isinstance(fm_title, str) and fm_title.strip():
        # The front matter names the record (Docusaurus, MADR); a level-one heading is then
        # its title again only when it opens the text, else a section ("# Decision").
        title = fm_title.strip()
        first = sections[0] if sections else None
        opens = first is not None and not text[: first.start].strip()
        if first is not None and (first.level == 1 or (opens and _restates(first.heading, title))):
            title_end, sections = first.body_start, sections[1:]
        return MarkdownDoc(text, front, title, title_end, sections)
    h1 = next((s for s in sections if s.level == 1), None)
    if h1 is not None:
        title, title_end = strip_markdown(h1.heading), h1.body_start
        sections = tuple(s for s in sections if s is not h1)
    else:
        setext = setext_title(masked)
        if setext:
            title, title_end = strip_markdown(setext[0]), setext[1]
    return MarkdownDoc(text, front, title, title_end, sections)


def blocks(text: str, offset: int = 0) -> Iterator[tuple[int, int]]:
    """Spans of paragraphs and list items (each item its own block), code blocks excluded."""
    masked = mask_code(text)
    start: int | None = None
    pos = 0
    for line in masked.splitlines(keepends=True):
        stripped = line.strip()
        heading = is_atx_line(line)
        if not stripped or heading or _LIST_ITEM.match(line):
            if start is not None:
                yield offset + start, offset + pos
                start = None
            if stripped and not heading:
                start = pos
        elif start is None:
            start = pos
        pos += len(line)
    if start is not None:
        yield offset + start, offset + pos


# Link parts, bounded so that text full of unclosed brackets is read in linear time.
LINK_TEXT = r"(?:[^\[\]]|\[[^\[\]\n]{0,200}\]){0,400}"
LINK_DEST = r"(?:[^()\s]|\([^()\s]{0,200}\)){0,2000}"
LINK_TITLE = r"(?:\s+\"[^\"\n]{0,200}\")?"
_LINK = re.compile(rf"!?\[({LINK_TEXT})\]\({LINK_DEST}{LINK_TITLE}\s*\)")
_REF_LINK = re.compile(rf"\[({LINK_TEXT})\]\[[^\]\n]{{0,200}}\]")
# Autolinks and tags: ``<((?:https?|mailto):[^>\s]+)>`` and ``</?[A-Za-z][^>\n]*>`` read
# each ``<`` of ``<a<a<a…`` to the end of the line, so quadratically. Here the characters up to
# the first that could close (``>``) or end it are taken at once, and with them when no ``>``
# closes: every opening among them would have stopped at the same character, and failed.
_AUTOLINK = re.compile(r"<((?:https?|mailto):([^>\s]*+))(>)?")
_TAG = re.compile(r"</?[A-Za-z][^>\n]*+(>)?")


def _autolink_text(m: re.Match[str]) -> str:
    """``<https://x.org/a>`` → ``https://x.org/a``; what no ``>`` closes as it was."""
    return m.group(1) if m.group(2) and m.group(3) else m.group(0)


def _tag_space(m: re.Match[str]) -> str:
    return " " if m.group(1) else m.group(0)


# Spans are bounded (one line, 300 characters) so that a garbage file full of stars stays linear.
_EMPHASIS = (
    re.compile(r"\*\*(?=\S)([^\n]{1,300}?)(?<=\S)\*\*"),
    re.compile(r"__(?=\S)([^\n]{1,300}?)(?<=\S)__"),
    re.compile(r"(?<![\w*])\*(?=[^\s*])([^\n]{1,300}?)(?<=[^\s*])\*(?![\w*])"),
    re.compile(r"(?<![\w_])_(?=[^\s_])([^\n]{1,300}?)(?<=[^\s_])_(?![\w_])"),
    re.compile(r"~~(?=\S)([^\n]{1,300}?)(?<=\S)~~"),
)
_LINE_MARK = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+|^[ \t]*>[ \t]?")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def strip_markdown(text: str) -> str:
    """Plain text on one line: link text kept, URLs, emphasis, code ticks and tags dropped."""
    text = _HTML_COMMENT.sub(" ", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _REF_LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"\[([^\[\]\n]+)\](?!\()", r"\1", text)
    text = _AUTOLINK.sub(_autolink_text, text)
    text = _TAG.sub(_tag_space, text)
    text = _INLINE_CODE.sub(lambda m: m.group(2).strip(), text)
    for pattern in _EMPHASIS:
        text = pattern.sub(lambda m: m.group(1), text)
    lines = []
    for raw in text.splitlines():
        lines.append(_LIST_ITEM.sub("", _LINE_MARK.sub("", raw)))
    text = _ESCAPE.sub(lambda m: m.group(1), " ".join(lines))
    return " ".join(html.unescape(text).split())


_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "eg", "ie", "etc", "vs", "approx", "incl", "cf", "no", "mr", "ms", "dr", "st"}
)
_SENTENCE_END = re.compile(r"[.!?][\"')\]*_]*(?=\s)")


def _sentence_ends(text: str) -> Iterator[int]:
    for m in _SENTENCE_END.finditer(text):
        word = re.search(r"([\w.]+)[.!?]?[\"')\]*_]*$", text[max(0, m.end() - 24) : m.end()])
        if (
            word
            and m.group(0).startswith(".")
            and word.group(1).lower().rstrip(".") in _ABBREVIATIONS
        ):
            continue
        yield m.end()


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence of ``text`` (one block) that holds ``text[start:end]``."""
    left, right = 0, len(text)
    for stop in _sentence_ends(text):
        if stop <= start:
            left = stop
        elif stop >= end:
            right = stop
            break
    return left, right


def sentences(text: str) -> Iterator[str]:
    """The sentences of plain ``text`` (one block), stripped, in order."""
    start = 0
    for stop in _sentence_ends(text):
        if text[start:stop].strip():
            yield text[start:stop].strip()
        start = stop
    if text[start:].strip():
        yield text[start:].strip()


def first_sentence(text: str, limit: int = 240) -> str:
    """The first sentence of plain ``text``, cut at a word boundary near ``limit`` characters."""
    text = text.strip()
    for stop in _sentence_ends(text):
        if len(text[:stop].split()) >= 3:
            text = text[:stop]
            break
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:-")
        text = cut + "\u2026"
    return text


_BARE_URL = re.compile(r"<?\bhttps?://\S+")
_NOT_PROSE = ("|", "<", "![", "---", "***", "===")


def is_list_item(text: str) -> bool:
    return bool(_LIST_ITEM.match(text))


def prose(raw: str) -> str:
    """A block as plain text, or ``""`` for tables, images, rules and labels of bare links."""
    if raw.lstrip().startswith(_NOT_PROSE):
        return ""
    plain = strip_markdown(raw)
    without_urls = " ".join(_BARE_URL.sub(" ", plain).split()).strip(" ([")
    if without_urls != plain and without_urls.endswith(":"):
        return ""  # "Link to this ADR: https://…" says where the decision is, not what it is
    return without_urls
