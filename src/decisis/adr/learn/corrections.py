"""Learning from corrections: "the answer to this question is KEY" (or "no record").

One correction is one ``append`` (one transaction, auditable in the ledger):

* the question is stored as a node (``metadata.kind = "adr-question"``) joined to the
  record it resolves to, so the next question on the topic in other words starts there;
* links on the right path from where the question started to KEY are confirmed, but
  only where the two records are related (shared distinctive terms, similar text, or
  a link a record states); where a record states the pair, only the stated link is
  confirmed (the rules that proposed the same pair beside it earn no credit for what
  was never in doubt); candidate links the wrong answer walked are rejected, stated ones
  never (a record saying it was superseded is not undone by one question: the question
  was about a part that another record took over);
* KEY stands for this question, so a rule's candidate saying a record the question also
  matches (``AnswerSettings.relevance_min``) replaced KEY is rejected too (not an
  amendment, which leaves part of KEY standing). Without this a rule would only ever
  gain trust: its links below the walking threshold are never walked, so never
  rejected, while corrections keep confirming the right ones, until every candidate
  of the rule is walked, on every topic;
* the question's terms and vector are kept beside its node as derived data
  (``decisis.adr.answer.memory``), so a later question sharing its rare terms or its
  meaning finds KEY (the learned features answering weighs);
* when no link leads from the start to KEY, a ``correction`` link is proposed; it stays
  a candidate until a second correction agrees, then it is confirmed;
* a rule's trust is its prior plus its judged links (``decisis.adr.link.trust``), so judging
  links moves it: one ``rule.trusted`` event per rule whose trust moved, in the same
  append, carries the new trust to every link of that rule nobody has judged yet (the
  store moves them all at once, not one event per link).

``undo`` reverses the latest correction of a question: judged links get their earlier
state back, a link it proposed and the question node are tombstoned (and its terms and
vector forgotten), and the trust the correction moved moves back, again in one append.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from decisis.adr.answer import (
    DEFAULT_SETTINGS,
    Answer,
    AnswerSettings,
    check_question,
    consider,
    decide,
)
from decisis.adr.answer.memory import forget_question, keep_question
from decisis.adr.link.ingest import adr_links
from decisis.adr.link.trust import CORRECTION_RULE, links_after, trust_moves
from decisis.adr.link.view import QUESTION_KIND, AdrView, view_of
from decisis.errors import NotFound
from decisis.graph import Graph, written_once
from decisis.model import (
    Edge,
    EdgeType,
    EventDraft,
    LinkState,
    Node,
    NodeStatus,
    NodeType,
    new_id,
    utc_now,
)
from decisis.model import events as drafts

__all__ = ["RELATED_MIN", "Correction", "correct", "undo"]

RELATED_MIN = 0.05  # cosine of distinctive terms above which two records are related
RELATED_SHARED = 2  # ... or this many of their most distinctive terms in common
_JUDGEABLE = (LinkState.STATED, LinkState.CANDIDATE)


@dataclass
class Correction:
    """What one correction did (keys and edge ids), for people and for ``undo``."""

    question: str
    key: str | None
    was: str | None
    node: str = ""
    confirmed: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    proposed: list[str] = field(default_factory=list)
    # filled by ``undo``: each link put back (edge id, the state undone, the state restored),
    # and the links the correction had proposed, withdrawn
    restored: list[tuple[str, str, str]] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "key": self.key,
            "was": self.was,
            "node": self.node,
            "confirmed": self.confirmed,
            "rejected": self.rejected,
            "proposed": self.proposed,
            "restored": [{"edge": e, "from": a, "to": b} for e, a, b in self.restored],
            "withdrawn": self.withdrawn,
        }


def related(view: AdrView, a: str, b: str) -> bool:
    """Whether two records share enough to be about the same question."""
    stated = any(
        {view.key_of.get(e.source), view.key_of.get(e.target)} == {a, b} for e in view.links
    )
    sa, sb = view.index.slot(a), view.index.slot(b)
    if stated or sa is None or sb is None:
        return stated
    shared = len(view.index.shared_terms(sa, sb, limit=RELATED_SHARED))
    return shared >= RELATED_SHARED or view.index.similarity(sa, sb) >= RELATED_MIN


def _path(view: AdrView, start: str, goal: str) -> list[Edge] | None:
    """Links (not rejected) from ``start`` to ``goal`` along successors, shortest first."""
    frontier: list[tuple[str, list[Edge]]] = [(start, [])]
    seen = {start}
    while frontier:
        nxt: list[tuple[str, list[Edge]]] = []
        for key, path in frontier:
            for edge in view.successors.get(key, ()):
                new = view.key_of.get(edge.source)
                if new is None or edge.state is LinkState.REJECTED or new in seen:
                    continue
                if new == goal:
                    return [*path, edge]
                seen.add(new)
                nxt.append((new, [*path, edge]))
        frontier = nxt
    return None


def _walked_edges(view: AdrView, chain: list[str]) -> list[tuple[str, str, list[Edge]]]:
    """For each hop of a chain, the links joining its two records."""
    hops = []
    for old, new in itertools.pairwise(chain):
        edges = [e for e in view.successors.get(old, ()) if view.key_of.get(e.source) == new]
        hops.append((old, new, edges))
    return hops


def _right_path(view: AdrView, answer: Answer, key: str) -> list[Edge]:
    """The links from where the question started to ``key``: along the walked chain when
    it passed ``key``, else the shortest chain of links that are not rejected."""
    if key in answer.chain:
        cut = answer.chain.index(key)
        return [e for _, _, es in _walked_edges(view, answer.chain[: cut + 1]) for e in es]
    start = answer.chain[0] if answer.chain else None
    if start is None or start == key:
        return []
    return _path(view, start, key) or []


def _judge(
    view: AdrView,
    answer: Answer,
    key: str,
    at: Any,
    result: Correction,
    relevance: dict[str, float] | None = None,
    relevance_min: float = DEFAULT_SETTINGS.relevance_min,
) -> tuple[list[EventDraft], dict[str, str]]:
    """Drafts confirming the right path and rejecting wrong hops; the states they replace."""
    out: list[EventDraft] = []
    before: dict[str, str] = {}

    def set_state(edge: Edge, state: LinkState) -> None:
        if edge.id in before or edge.state not in _JUDGEABLE:
            return
        if state is LinkState.REJECTED and edge.state is LinkState.STATED:
            # a replacement a record states is not undone by one question: the question
            # was about a part another record took over (a split), not a wrong link
            return
        before[edge.id] = edge.state.value
        confidence = 1.0 if state is LinkState.CONFIRMED else 0.0
        out.append(drafts.edge_updated(edge.id, {"state": state, "confidence": confidence}, at))
        (result.confirmed if state is LinkState.CONFIRMED else result.rejected).append(edge.id)

    right = _right_path(view, answer, key)
    # A pair a record states (status line) was never in doubt: confirming it credits the
    # stated link, not the rules that merely proposed the same pair beside it.
    stated = {(e.source, e.target) for e in right if e.state is LinkState.STATED}
    for edge in right:
        old, new = view.key_of.get(edge.target), view.key_of.get(edge.source)
        if edge.state is not LinkState.STATED and (edge.source, edge.target) in stated:
            continue
        if old is not None and new is not None and related(view, old, new):
            set_state(edge, LinkState.CONFIRMED)
    on_path = {e.id for e in right}
    for _, _, edges in _walked_edges(view, answer.chain):
        for edge in edges:
            if edge.id not in on_path:
                set_state(edge, LinkState.REJECTED)
    for edge in view.successors.get(key, ()):
        new = view.key_of.get(edge.source)
        if (
            edge.state is LinkState.CANDIDATE
            and not edge.metadata.get("partial")
            and new is not None
            and (relevance or {}).get(new, 0.0) >= relevance_min
        ):
            set_state(edge, LinkState.REJECTED)
    return out, before


def _propose(
    view: AdrView, start: str | None, key: str, at: Any, result: Correction
) -> list[EventDraft]:
    """A ``correction`` link start -> key when nothing leads there and the two are related
    records of one folder."""
    if start is None or start == key or not related(view, start, key):
        return []
    if view.meta(start).get("folder") != view.meta(key).get("folder"):
        return []  # one team's record does not replace another's: the start was wrong
    if view.order(key) > view.order(start):  # key is older than start: not a replacement
        return []
    for edge in view.successors.get(start, ()):
        if view.key_of.get(edge.source) == key and edge.metadata.get("rule") == CORRECTION_RULE:
            if edge.state is LinkState.CANDIDATE:  # a second correction agrees
                result.confirmed.append(edge.id)
                changes = {"state": LinkState.CONFIRMED, "confidence": 1.0}
                return [drafts.edge_updated(edge.id, changes, at)]
            return []
    if _path(view, start, key) is not None:
        return []
    edge = Edge(
        id=new_id(),
        type=EdgeType.SUPERSEDES,
        source=view.records[key].id,
        target=view.records[start].id,
        recorded_at=at,
        updated_at=at,
        valid_from=at,
        state=LinkState.CANDIDATE,
        confidence=round(view.trust[CORRECTION_RULE].mean, 6),
        rationale=f"a correction said questions starting at {start} are answered by {key}",
        metadata={"rule": CORRECTION_RULE, "old": start, "new": key, "partial": False},
    )
    result.proposed.append(edge.id)
    return [drafts.edge_added(edge, at)]


def _retrust(links: list[Edge], changes: list[EventDraft], at: Any) -> list[EventDraft]:
    """``rule.trusted`` drafts for the rules ``changes`` move, to append after them."""
    return [
        drafts.rule_trusted(rule, t.successes, t.failures, round(t.mean, 6), at)
        for rule, t in trust_moves(links, links_after(links, changes))
    ]


def correct(
    graph: Graph, question: str, key: str | None, settings: AnswerSettings = DEFAULT_SETTINGS
) -> Correction:
    """Record that ``question`` is answered by record ``key`` (``None``: by no record); what
    it judges is the answer ``settings`` gives.

    The judgement is worked out from the graph as read and lands only if nobody wrote in
    between, else it is worked out again (``written_once``): two corrections at once each
    move their rules' trust from what the other left."""
    check_question(question)
    result = written_once(lambda: _correct(graph, question, key, settings), graph)
    if key is not None:  # what the next question is compared with, kept beside the node
        keep_question(graph, result.node, " ".join(question.split())[:500])
    return result


