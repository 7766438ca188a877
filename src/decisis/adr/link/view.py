"""One graph's records as answering needs them, built once per ledger head and cached.

Reading every record node and building the term index costs milliseconds for a
hundred records and seconds for fifty thousand; a question costs far less. So the
view is kept per (store, graph) and rebuilt only when the ledger head moves, from the
view it replaces: the ledger says which nodes changed since (a correction adds a question
and judges links), so only those are read again, and only records whose text changed are
re-indexed (see ``docs/benchmarks.md`` for the costs).
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from decisis.adr.link.ingest import adr_links, is_record_node, is_rule_link, record_nodes
from decisis.adr.link.rules import Trust
from decisis.adr.link.trust import trust_from
from decisis.adr.read.chronology import written_at
from decisis.errors import NotFound
from decisis.graph import Graph
from decisis.model import Edge, Event, EventKind, Node, NodeType
from decisis.search.kept import decode_weighed, digest_of, encode_weighed, kept, space_of
from decisis.search.terms import TermIndex, Weighed, weigh
from decisis.stores.fold import GraphState, apply

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
    # The graph it was read from, whose store keeps derived data between processes.
    graph: Graph | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        for edge in self.links:
            old = self.key_of.get(edge.target)
            if old is not None:
                self.successors.setdefault(old, []).append(edge)

    def order(self, key: str) -> tuple[int, int, str]:
        """Sort key putting the newest record first (``decisis.adr.read.chronology``)."""
        when = self.cache.get("written-at")
        if when is None:
            when = self.cache["written-at"] = written_at(
                (k, str(n.metadata.get("folder") or ""), _number(n), _date(n))
                for k, n in self.records.items()
            )
        date, number = when.get(key, (dt.date.min, -1))
        return (-date.toordinal(), -number, _invert(key))

    def meta(self, key: str) -> dict[str, Any]:
        return self.records[key].metadata

    def text_of(self, key: str) -> str:
        """Record ``key``'s title and text, as its file has them."""
        node = self.records[key]
        return f"{node.label}\n{node.metadata.get('text') or ''}"


def _number(node: Node) -> int | None:
    number = node.metadata.get("number")
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _date(node: Node) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(node.metadata.get("date") or ""))
    except ValueError:
        return None


def _invert(text: str) -> str:
    return "".join(chr(0x10FFFF - ord(c)) for c in text)


# A record's "Date: 2019-06-01" line is metadata (``decisis.adr.read.dates`` reads it): left in
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


def _is_question(node: Node) -> bool:
    return node.type is NodeType.OBSERVATION and node.metadata.get("kind") == QUESTION_KIND


def _questions(graph: Graph) -> list[Node]:
    return [n for n in graph.nodes(types=[NodeType.OBSERVATION]) if _is_question(n)]


# Past this many changed nodes or links, reading them one by one costs more than reading all.
PATCH_LIMIT = 500


@dataclass
class _Changes:
    """What the ledger changed after a view's head: the nodes and links its events name,
    each rule's trust as it moved (in order), and whether the links must be read in full
    (a tombstoned node hides its links without naming them)."""

    nodes: set[str] = field(default_factory=set)
    edges: set[str] = field(default_factory=set)
    trusted: list[dict[str, Any]] = field(default_factory=list)  # rule.trusted payloads
    all_links: bool = False
    unknown: bool = False

    def note(self, event: Event) -> None:
        kind, payload = event.kind, event.payload
        if kind in (EventKind.NODE_ADDED, EventKind.EDGE_ADDED):
            record = payload["node" if kind is EventKind.NODE_ADDED else "edge"]
            (self.nodes if kind is EventKind.NODE_ADDED else self.edges).add(record["id"])
        elif kind is EventKind.NODE_UPDATED:
            self.nodes.add(payload["id"])
        elif kind is EventKind.EDGE_UPDATED:
            self.edges.add(payload["id"])
        elif kind is EventKind.SUPERSEDED:
            self.nodes.update((payload["old"], payload["new"]))
            self.edges.add(payload["edge"]["id"])
        elif kind is EventKind.TOMBSTONED:
            (self.edges if payload["target"] == "edge" else self.nodes).add(payload["id"])
            self.all_links |= payload["target"] != "edge"
        elif kind is EventKind.RULE_TRUSTED:
            self.trusted.append(payload)
        else:  # a kind of change this reading does not know: read everything
            self.unknown = True


def _changes_since(graph: Graph, head: tuple[int, str]) -> _Changes | None:
    """What the events after ``head`` changed, or ``None`` when too many nodes changed to
    read them one by one, or the ledger does not go on from ``head`` (a store made anew)."""
    changes = _Changes()
    seq, checksum = head
    for event in graph.store.events(graph.name, after_seq=seq):
        if event.seq == seq + 1 and event.prev_checksum != checksum:
            return None
        changes.note(event)
        if changes.unknown or len(changes.nodes) > PATCH_LIMIT:
            return None
    changes.all_links |= len(changes.edges) > PATCH_LIMIT
    return changes


def _live_link(graph: Graph, edge_id: str) -> Edge | None:
    """Link ``edge_id`` as ``adr_links`` would read it: a live rule's supersedes edge between
    live nodes, else ``None``."""
    try:
        edge = graph.store.get_edge(graph.name, edge_id)
        ends = [graph.store.get_node(graph.name, i) for i in (edge.source, edge.target)]
    except NotFound:
        return None
    if not is_rule_link(edge) or edge.tombstoned or any(node.tombstoned for node in ends):
        return None
    return edge


