"""A record's sections as passages, so that a long record is matched by the part a question
is about.

Some records decide many things at once: a cluster record with sections on node groups,
authentication, scaling and networking. Over the whole record BM25 dilutes a question
about one of them ("will worker nodes still be scaled by hand?") with the words of all
the others, while a short record on one subject keeps its full weight. Scoring each
record also by its best-matching section (passage-level evidence, as document retrieval
has long done for long documents) lets the part the question is about speak for it.

The passage index is a ``TermIndex`` over every section of level two or deeper of every
record (a record with no such section is one passage), each with the record's title.
It is built on the first question a view answers and kept by the records it was made
from, so the next view of the same records (a correction only adds a remembered question)
takes it over instead of building it again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from decisis.adr.link.view import AdrView
from decisis.adr.read.markdown import parse_markdown
from decisis.model import Node
from decisis.search.kept import decode_weighed, digest_of, encode_weighed, kept, space_of
from decisis.search.terms import TermIndex, Weighed, weigh

__all__ = ["best_passages", "passage_index"]

_SEPARATOR = "#"  # a passage's id: ``<record key>#<its number in the record>``
_KEPT = 4  # passage indexes kept for views to come, by the records they were made from
_BUILT: dict[tuple[tuple[str, str], ...], TermIndex] = {}
_LOCK = threading.Lock()


def _passages(node: Node) -> Iterator[str]:
    text = str(node.metadata.get("text") or "")
    sections = [s.text for s in parse_markdown(text).sections if s.level >= 2 and s.text.strip()]
    yield from sections or [text]


def _made_from(view: AdrView) -> tuple[tuple[str, str], ...]:
    """What a view's passages are made from: each record's key and content hash."""
    records = view.records.items()
    return tuple((key, str(node.metadata.get("content_hash"))) for key, node in records)


def passage_index(view: AdrView) -> TermIndex:
    """The index of ``view``'s record sections, kept on the view and, for the views that
    follow, by the records it was made from."""
    cached = view.cache.get("passages")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    made_from = _made_from(view)
    with _LOCK:
        index = _BUILT.get(made_from)
    if index is None:
        index = _build(view)
        with _LOCK:
            if len(_BUILT) >= _KEPT:
                _BUILT.pop(next(iter(_BUILT)))
            _BUILT[made_from] = index
    view.cache["passages"] = index
    return index


PASSAGE_TERMS = "adr-passage-terms"  # the store space of the records' passages and weights
_Passages = list[tuple[str, Weighed]]  # a record's passages: each one's text and weights


def _made(node: Node) -> _Passages:
    return [(p, weigh({"title": node.label, "body": p})) for p in _passages(node)]


def _encode(passages: _Passages) -> object:
    return [[text, encode_weighed(weighed)] for text, weighed in passages]


def _decode(data: Any) -> _Passages:
    return [(str(text), decode_weighed(weighed)) for text, weighed in data]


def _build(view: AdrView) -> TermIndex:
    """The passage index, each record's passages and their weights as kept in the store for
    its title and text (``decisis.search.kept``), or worked out now and kept."""
    if view.graph is None:
        made = {key: _made(node) for key, node in view.records.items()}
    else:
        made = kept(
            view.graph,
            space_of(PASSAGE_TERMS),
            {
                key: digest_of([n.label, str(n.metadata.get("text") or "")])
                for key, n in view.records.items()
            },
            lambda key: _made(view.records[key]),
            _encode,
            _decode,
        )
    docs = []
    weighed: dict[str, Weighed] = {}
    for key, node in view.records.items():
        for i, (passage, weights) in enumerate(made[key]):
            doc = f"{key}{_SEPARATOR}{i}"
            docs.append((doc, {"title": node.label, "body": passage}))
            weighed[doc] = weights
    return TermIndex.build(docs, weighed=weighed)


def best_passages(view: AdrView, text: str, limit: int) -> dict[str, float]:
    """Records by the BM25 score of their best section for ``text``, best first (at most
    ``limit`` passages are looked at)."""
    best: dict[str, float] = {}
    for hit in passage_index(view).search(text, limit=limit):
        best.setdefault(hit.doc.rsplit(_SEPARATOR, 1)[0], hit.score)
    return best
