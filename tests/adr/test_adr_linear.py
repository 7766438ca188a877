"""The linear-time readers read exactly as the expressions they replaced.

Each expression below is the one the reader used before (issue #31, part 4): faithful, and
quadratic on some line. Each test reads random text made of the pieces that matter to it,
with the old expression and with what replaced it, and asks for the same answer. The old
expressions are slow only on long text, and this text is short.
"""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import example, given, settings
from hypothesis import strategies as st

from decisis.adr.read import formats, markdown, reader, references, status, titles
from decisis.adr.read.lines import atx_headings, is_atx_line, setext_title
from decisis.adr.read.markdown import parse_markdown
from decisis.adr.read.scan import Ahead

OLD_ATX = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", re.M)
OLD_SETEXT = re.compile(r"\A\s*([^\n#>|`*-][^\n]*)\n=+[ \t]*$", re.M)
OLD_YAML_PAIR = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$")
OLD_YAML_ITEM = re.compile(r"^[ \t]+-[ \t]+(.*?)[ \t]*$|^-[ \t]+(.*?)[ \t]*$")
OLD_TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
OLD_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
OLD_REF_AUTOLINK = re.compile(r"<((?:https?://)[^>\s]+)>")
OLD_INLINE_LINK = re.compile(
    rf"(?<!!)\[({markdown.LINK_TEXT})\]\(\s*<?({markdown.LINK_DEST})>?{markdown.LINK_TITLE}\s*\)"
)
OLD_COORDINATED = re.compile(r"^\W*(?:,|and|or|&|as\s+well\s+as|plus)?\W*$", re.IGNORECASE)
OLD_STRUCK = re.compile(
    r"~~(?!\s).+?~~|<(del|s|strike)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL
)
OLD_TEMPLATE_TITLE = re.compile(
    r"\{[^}]*\}|^\s*(?:number\.?\s*)?title\s*$|\[short title", re.IGNORECASE
)
OLD_MOVED_FROM = re.compile(
    r"\b(?:migrat(?:e|es|ed|ing|ion)|mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?"
    r"|transition(?:s|ed|ing)?)\b.*?\b(?:away\s+from|from|off(?:\s+of)?)"
    r"\s+(?P<old>.+?)" + titles._NEW_SIDE + "$",
    re.IGNORECASE,
)
OLD_SCOPE = re.compile(
    r"\s(?:with|by|to|onto|into|in\s+favou?r\s+of)\s+\S.*?\s(?:for|as\s+the|as\s+our)"
    r"\s+(?P<scope>\S.*)$",
    re.IGNORECASE,
)


def _old_field(name: str, colon: bool) -> re.Pattern[str]:
    sep = r"[ \t]*:" if colon else r"[ \t]*:?"
    return re.compile(
        rf"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?{name}(?:\*\*|__)?{sep}(?:\*\*|__)?[ \t]*"
        r"(?:\*\*|__)?[ \t]*(?P<value>\S.*?)[ \t]*$",
        re.M | re.IGNORECASE,
    )


OLD_STATUS_FIELD = _old_field("status", colon=True)
OLD_DATE_FIELD = _old_field(
    r"(?:(?:decision[ \t]+)?date(?:[ \t]+of[ \t]+decision)?|created|drafted|decided)", colon=False
)


def pieces(*parts: str, max_size: int = 30) -> st.SearchStrategy[str]:
    """Text made of ``parts`` in any order: the characters and words a pattern turns on."""
    return st.lists(st.sampled_from(parts), max_size=max_size).map("".join)