def _patched_links(graph: Graph, previous: AdrView, changes: _Changes) -> list[Edge]:
    """``previous``'s links with the rules' new trust carried to the candidates nobody
    judged (by the stores' own fold of ``rule.trusted``) and the links the events name read
    again, in ``adr_links``'s order (by edge id); ``previous.links`` itself when the events
    name none."""
    if not changes.trusted and not changes.edges:
        return previous.links
    state = GraphState(edges={edge.id: edge for edge in previous.links})
    for payload in changes.trusted:
        apply(state, EventKind.RULE_TRUSTED, payload)
    links = state.edges
    for edge_id in changes.edges:
        links.pop(edge_id, None)
        found = _live_link(graph, edge_id)
        if found is not None:
            links[edge_id] = found
    return [links[i] for i in sorted(links)]


def _patched(
    graph: Graph, previous: AdrView, touched: set[str]
) -> tuple[dict[str, Node], list[Node]]:
    """``previous``'s records and questions with the ``touched`` nodes read again: what
    ``record_nodes`` and ``_questions`` would read, in their order (by node id)."""
    records = {node.id: node for node in previous.records.values()}
    questions = {node.id: node for node in previous.questions}
    for node_id in touched:
        records.pop(node_id, None)
        questions.pop(node_id, None)
        try:
            node = graph.store.get_node(graph.name, node_id)
        except NotFound:  # an edge's id, or a node of another kind of change
            continue
        if node.tombstoned:
            continue
        if is_record_node(node):
            records[node.id] = node
        elif _is_question(node):
            questions[node.id] = node
    by_key: dict[str, Node] = {}
    for node_id in sorted(records):
        node = records[node_id]
        by_key[node.metadata["key"]] = node  # as a full read: the last of a key wins
    return by_key, [questions[i] for i in sorted(questions)]


_Made = tuple[Node, list[str], dict[str, str]]  # a record's node, its questions, its fields


def _docs(
    records: dict[str, Node], asked: dict[str, list[str]], previous: AdrView | None
) -> tuple[list[tuple[str, dict[str, str]]], dict[str, _Made]]:
    """Each record's fields to index, and what they were made from. A record read before,
    with the same questions, keeps the fields made for it then: the same strings, which
    ``TermIndex.rebuilt`` compares at once."""
    made: dict[str, _Made] = {}
    kept = previous.cache.get("fields", {}) if previous is not None else {}
    docs = []
    for key, node in records.items():
        mine = asked.get(key, [])
        before = kept.get(key)
        if before is not None and before[0] is node and before[1] == mine:
            fields = before[2]
        else:
            fields = _fields(node, mine)
        made[key] = (node, mine, fields)
        docs.append((key, fields))
    return docs, made


RECORD_TERMS = "adr-record-terms"  # the store space of the records' term weights


def _kept_weights(graph: Graph, docs: list[tuple[str, dict[str, str]]]) -> dict[str, Weighed]:
    """Each record's term weights, as kept in the store (``decisis.search.kept``) for
    fields like these, or worked out now and kept for the next process."""
    fields = dict(docs)
    return kept(
        graph,
        space_of(RECORD_TERMS),
        {key: digest_of([x for kv in f.items() for x in kv]) for key, f in docs},
        lambda key: weigh(fields[key]),
        encode_weighed,
        decode_weighed,
    )


def build_view(graph: Graph, previous: AdrView | None = None) -> AdrView:
    """Read the records, links and remembered questions of ``graph`` and index them.

    With ``previous``, a view of the same graph at an earlier head, only what the ledger
    changed since is read again (``_changes_since``), and its term indexes are the
    starting point (``TermIndex.rebuilt``): only records whose text changed, or that are
    new, are indexed again. The result is the same as without it.
    """
    head = graph.store.head(graph.name)
    changes = None
    if previous is not None and head[0] > previous.head[0]:
        changes = _changes_since(graph, previous.head)
    if previous is not None and changes is not None:
        records, questions = _patched(graph, previous, changes.nodes)
    else:
        records, questions = record_nodes(graph), _questions(graph)
    docs, made = _docs(records, _asked(questions), previous)
    asks = [(q.id, {"title": q.label}) for q in questions]
    if previous is not None and changes is not None and not changes.all_links:
        links = _patched_links(graph, previous, changes)
    else:
        links = adr_links(graph)  # read once: on a large store, each read is seconds
    # rule_trust without reading the links again, or the previous view's for the same links
    trust = previous.trust if previous and links is previous.links else trust_from(links)
    view = AdrView(
        head=head,
        records=records,
        key_of={node.id: key for key, node in records.items()},
        index=(
            previous.index.rebuilt(docs)
            if previous
            else TermIndex.build(  # "Open Policy Agent" for OPA
                docs, spell_out_titles=True, weighed=_kept_weights(graph, docs)
            )
        ),
        links=links,
        trust=trust,
        questions=questions,
        question_index=(
            previous.question_index.rebuilt(asks) if previous else TermIndex.build(asks)
        ),
        graph=graph,
    )
    view.cache["fields"] = made
    return view


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
