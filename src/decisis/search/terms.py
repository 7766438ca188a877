"""Distinctive terms: an IDF-weighted index over a record's title, decision and body.

Full-text rank inside the store sees a record as one bag of words. Here each field
counts differently (a word in the title says more than one in a long body), and
every query term is weighted by how rare it is, so a question's distinctive words
decide. The index is plain Python built once per graph state and cached by the
caller; a query touches only the postings of its own terms.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from decisis.search.text import terms

__all__ = ["EXPANSION_WEIGHT", "FIELD_WEIGHTS", "Scored", "TermIndex", "defined_aliases", "rank_of"]

# How much one occurrence in each field counts.
# ``questions``: questions people asked that a correction resolved to the document.
FIELD_WEIGHTS: Mapping[str, float] = {
    "title": 3.0,
    "decision": 1.5,
    "body": 1.0,
    "questions": 1.0,
}
_K1 = 1.2
_B = 0.6
EXPANSION_WEIGHT = 0.5  # an added word (completion, spelled-out abbreviation) vs a query word
_MIN_STEM = 4
_MAX_TAIL = 6
_MAX_COMPLETIONS = 3
_COMPOUND = re.compile(r"[.\-_/]")
_DEFINED = re.compile(r"((?:[A-Z][\w-]*\s+){1,5})\(([A-Z]{2,6})s?\)")


def defined_aliases(text: str) -> dict[str, tuple[str, ...]]:
    """Abbreviations a text defines, ``Modernisation Platform (MP)``: ``{"mp": (terms…)}``.

    The abbreviation's letters must be the initials of the words just before it.
    """
    out: dict[str, tuple[str, ...]] = {}
    for match in _DEFINED.finditer(text):
        letters = match.group(2).lower()
        names = match.group(1).split()[-len(letters) :]
        if len(names) == len(letters) and all(
            n[0].lower() == c for n, c in zip(names, letters, strict=True)
        ):
            short = terms(letters)
            long = tuple(terms(" ".join(names)))
            if len(short) == 1 and long:
                out.setdefault(short[0], long)
    return out


@dataclass(frozen=True, slots=True)
class Scored:
    """A document's score for a query, and which share of the query's weight it matched."""

    doc: str
    score: float
    coverage: float


@dataclass
class TermIndex:
    """Weighted term frequencies per document and the postings to find them fast."""

    docs: list[str] = field(default_factory=list)
    postings: dict[str, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))
    lengths: list[float] = field(default_factory=list)
    vectors: list[dict[str, float]] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    # Words the documents define themselves ("Modernisation Platform (MP)"): short -> long.
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _tops: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict, repr=False)
    _vocabulary: list[str] = field(default_factory=list, repr=False)

    @classmethod
    def build(cls, docs: Iterable[tuple[str, Mapping[str, str]]]) -> TermIndex:
        """Index ``(doc id, {field: text})`` pairs; unknown fields count as body."""
        index = cls()
        for doc_id, fields in docs:
            tf: dict[str, float] = defaultdict(float)
            for name, text in fields.items():
                for short, long in defined_aliases(text).items():
                    index.aliases.setdefault(short, long)
                weight = FIELD_WEIGHTS.get(name, 1.0)
                for term in terms(text):
                    tf[term] += weight
            slot = len(index.docs)
            index.positions[doc_id] = slot
            index.docs.append(doc_id)
            index.lengths.append(sum(tf.values()))
            for term, freq in tf.items():
                index.postings[term].append((slot, freq))
            index.vectors.append(dict(tf))
        return index

    @property
    def size(self) -> int:
        return len(self.docs)

    def idf(self, term: str) -> float:
        """Rarity of ``term``; a word no document has gets the rarest possible weight."""
        n = len(self.postings.get(term, ()))
        return math.log(1.0 + (self.size - n + 0.5) / (n + 0.5))

    def query_weights(self, text: str) -> dict[str, float]:
        """Each distinct query term with its IDF."""
        return {term: self.idf(term) for term in dict.fromkeys(terms(text))}

    def expanded_weights(
        self, text: str, expansion: float = EXPANSION_WEIGHT
    ) -> tuple[dict[str, float], dict[str, str]]:
        """Query terms with their IDF, and the index's own words for those it lacks.

        A compound the index does not know (``build-and-release``) counts by its parts
        only; a word it does not know is matched to the indexed words it begins (``cert``
        -> ``certificat``) or that begin it; an abbreviation a document defines brings the
        words it stands for. Added words weigh ``expansion`` of their IDF. The
        second mapping says which query word each added word stands in for.
        """
        weights: dict[str, float] = {}
        origin: dict[str, str] = {}
        for term in dict.fromkeys(terms(text)):
            known = term in self.postings
            if not known and _COMPOUND.search(term):
                continue
            weights[term] = self.idf(term)
            extra = list(self.aliases.get(term, ()))
            if not known:
                extra += self._completions(term)
            for other in extra:
                if other not in weights and other in self.postings:
                    weights[other] = self.idf(other) * expansion
                    origin[other] = term
        return weights, origin

    def _completions(self, term: str) -> list[str]:
        if len(term) < _MIN_STEM or not term.isalpha():
            return []
        cache = self._vocabulary
        if not cache:
            cache.extend(sorted(t for t in self.postings if t.isalpha()))
        found = []
        for t in itertools.islice(cache, bisect.bisect_left(cache, term), None):
            if not t.startswith(term):
                break
            if len(t) <= len(term) + _MAX_TAIL:
                found.append(t)
        found.sort(key=lambda t: -len(self.postings[t]))
        return found[:_MAX_COMPLETIONS]

    def search(self, text: str, limit: int = 20, *, expand: bool = True) -> list[Scored]:
        """BM25 over weighted fields, best first, with each hit's matched IDF share."""
        if expand:
            weights, origin = self.expanded_weights(text)
        else:
            weights, origin = self.query_weights(text), {}
        total = sum(w for t, w in weights.items() if t not in origin)
        if not weights or not self.docs or not total:
            return []
        average = sum(self.lengths) / len(self.lengths) or 1.0
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, float] = defaultdict(float)
        for term, idf in weights.items():
            for slot, freq in self.postings.get(term, ()):
                norm = (
                    freq * (_K1 + 1) / (freq + _K1 * (1 - _B + _B * self.lengths[slot] / average))
                )
                scores[slot] += idf * norm
                matched[slot] += idf
        if origin:  # an added word covers the query word it stands for, once
            for slot in list(matched):
                vector = self.vectors[slot]
                direct = sum(w for t, w in weights.items() if t not in origin and t in vector)
                covered = {o for t, o in origin.items() if t in vector and o not in vector}
                matched[slot] = direct + sum(weights[o] for o in covered)
        best = sorted(scores, key=lambda s: (-scores[s], self.docs[s]))[:limit]
        return [Scored(self.docs[s], scores[s], min(1.0, matched[s] / total)) for s in best]

    def subject_coverage(self, text: str, doc_id: str, top: int = 3) -> float:
        """Share of the IDF of the query's ``top`` rarest words that the index knows (the
        question's subject: ``secrets``, ``merge``, not ``platform``) that ``doc_id`` has,
        itself or through a word standing in for it. 1.0 when the index knows none."""
        slot = self.positions.get(doc_id)
        if slot is None:
            return 0.0
        weights, origin = self.expanded_weights(text)
        known = sorted(
            ((t, w) for t, w in weights.items() if t not in origin and t in self.postings),
            key=lambda tw: (-tw[1], tw[0]),
        )[:top]
        total = sum(w for _, w in known)
        if not total:
            return 1.0
        vector = self.vectors[slot]
        stand_ins = {o for t, o in origin.items() if t in vector}
        return sum(w for t, w in known if t in vector or t in stand_ins) / total

    def similarity(self, a: int, b: int, top: int = 40) -> float:
        """Cosine of two documents' TF-IDF vectors over their most distinctive terms."""
        va, vb = self._top(a, top), self._top(b, top)
        dot = sum(w * vb[t] for t, w in va.items() if t in vb)
        na = math.sqrt(sum(w * w for w in va.values()))
        nb = math.sqrt(sum(w * w for w in vb.values()))
        return dot / (na * nb) if na and nb else 0.0

    def shared_terms(self, a: int, b: int, top: int = 40, limit: int = 5) -> list[str]:
        """The distinctive terms two documents share, most weighty first (evidence for people)."""
        va, vb = self._top(a, top), self._top(b, top)
        both = sorted((t for t in va if t in vb), key=lambda t: -(va[t] * vb[t]))
        return both[:limit]

    def _top(self, slot: int, top: int) -> dict[str, float]:
        cached = self._tops.get((slot, top))
        if cached is not None:
            return cached
        weighted = {
            t: (1 + math.log(f)) * self.idf(t) for t, f in self.vectors[slot].items() if f > 0
        }
        keep = sorted(weighted, key=lambda t: -weighted[t])[:top]
        self._tops[(slot, top)] = out = {t: weighted[t] for t in keep}
        return out

    def slot(self, doc_id: str) -> int | None:
        return self.positions.get(doc_id)


def rank_of(hits: Sequence[Scored]) -> dict[str, int]:
    """1-based rank of each document in a result list."""
    return {hit.doc: i for i, hit in enumerate(hits, start=1)}
