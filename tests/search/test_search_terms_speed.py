"""The fast paths of the term index give exactly what the plain ones give.

``term_counts`` tokenises word by word with a cache, ``search`` adds numpy arrays of BM25
factors, ``rebuilt`` patches an index instead of building it again: each is checked here
against the plain computation, float for float.
"""

from __future__ import annotations

import gc
import math
from collections import Counter, defaultdict

from decisis.search.terms import TermIndex, term_counts
from decisis.search.text import terms

_DOCS = [
    ("a", {"title": "Use Kafka for events", "body": "Kafka topics; consumers read events."}),
    ("b", {"title": "Run the Hosting Platform (HP)", "body": "The HP hosts build-and-release."}),
    ("c", {"title": "Message queue", "decision": "We use SQS queues.", "body": "SQS, not Kafka."}),
    ("d", {"title": "Cache layer", "body": "Redis caches sessions; see https://x.io/a-b."}),
    ("e", {"title": "Events again", "body": "Events and events and more events, 2020-01-02."}),
    ("f", {"title": "Certificates", "notes": "Certificates renew; gov.uk certs via ACME."}),
    ("g", {"title": "Move to the Hosting Provider (HP)", "body": "Team Ops Group (TOG) runs it."}),
]
_QUESTIONS = [
    "Which message queue do we use for events?",
    "Who renews our certs?",
    "What runs on HP?",
    "kafka kafka events",
    "a shared-cache layer",
    "nothing here matches zebra",
]


def _plain_search(index: TermIndex, text: str, limit: int) -> list[tuple[str, float, float]]:
    """BM25 as a loop over postings, as the index computed it before it used numpy."""
    weights, origin = index.expanded_weights(text)
    total = sum(w for t, w in weights.items() if t not in origin)
    if not weights or not index.docs or not total:
        return []
    average = sum(index.lengths) / len(index.lengths) or 1.0
    scores: dict[int, float] = defaultdict(float)
    matched: dict[int, float] = defaultdict(float)
    for term, idf in weights.items():
        for slot, freq in index.postings.get(term, ()):
            length = index.lengths[slot]
            norm = freq * (1.2 + 1) / (freq + 1.2 * (1 - 0.6 + 0.6 * length / average))
            scores[slot] += idf * norm
            matched[slot] += idf
    if origin:
        for slot in list(matched):
            vector = index.vectors[slot]
            direct = sum(w for t, w in weights.items() if t not in origin and t in vector)
            covered = {o for t, o in origin.items() if t in vector and o not in vector}
            matched[slot] = direct + sum(weights[o] for o in covered)
    best = sorted(scores, key=lambda s: (-scores[s], index.docs[s]))[:limit]
    return [(index.docs[s], scores[s], min(1.0, matched[s] / total)) for s in best]


def _same(a: TermIndex, b: TermIndex) -> None:
    assert a.docs == b.docs and a.positions == b.positions and a.lengths == b.lengths
    assert [list(v.items()) for v in a.vectors] == [list(v.items()) for v in b.vectors]
    assert dict(a.postings) == dict(b.postings)
    assert list(a.aliases.items()) == list(b.aliases.items())
    for question in _QUESTIONS:
        got = [(h.doc, h.score, h.coverage) for h in a.search(question, limit=50)]
        assert got == [(h.doc, h.score, h.coverage) for h in b.search(question, limit=50)]


def test_term_counts_are_the_counts_of_terms_in_first_occurrence_order() -> None:
    for text in [fields[name] for _, fields in _DOCS for name in fields] + _QUESTIONS:
        expected = Counter(terms(text))
        got = term_counts(text)
        assert got == expected
        assert list(got) == list(dict.fromkeys(terms(text)))


def test_search_gives_the_plain_bm25_scores_exactly() -> None:
    index = TermIndex.build(_DOCS)
    for question in _QUESTIONS:
        for limit in (1, 2, 3, 50):
            got = [(h.doc, h.score, h.coverage) for h in index.search(question, limit=limit)]
            assert got == _plain_search(index, question, limit)
            assert all(type(score) is float for _, score, _ in got)


def test_ties_are_broken_by_document_id_at_the_cut() -> None:
    same = {"title": "Use Kafka for events"}
    index = TermIndex.build([(key, same) for key in ("z", "m", "a", "q")])
    assert [h.doc for h in index.search("kafka", limit=2)] == ["a", "m"]
    assert math.isclose(index.search("kafka", limit=1)[0].coverage, 1.0)


def test_rebuilt_equals_a_fresh_build_and_leaves_the_old_index_alone() -> None:
    old = TermIndex.build(_DOCS[:4])
    before = TermIndex.build(_DOCS[:4])
    changed = [
        (key, {**fields, "questions": "which queue do we use"} if key == "c" else fields)
        for key, fields in _DOCS
    ]
    changed[1] = ("b", {"title": "Run the Build Platform (BP)"})
    for docs in (_DOCS[:4], _DOCS, changed, changed[:4], _DOCS[1:], _DOCS[::-1]):
        _same(old.rebuilt(docs), TermIndex.build(docs))
        _same(old.rebuilt(docs).rebuilt(_DOCS), TermIndex.build(_DOCS))
    _same(old, before)


def _top(index: TermIndex, slot: int) -> dict[str, float]:
    weighted = {
        t: (1 + math.log(f)) * index.idf(t) for t, f in index.vectors[slot].items() if f > 0
    }
    return dict(sorted(weighted.items(), key=lambda tw: -tw[1])[:40])


def test_similarity_is_unchanged_by_its_cache() -> None:
    index = TermIndex.build(_DOCS)
    for a in range(len(_DOCS)):
        for b in range(len(_DOCS)):
            va, vb = _top(index, a), _top(index, b)
            dot = sum(w * vb[t] for t, w in va.items() if t in vb)
            na = math.sqrt(sum(w * w for w in va.values()))
            nb = math.sqrt(sum(w * w for w in vb.values()))
            assert index.similarity(a, b) == (dot / (na * nb) if na and nb else 0.0)


def test_postings_are_left_alone_by_the_garbage_collector() -> None:
    # Lists of pairs would be traversed on every full collection: seconds at 50,000 records.
    built = TermIndex.build(_DOCS[:4])
    rebuilt = built.rebuilt([*_DOCS[:3], ("d", {"title": "Cache"}), *_DOCS[4:]])
    # A pair is untracked by the first collection that sees it, its postings tuple by the next.
    gc.collect()
    gc.collect()
    for index in (built, rebuilt):
        assert index.postings
        for term, posting in index.postings.items():
            assert isinstance(posting, tuple), term
            assert not gc.is_tracked(posting), term