def lines_of(*kinds: str, parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Lines each of one of ``kinds`` or made of ``parts``, joined by ``\\n``."""
    return st.lists(st.one_of(st.sampled_from(kinds), parts), max_size=8).map("\n".join)


HEADINGS = lines_of(
    "    # x", "   # x", "# x #", "#######  y", "##\t#", "\t\t\t#  a", "\t \t \t# b", "", "x",
    "#", "# ", "###### x ##  ", "# \u2028x",
    parts=pieces(" ", "\t", "#", "##", "x", "\x0c", "\u2028", "    ", "=", max_size=8),
)  # fmt: skip
WHITE = pieces(" ", "\t", "\n", "\x0c", "\u2028", max_size=6)
SETEXT = st.one_of(
    st.builds(
        lambda before, title, under, rest: before + title + "\n" + under + rest,
        WHITE,
        st.sampled_from(["x", "#x", ">x", "-x", " x", "", "=", "|x", "`x", "*x", " #x", "\t"]),
        st.sampled_from(["=", "==  ", "= =", "x", "", "=\t", " ="]),
        st.sampled_from(["", "\nmore", "\n", "\n==="]),
    ),
    pieces(" ", "\t", "\n", "=", "==", "#", ">", "x", "-", "\x0c", "\u2028", "|", "`"),
)
PROPERTY = settings(max_examples=400, deadline=None, database=None)


@PROPERTY
@given(HEADINGS)
def test_atx_headings_are_the_old_expression_s_matches(text: str) -> None:
    old = [(m.start(), m.end(), len(m.group(1))) for m in OLD_ATX.finditer(text)]
    assert list(atx_headings(text)) == old


@PROPERTY
@given(HEADINGS)
def test_an_atx_line_is_one_the_old_expression_matches(text: str) -> None:
    for line in text.splitlines(keepends=True):
        assert is_atx_line(line) == bool(OLD_ATX.match(line.rstrip("\n"))), repr(line)


@PROPERTY
@given(SETEXT)
@example(" \n=")  # the blank line before the === line is the title
@example("   >x\n==")  # a character that may not open a title: the space before does
@example("  \n\n=")  # a blank line and an empty one: no title
def test_setext_titles_are_the_old_expression_s(text: str) -> None:
    m = OLD_SETEXT.search(text)
    assert setext_title(text) == ((m.group(1), m.end()) if m else None)


@PROPERTY
@given(pieces("key", "_k", "a-b", ":", " ", "\t", "-", "x", "'q'", "#", max_size=12))
def test_front_matter_lines_read_as_before(line: str) -> None:
    pair, old_pair = markdown._YAML_PAIR.match(line), OLD_YAML_PAIR.match(line)
    assert (pair is None) == (old_pair is None)
    if pair and old_pair:
        assert (pair.group(1), line[pair.end() :].rstrip(" \t")) == old_pair.groups()
    item, old_item = markdown._YAML_ITEM.match(line), OLD_YAML_ITEM.match(line)
    assert (item is None) == (old_item is None)
    if item and old_item:
        was = old_item.group(1) or old_item.group(2) or ""
        assert line[item.end() :].rstrip(" \t") == was


FIELD_LINE = st.builds(
    "".join,
    st.tuples(
        st.sampled_from(["", "- ", "* ", "  ", "**", "\t- __"]),
        st.sampled_from(["Status", "status", "Date", "Decision date", "Date of decision"]),
        st.sampled_from(["", ":", " :", "**:", ":**", " ", "  : ** "]),
        pieces(" ", "\t", "x", "2020", "**", "\x0c", max_size=6),
        st.sampled_from(["", " ", "\t ", "  x", "\x0c"]),
    ),
)
FIELDS = st.lists(st.one_of(FIELD_LINE, st.sampled_from(["", "x", " "])), max_size=4).map("\n".join)


@PROPERTY
@given(FIELDS)
@example("Status: x  ")
@example("- **Date:**    \n")
def test_field_lines_give_the_same_values(text: str) -> None:
    pairs = ((formats._STATUS_FIELD, OLD_STATUS_FIELD), (formats._DATE_FIELD, OLD_DATE_FIELD))
    for new, old in pairs:
        spans = [(m.start("value"), m.end("value")) for m in new.finditer(text)]
        assert spans == [(m.start("value"), m.end("value")) for m in old.finditer(text)]


@PROPERTY
@given(pieces("<", "</", "a", "Z", "1", ">", "\n", " ", "/", "<b", "x>"))
def test_tags_are_the_old_expression_s(text: str) -> None:
    assert markdown._TAG.sub(markdown._tag_space, text) == OLD_TAG.sub(" ", text)


@PROPERTY
@given(pieces("<", "http", "https", "mailto", ":", "//", ">", " ", "\n", "x", "<http://", "<x:"))
@example("<http:a:>")  # a link ending in a colon is a link
@example("<http:> <mailto:>")  # and one with nothing after its scheme is none
def test_autolinks_are_the_old_expressions(text: str) -> None:
    unwrapped = markdown._AUTOLINK.sub(markdown._autolink_text, text)
    assert unwrapped == OLD_AUTOLINK.sub(lambda m: m.group(1), text)
    targets = [t for t in references._targets(text) if t[2].startswith("http")]
    old = [(m.start(), m.end(), m.group(1)) for m in OLD_REF_AUTOLINK.finditer(text)]
    assert [t for t in targets if text[t[0]] == "<"] == old


LINK = st.builds(
    "".join,
    st.tuples(
        st.sampled_from(["[a]", "![a]", "[[b] c]", "[", "x [a]"]),
        st.sampled_from(["(", "( ", "(  \n", ""]),
        st.sampled_from(["", "<0001-x.md>", "0001-x.md", "a(b)", '"q', "<"]),
        st.sampled_from(["", " ", '"t t"', ' "t t"', ' "t', "\t"]),
        st.sampled_from([")", " )", "", "x)"]),
    ),
)


@PROPERTY
@given(
    st.one_of(
        st.lists(LINK, max_size=3).map(" ".join),
        pieces("[", "]", "(", ")", "!", " ", "\n", '"', "a", "<", ">", "0001-x.md", "t t", "  "),
    )
)
@example('[a]( "t t")')  # an empty target and a title: found by giving a space back
def test_inline_links_are_the_old_expression_s(text: str) -> None:
    def found(pattern: re.Pattern[str]) -> list[tuple[tuple[int, int], str, str]]:
        return [(m.span(), m.group(1), m.group(2) or "") for m in pattern.finditer(text)]

    assert found(references._INLINE_LINK) == found(OLD_INLINE_LINK)


NOT_WORDS = pieces(" ", ",", "&", "-", "\n", "(", max_size=6)


@PROPERTY
@given(
    st.one_of(
        st.builds(
            lambda a, word, b: a + word + b,
            NOT_WORDS,
            st.sampled_from(["and", "OR", "as well as", "AS  Well\tas", "plus", "x", "_", ""]),
            NOT_WORDS,
        ),
        pieces(" ", ",", "&", "and", "AND", "or", "as", "well", "plus", "x", "-", "\n", "_"),
    )
)
def test_what_joins_a_list_is_what_the_old_expression_took(text: str) -> None:
    assert references._coordinated(text) == bool(OLD_COORDINATED.match(text))


STRUCK = pieces(
    "~~", "~", "<s>", "<S>", "</s>", "</s >", "<del>", "</DEL>", "<strike x>", "</strike>",
    "<s", ">", " ", "\n", "a", "<", "</",
)  # fmt: skip


@PROPERTY
@given(STRUCK)
def test_struck_text_is_the_old_expression_s(text: str) -> None:
    assert list(status._struck_spans(text)) == [m.span() for m in OLD_STRUCK.finditer(text)]


@PROPERTY
@given(pieces("{", "}", "x", " ", "title", "number", ".", "[short title", "Title"))
def test_template_titles_are_the_old_expression_s(title: str) -> None:
    assert bool(reader._TEMPLATE_TITLE.search(title)) == bool(OLD_TEMPLATE_TITLE.search(title))


WORDS = st.lists(
    st.sampled_from(
        ["move", "moved", "migrate", "migration", "from", "away", "off", "of", "with", "to",
         "for", "as", "the", "our", "x", "y", "switch", "by", "in", "favour", "Replace"]
    ),
    max_size=14,
).map(" ".join)  # fmt: skip


@PROPERTY
@given(WORDS)
def test_title_patterns_read_as_before(title: str) -> None:
    scope, patterns = titles._compiled()
    new, old = patterns[2].search(title), OLD_MOVED_FROM.search(title)
    assert (new and new.group("old"), new and new.end("old")) == (
        old and old.group("old"),
        old and old.end("old"),
    )
    new, old = scope.search(title), OLD_SCOPE.search(title)
    assert (new and new.group("scope")) == (old and old.group("scope"))


DOCS = st.lists(
    st.sampled_from(["# T", "## A", "### B", "## C", "#### D", "text", "", "# E", "## F"]),
    max_size=14,
).map("\n".join)


def _old_section_name(doc: markdown.MarkdownDoc, pos: int) -> str:
    name = ""
    for section in doc.sections:
        if section.start <= pos < section.end:
            name = section.heading
    return markdown.strip_markdown(name)


@PROPERTY
@given(DOCS)
def test_the_section_of_a_position_is_found_as_before(text: str) -> None:
    doc = parse_markdown(text)
    names = references._SectionNames(doc.sections)
    for pos in range(len(doc.text) + 1):
        assert names.at(pos) == _old_section_name(doc, pos)
    shuffled = references._SectionNames(doc.sections[::-1])  # out of order: read one by one
    reversed_doc = markdown.MarkdownDoc(doc.text, {}, None, 0, doc.sections[::-1])
    for pos in range(len(doc.text) + 1):
        assert shuffled.at(pos) == _old_section_name(reversed_doc, pos)


@PROPERTY
@given(
    DOCS,
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=5),
)
def test_blocks_in_status_spans_are_status_blocks_as_before(
    text: str, spans: list[tuple[int, int]]
) -> None:
    doc = parse_markdown(text)
    kinds = [(b.start, b.kind) for b in references._blocks_of(doc, spans, "")]
    assert kinds == [
        (start, "status" if any(s <= start < e for s, e in spans) else "body")
        for start, _ in markdown.blocks(doc.text)
    ]


def _paragraph_end(text: str, m: re.Match[str]) -> int:
    end = text.find("\n\n", m.end())
    return end if end >= 0 else len(text)


@PROPERTY
@given(pieces("Decision: ", "**Decision:** ", "x", "\n", "\n\n", " ", max_size=16))
def test_inline_decisions_read_as_before_unless_one_paragraph_holds_two(text: str) -> None:
    doc = parse_markdown(text)
    found = list(formats._INLINE_DECISION.finditer(doc.text))
    old = [doc.text[m.end() : _paragraph_end(doc.text, m)].strip() for m in found]
    if not any(n.start() < _paragraph_end(doc.text, m) for m, n in pairwise(found)):
        assert formats._inline_decisions(doc) == "\n\n".join(f for f in old if f)


def test_two_decision_lines_in_one_paragraph_are_taken_once() -> None:
    doc = parse_markdown("# T\n\n**Decision:** Use A.\n**Decision:** Use B.\n\nDecision: Use C.\n")
    assert formats._inline_decisions(doc) == "Use A.\n**Decision:** Use B.\n\nUse C."


def test_ahead_answers_again_when_asked_from_further_back() -> None:
    ahead = Ahead("a>b>c", re.compile(">"))
    assert [ahead.at(0), ahead.at(2), ahead.at(4), ahead.at(0)] == [1, 3, 5, 1]
    assert ahead.at(2) == 3 and ahead.next(5) is None and ahead.at(5) == 5
