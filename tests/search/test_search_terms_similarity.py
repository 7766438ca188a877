"""IDF and similarity keep their values when cached: as the formula gives them, and
never left over from another index (``rebuilt`` makes a new one)."""

from __future__ import annotations

import math

from decisis.search.terms import TermIndex

_DOCS = [
    ("a", {"title": "Use Kafka for events", "body": "Kafka topics; consumers read events."}),
    ("b", {"title": "Message queue", "decision": "We use SQS queues.", "body": "SQS, not Kafka."}),
    ("c", {"title": "Cache layer", "body": "Redis caches sessions for the web tier."}),
    ("d", {"title": "Events again", "body": "Events and events and Kafka consumers."}),
    ("e", {"title": "Certificates", "body": "Certificates renew through ACME."}),
]


def _idf(index: TermIndex, term: str) -> float:
    n = len(index.postings.get(term, ()))
    return math.log(1.0 + (index.size - n + 0.5) / (n + 0.5))


def _plain_similarity(index: TermIndex, a: int, b: int) -> float:
    def top(slot: int) -> dict[str, float]:
        weighted = {
            t: (1 + math.log(f)) * _idf(index, t) for t, f in index.vectors[slot].items() if f > 0
        }
        return dict(sorted(weighted.items(), key=lambda tw: -tw[1])[:40])

    va, vb = top(a), top(b)
    na = math.sqrt(sum(w * w for w in va.values()))
    nb = math.sqrt(sum(w * w for w in vb.values()))
    dot = sum(w * vb[t] for t, w in va.items() if t in vb)
    return dot / (na * nb) if na and nb else 0.0


def _check(index: TermIndex) -> None:
    for term in [*index.postings, "zebra"]:
        assert index.idf(term) == _idf(index, term)
        assert index.idf(term) == _idf(index, term)  # the cached value
    for a in range(index.size):
        for b in range(index.size):
            assert index.similarity(a, b) == _plain_similarity(index, a, b)


def test_idf_and_similarity_are_the_formulas_before_and_after_caching() -> None:
    index = TermIndex.build(_DOCS)
    _check(index)
    _check(index)
    assert index.similarity(0, 2) == 0.0  # no shared top term
    assert index.similarity(0, 3) > 0.0


def test_a_rebuilt_index_does_not_use_the_caches_of_the_one_it_came_from() -> None:
    old = TermIndex.build(_DOCS[:4])
    _check(old)  # fills the old index's caches
    changed = [*_DOCS[:2], ("c", {"title": "Kafka cache", "body": "Kafka events cached."})]
    for docs in (_DOCS, [*changed, _DOCS[3]], [*changed, *_DOCS[3:]]):
        new = old.rebuilt(docs)
        _check(new)
        fresh = TermIndex.build(docs)
        for term in [*fresh.postings, "zebra"]:
            assert new.idf(term) == fresh.idf(term)
        for a in range(fresh.size):
            for b in range(fresh.size):
                assert new.similarity(a, b) == fresh.similarity(a, b)
    _check(old)
