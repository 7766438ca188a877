"""One graph's records as answering needs them, built once per ledger head and cached.

Reading every record node and building the term index costs milliseconds for a
hundred records and seconds for fifty thousand; a question costs far less. So the
view is kept per (store, graph) and rebuilt only when the ledger head moves, from the
view it replaces: a correction or an ingest of a few records re-indexes only the
records whose text changed (see ``docs/benchmarks.md`` for the costs).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from decisis.adr.ingest import adr_links, record_nodes
from decisis.adr.rules import Trust
from decisis.adr.trust import rule_trust
from decisis.graph import Graph
from decisis.model import Edge, Node, NodeType
from decisis.search.terms import TermIndex

__all__ = ["QUESTION_KIND", "AdrView", "build_view", "view_of"]

QUESTION_KIND = "adr-question"


@dataclass
class AdrView:
    """Records by key and node id, the term index over them, links and remembered questions."""

    head: tuple[int, str]
    records: dict[str, Node]
    key_of: dict[str, str]
    index: TermIndex
    links: list[Edge]
    trust: dict[str, Trust]
    questions: list[Node]
    question_index: TermIndex
    successors: dict[str, list[Edge]] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)  # derived data others keep here

    def __post_init__(self) -> None:
        for edge in self.links:
            old = self.key_of.get(edge.target)
            if old is not None:
                self.successors.setdefault(old, []).append(edge)

    def order(self, key: str) -> tuple[str, str]:
        """Sort key putting the newest record first."""
        meta = self.records[key].metadata
        date = str(meta.get("date") or "")
        return (_invert(date), _invert(key))

    def meta(self, key: str) -> dict[str, Any]:
        return self.records[key].metadata

    def text_of(self, key: str) -> str:
        """Record ``key``'s title and text, as its file has them."""
        node = self.records[key]
        return f"{node.label}\n{node.metadata.get('text') or ''}"


def _invert(text: str) -> str:
    return "".join(chr(0x10FFFF - ord(c)) for c in text)


# A record's "Date: 2019-06-01" line is metadata (``decisis.adr.dates`` reads it): left in
# the body, every record would hold the word "date" and a question about keeping things
# "up to date" could not tell the record about it from any other.
_DATE_LINE = re.compile(r"[ \t>*_-]*date[*_]*[ \t]*:", re.IGNORECASE)


def _without_date_lines(text: str) -> str:
    """``text`` with its date lines emptied, line by line: one multi-line pattern over the
    whole text tries every character, three times the cost on each view build."""
    lines = text.split("\n")
    return "\n".join("" if _DATE_LINE.match(line) else line for line in lines)


def _fields(node: Node, asked: list[str]) -> dict[str, str]:
    meta = node.metadata
    fields = {
        "title": node.label,
        "decision": node.rationale or "",
        "body": _without_date_lines(str(meta.get("text") or "")),
    }
    if asked:  # questions a correction resolved to this record: their words now find it
        fields["questions"] = "\n".join(asked)
    return fields


def _asked(questions: list[Node]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for q in questions:
        answer = q.metadata.get("answer")
        if isinstance(answer, str):
            out.setdefault(answer, []).append(q.label)
    return out


def _questions(graph: Graph) -> list[Node]:
    return [
        n
        for n in graph.nodes(types=[NodeType.OBSERVATION])
        if n.metadata.get("kind") == QUESTION_KIND
    ]


def build_view(graph: Graph, previous: AdrView | None = None) -> AdrView:
    """Read the records, links and remembered questions of ``graph`` and index them.

    With ``previous``, a view of the same graph at an earlier head, its term indexes are
    the starting point (``TermIndex.rebuilt``): only records whose text changed, or that
    are new, are read again. The result is the same as without it.
    """
    head = graph.store.head(graph.name)
    records = record_nodes(graph)
    questions = _questions(graph)
    asked = _asked(questions)
    docs = [(key, _fields(node, asked.get(key, []))) for key, node in records.items()]
    asks = [(q.id, {"title": q.label}) for q in questions]
    return AdrView(
        head=head,
        records=records,
        key_of={node.id: key for key, node in records.items()},
        index=previous.index.rebuilt(docs) if previous else TermIndex.build(docs),
        links=adr_links(graph),
        trust=rule_trust(graph),
        questions=questions,
        question_index=(
            previous.question_index.rebuilt(asks) if previous else TermIndex.build(asks)
        ),
    )


_CACHE: dict[tuple[int, str, str], AdrView] = {}
_LOCK = threading.Lock()
_CACHE_SIZE = 8


def view_of(graph: Graph) -> AdrView:
    """The cached view of ``graph``, rebuilt when its ledger has moved on."""
    if graph.as_of is not None:
        return build_view(graph)
    key = (id(graph.store), graph.store.url, graph.name)
    head = graph.store.head(graph.name)
    with _LOCK:
        cached = _CACHE.get(key)
    if cached is not None and cached.head == head:
        return cached
    view = build_view(graph, cached)
    with _LOCK:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = view
    return view
