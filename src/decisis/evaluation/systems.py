"""The four systems an evaluation compares, behind one small interface.

(a) ``fulltext``: the store's full-text search, top hit, the record pasted whole.
(b) ``no-graph``: decisis's own start points, then each record's "superseded by" note
    chased in a dictionary, plus a memory of corrected questions: a strong baseline
    that has everything but the graph of proposed links and their trust.
(c) ``decisis-static``: decisis with learning off.
(d) ``decisis``: decisis learning from each correction.
(e) ``vectors``: the default embedder's closest record by cosine, no graph, never abstaining:
    plain vector search, as agent memories built on an embedding store answer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from decisis.adr import (
    DEFAULT_SETTINGS,
    AnswerSettings,
    ask,
    closest_records,
    correct,
    count_tokens,
    view_of,
)
from decisis.evaluation.questions import Question
from decisis.graph import Graph
from decisis.model import EdgeType, LinkState
from decisis.search.fulltext import fulltext_rank
from decisis.search.terms import TermIndex

__all__ = ["Decisis", "FullTextTop", "NoGraph", "System", "VectorTop"]


class System(Protocol):
    name: str

    def ask(self, text: str) -> tuple[str | None, int]:
        """The key answered (or ``None``) and the answer's length in tokens."""
        ...

    def learn(self, question: Question) -> None: ...


class FullTextTop:
    name = "fulltext"

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def ask(self, text: str) -> tuple[str | None, int]:
        view = view_of(self.graph)
        for node_id in fulltext_rank(self.graph, text, 5):
            key = view.key_of.get(node_id)
            if key is not None:
                return key, count_tokens(view.text_of(key))
        return None, 0

    def learn(self, question: Question) -> None:
        return None


class VectorTop:
    name = "vectors"

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def ask(self, text: str) -> tuple[str | None, int]:
        found = closest_records(self.graph, text, 1)
        if not found:
            return None, 0
        key = found[0][0]
        view = view_of(self.graph)
        node = view.records[key]
        return key, count_tokens(f"{key} {node.label}: {view.meta(key).get('summary') or ''}")

    def learn(self, question: Question) -> None:
        return None


class NoGraph:
    """Start points, a dictionary of stated replacements, and remembered corrections."""

    name = "no-graph"

    def __init__(self, graph: Graph, settings: AnswerSettings = DEFAULT_SETTINGS) -> None:
        self.graph = graph
        self.settings = settings
        self.memory: list[tuple[str, str | None]] = []
        self.index = TermIndex.build([])
        view = view_of(graph)
        self.replaced_by: dict[str, str] = {}
        for edge in graph.edges(types=[EdgeType.SUPERSEDES]):
            if edge.state is LinkState.STATED and edge.metadata.get("rule") == "status-line":
                old, new = view.key_of.get(edge.target), view.key_of.get(edge.source)
                if old and new:
                    self.replaced_by[old] = new

    def _remembered(self, text: str) -> tuple[bool, str | None]:
        hits = self.index.search(text, limit=1)
        if hits and hits[0].coverage >= self.settings.question_match:
            return True, self.memory[self.index.positions[hits[0].doc]][1]
        return False, None

    def ask(self, text: str) -> tuple[str | None, int]:
        found, key = self._remembered(text)
        view = view_of(self.graph)
        if not found:
            # decisis's own starts and abstention, without its memory of corrections
            own = replace(self.settings, remember=False)
            key = ask(self.graph, text, own, follow_links=False).answer
            seen = set()
            while key is not None and key in self.replaced_by and key not in seen:
                seen.add(key)
                key = self.replaced_by[key]
        if key is None:
            return None, count_tokens("No decision on record answers this.")
        node = view.records[key]
        return key, count_tokens(f"{key} {node.label}: {view.meta(key).get('summary') or ''}")

    def learn(self, question: Question) -> None:
        self.memory.append((question.question, question.expected))
        self.index = TermIndex.build((str(i), {"title": q}) for i, (q, _) in enumerate(self.memory))


class Decisis:
    def __init__(
        self, graph: Graph, *, learning: bool, settings: AnswerSettings = DEFAULT_SETTINGS
    ) -> None:
        self.graph = graph
        self.learning = learning
        self.settings = settings
        self.name = "decisis" if learning else "decisis-static"

    def ask(self, text: str) -> tuple[str | None, int]:
        answer = ask(self.graph, text, self.settings)
        return answer.answer, answer.tokens

    def learn(self, question: Question) -> None:
        if self.learning:
            correct(self.graph, question.question, question.expected, self.settings)