def _correct(graph: Graph, question: str, key: str | None, settings: AnswerSettings) -> Correction:
    view = view_of(graph)
    if key is not None and key not in view.records:
        raise NotFound("record", key, graph.name)
    found = consider(graph, view, question, settings) if view.records else None
    answer = decide(view, found, settings, graph=graph) if found else None
    if answer is None:
        raise NotFound("record", str(key), graph.name)
    at = utc_now()
    result = Correction(question, key, answer.answer)
    changes: list[EventDraft] = []
    before: dict[str, str] = {}
    if key is not None and found is not None:
        changes, before = _judge(
            view, answer, key, at, result, found.relevance, settings.relevance_min
        )
        agreed = len(result.confirmed)
        # where the question started, also when it abstained there (its start too far in
        # meaning): the next question like it starts there again
        ranked = found.ranked(settings)
        start = answer.start or (ranked[0][0] if ranked else None)
        changes += _propose(view, start, key, at, result)
        before |= {edge_id: LinkState.CANDIDATE.value for edge_id in result.confirmed[agreed:]}
    node = _question_node(question, key, answer, result, before, at)
    result.node = node.id
    changes.insert(0, drafts.node_added(node, at))
    if key is not None:
        link = Edge(
            id=new_id(),
            type=EdgeType.LEADS_TO,
            source=node.id,
            target=view.records[key].id,
            recorded_at=at,
            updated_at=at,
            valid_from=at,
            metadata={"relation": "resolved_to"},
        )
        changes.append(drafts.edge_added(link, at))
    graph.store.append(
        graph.name, changes + _retrust(view.links, changes, at), after_seq=view.head[0]
    )
    return result


def _question_node(
    question: str,
    key: str | None,
    answer: Answer,
    result: Correction,
    before: dict[str, str],
    at: Any,
) -> Node:
    return Node(
        id=new_id(),
        type=NodeType.OBSERVATION,
        label=" ".join(question.split())[:500],
        status=NodeStatus.ACTIVE,
        recorded_at=at,
        updated_at=at,
        valid_from=at,
        rationale=f"corrected to {key or 'no record'} (was {answer.answer or 'no record'})",
        metadata={
            "kind": QUESTION_KIND,
            "answer": key,
            "was": answer.answer,
            "chain": answer.chain,
            "before": before,
            "proposed": result.proposed,
        },
    )


def _latest_question(graph: Graph, question: str) -> Node:
    wanted = " ".join(question.split())[:500]
    found = [
        n
        for n in graph.nodes(types=[NodeType.OBSERVATION])
        if n.metadata.get("kind") == QUESTION_KIND and n.label == wanted
    ]
    if not found:
        raise NotFound("correction", wanted, graph.name)
    return found[-1]


def undo(graph: Graph, question: str) -> Correction:
    """Reverse the latest correction of ``question`` (read again if another writer moved
    the graph meanwhile, as ``correct``)."""
    result = written_once(lambda: _undo(graph, question), graph)
    forget_question(graph, result.node)
    return result


def _undo(graph: Graph, question: str) -> Correction:
    head = graph.store.head(graph.name)[0]  # before the reads the drafts come from
    node = _latest_question(graph, question)
    at = utc_now()
    meta = node.metadata
    result = Correction(question, meta.get("answer"), meta.get("was"), node.id)
    changes: list[EventDraft] = []
    for edge_id, state in dict(meta.get("before") or {}).items():
        changes.append(drafts.edge_updated(edge_id, {"state": state}, at))
        undone = graph.store.get_edge(graph.name, edge_id).state.value
        result.restored.append((edge_id, undone, str(state)))
    for edge_id in _live(graph, meta.get("proposed") or []):
        changes.append(
            drafts.tombstoned(edge_id, "edge", "the correction that proposed it was undone", at)
        )
        result.withdrawn.append(edge_id)
    changes.append(drafts.tombstoned(node.id, "node", "correction undone", at))
    graph.store.append(
        graph.name, changes + _retrust(adr_links(graph), changes, at), after_seq=head
    )
    return result


def _live(graph: Graph, ids: Iterable[str]) -> list[str]:
    out = []
    for edge_id in ids:
        try:
            if not graph.store.get_edge(graph.name, edge_id).tombstoned:
                out.append(edge_id)
        except NotFound:
            continue
    return out
