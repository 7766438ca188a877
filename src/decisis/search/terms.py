"""Distinctive terms: an IDF-weighted index over a record's title, decision and body.

Full-text rank inside the store sees a record as one bag of words. Here each field
counts differently (a word in the title says more than one in a long body), and
every query term is weighted by how rare it is, so a question's distinctive words
decide. The index is plain Python built once per graph state and cached by the
caller; a query touches only the postings of its own terms.

Speed, for fifty thousand records: each distinct word is stemmed and split once per
process (``term_counts``); an index of nearly the same documents is patched from the
previous one rather than built again (``rebuilt``); a term's BM25 factors are worked out
once per index, on the first query that uses it, as numpy arrays, and a query adds them
into one array of scores. Every score is the same float, rounded the same way, as the
plain formula gives. Build the index, then query it: it does not change after that.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from decisis.search.text import STOP_WORDS, terms, words

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "ENGINE",
    "EXPANSION_WEIGHT",
    "FIELD_WEIGHTS",
    "Scored",
    "TermIndex",
    "Weighed",
    "defined_aliases",
    "rank_of",
    "term_counts",
    "term_sequence",
    "weigh",
]

# How much one occurrence in each field counts.
# ``questions``: questions people asked that a correction resolved to the document. Their
# words count as the document's when a search measures how much of a question it holds
# (``coverage``), but add nothing to its rank: ranked by them, a record drew the questions
# on neighbouring topics that share a word or two with one corrected to it (a question on
# an account's service limits started at the record a question on "which AWS account" was
# corrected to). From 1.0 to 0, with learning on: independent questions 75.3% -> 76.3%, the
# held-out blind set 64.6% -> 65.4%, the other four question files unchanged.
FIELD_WEIGHTS: Mapping[str, float] = {
    "title": 3.0,
    "decision": 1.5,
    "body": 1.0,
    "questions": 0.0,
}
# The version of what ``weigh`` makes of a document's fields: kept in the store beside the
# graph (``decisis.search.kept``), a document's weights are read back only by the same
# engine. Change it with anything that changes them: ``terms``, ``_weigh``, the aliases a
# text defines. The field weights are part of it as they stand.
ENGINE = "terms-1;" + ",".join(f"{k}={v!r}" for k, v in sorted(FIELD_WEIGHTS.items()))
_K1 = 1.2
_B = 0.6
EXPANSION_WEIGHT = 0.5  # an added word (completion, spelled-out abbreviation) vs a query word
_MIN_STEM = 4
_MAX_TAIL = 6
_MAX_COMPLETIONS = 3
_COMPOUND = re.compile(r"[.\-_/]")
_DEFINED = re.compile(r"((?:[A-Z][\w-]*\s+){1,5})\(([A-Z]{2,6})s?\)")
# A word -> its terms, for every text; replaced (not cleared: a build in another thread
# may be reading it) by an empty one when full.
_WORD_TERMS: list[dict[str, tuple[str, ...]]] = [{}]
_WORD_CACHE_LIMIT = 1_000_000
_EXPANDED_KEPT = 64


def term_sequence(text: str) -> list[str]:
    """``terms(text)``, worked out word by word with each distinct word's terms kept.

    ``terms`` works word by word, so the terms of a text are those of its words in order;
    a corpus repeats its words, so stemming and splitting each once is most of the
    saving when indexing it.
    """
    found = words(text)
    cache = _WORD_TERMS[0]
    missing = set(found).difference(cache)
    if missing:
        if len(cache) + len(missing) > _WORD_CACHE_LIMIT:
            cache = _WORD_TERMS[0] = {}
            missing = set(found)
        for word in missing:
            cache[word] = tuple(terms(word))
    return list(itertools.chain.from_iterable(map(cache.__getitem__, found)))


def term_counts(text: str) -> dict[str, int]:
    """How often each of ``terms(text)`` occurs, in order of first occurrence."""
    return Counter(term_sequence(text))


Posting = tuple[tuple[int, float], ...]  # (document slot, weighted frequency), by slot
_Defines = tuple[tuple[str, tuple[str, ...]], ...]
_NO_DEFINES: _Defines = ()
Weighed = tuple[dict[str, float], _Defines]
"""A document's weighted term frequencies (in order of first occurrence) and the
abbreviations it defines: what indexing it costs, and all ``build`` needs of its text."""


def weigh(fields: Mapping[str, str]) -> Weighed:
    """What ``TermIndex.build`` works out of one document's ``fields`` (see ``_weigh``)."""
    return _weigh(tuple(fields.items()))


def _slot_of(posting: tuple[int, float]) -> int:
    return posting[0]


def _weigh(fields: tuple[tuple[str, str], ...]) -> tuple[dict[str, float], _Defines]:
    """A document's weighted term frequencies, in order of first occurrence, and the
    abbreviations its fields define, in order.

    A term's frequency is its field's weight added once per occurrence; when the weights
    make that sum exact, ``weight * count`` is the same float and is what is computed.
    """
    tf: dict[str, float] = {}
    defines: list[tuple[str, tuple[str, ...]]] = []
    weights = [FIELD_WEIGHTS.get(name, 1.0) for name, _ in fields]
    exact = all(_exact(w) for w in weights)
    for (_, text), weight in zip(fields, weights, strict=True):
        if "(" in text:  # an abbreviation is defined in brackets
            defines += defined_aliases(text).items()
        for term, n in term_counts(text).items():
            if exact:
                tf[term] = tf.get(term, 0.0) + weight * n
            else:  # the same additions as one occurrence at a time
                for _ in range(n):
                    tf[term] = tf.get(term, 0.0) + weight
    return tf, tuple(defines) if defines else _NO_DEFINES


def _exact(weight: float) -> bool:
    """Whether sums of ``weight`` are exact floats (a multiple of 1/4, not huge), so that
    ``n * weight`` equals ``weight`` added ``n`` times."""
    return (weight * 4).is_integer() and abs(weight) < 2**20


_CAPITALISED = re.compile(r"[A-Z][a-z][\w-]*")
_RUN_WORDS = (3, 6)  # a title spells out an abbreviation of this many words


def title_aliases(titles: Iterable[str], known: Container[str]) -> dict[str, tuple[str, ...]]:
    """Abbreviations that titles spell out without defining them: the last three to six
    capitalised words of a run ("Introduce Open Policy Agent": a name ends the run) whose
    initials are a word the documents use ("OPA" in other records), not an everyday English
    one, nor one the glossary already spells both ways. A question asking about "OPA" then
    also finds the record titled with the words it stands for."""
    from decisis.search.glossary import ABBREVIATIONS

    found: dict[str, tuple[str, ...]] = {}
    for title in titles:
        for run in _capitalised_runs(title):
            for size in range(_RUN_WORDS[0], min(_RUN_WORDS[1], len(run)) + 1):
                words = run[-size:]
                short = "".join(w[0] for w in words).lower()
                if short in found or short in ABBREVIATIONS or short not in known:
                    continue
                if not _everyday(short):
                    found[short] = tuple(terms(" ".join(words)))
    return found


def _capitalised_runs(title: str) -> Iterator[list[str]]:
    """Runs of capitalised words in ``title``; punctuation after a word ends its run."""
    run: list[str] = []
    for raw in title.split():
        word = raw.rstrip(",.:;!?)")
        if _CAPITALISED.fullmatch(word) and word.lower() not in STOP_WORDS:
            run.append(word)
            if word != raw:
                yield run
                run = []
            continue
        if run:
            yield run
        run = []
    if run:
        yield run


def _everyday(word: str) -> bool:
    from decisis.search.embed_static import is_common_word  # the shipped vocabulary, lazily

    return word in STOP_WORDS or is_common_word(word)


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
    # Per term, its documents' (slot, weighted frequency) pairs in slot order: tuples, not
    # lists, so that the garbage collector skips them (a tuple of untracked pairs is itself
    # untracked; at 50,000 records, traversing 18 million pairs made each full collection
    # take two seconds).
    postings: dict[str, Posting] = field(default_factory=dict)
    lengths: list[float] = field(default_factory=list)
    vectors: list[dict[str, float]] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    # Words the documents define themselves ("Modernisation Platform (MP)"): short -> long.
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Whether titles spelling out a word the documents use define it too (``build``).
    spell_out_titles: bool = False
    # Per (document slot, top): its heaviest terms as a set, with their weights, and the norm.
    _tops: dict[tuple[int, int], tuple[frozenset[str], dict[str, float], float]] = field(
        default_factory=dict, repr=False
    )
    # Each term's IDF once worked out, for an index of ``_idfs_size`` documents. Only
    # ``build`` and ``rebuilt`` change an index, both before handing it out, and ``rebuilt``
    # makes a new one whose caches start empty; the size check is a guard besides.
    _idfs: dict[str, float] = field(default_factory=dict, repr=False)
    _idfs_size: int = field(default=-1, repr=False)
    _vocabulary: list[str] = field(default_factory=list, repr=False)
    # Compound terms ("multi-cluster") by the term of their joined form ("multicluster").
    _apart: dict[str, list[str]] | None = field(default=None, repr=False)
    # Per query term, its documents' slots and BM25 factors; the lengths as an array.
    _bm25: dict[str, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    _lengths: Any = field(default=None, repr=False)
    _average: float = field(default=1.0, repr=False)  # mean document length, with _lengths
    _expanded: dict[tuple[str, float], tuple[dict[str, float], dict[str, str]]] = field(
        default_factory=dict, repr=False
    )

    # What each document was indexed from and the abbreviations it defines, so that an
    # index of nearly the same documents can be made from this one (``rebuilt``).
    _fields: list[tuple[tuple[str, str], ...]] = field(default_factory=list, repr=False)
    _defines: list[_Defines] = field(default_factory=list, repr=False)

    @classmethod
    def build(
        cls,
        docs: Iterable[tuple[str, Mapping[str, str]]],
        *,
        spell_out_titles: bool = False,
        weighed: Mapping[str, Weighed] | None = None,
    ) -> TermIndex:
        """Index ``(doc id, {field: text})`` pairs; unknown fields count as body. With
        ``spell_out_titles``, an abbreviation a title spells out (``title_aliases``) brings
        the title's words, as one a document defines does: for titles that name things (a
        decision record's), not for questions. ``weighed`` holds ``weigh(fields)`` of the
        documents whose weights were kept (``decisis.search.kept``): they are not read
        again. The index is the same either way."""
        index = cls(spell_out_titles=spell_out_titles)
        lists: defaultdict[str, list[tuple[int, float]]] = defaultdict(list)
        kept = weighed or {}
        for doc_id, fields in docs:
            index._append(
                doc_id, tuple(fields.items()), lists, fresh=True, weighed=kept.get(doc_id)
            )
        index._keep(lists)
        index._add_title_aliases()
        return index

    def rebuilt(self, docs: Iterable[tuple[str, Mapping[str, str]]]) -> TermIndex:
        """The index ``build(docs)`` gives, made from this one when ``docs`` are this index's
        documents, in the same order, followed by new ones: only documents whose fields
        changed, and new ones, are read. Anything else (a document gone or moved) is a plain
        build. This index is left as it was."""
        items = [(doc_id, tuple(fields.items())) for doc_id, fields in docs]
        n = len(self.docs)
        if len(items) < n or [d for d, _ in items[:n]] != self.docs:
            return TermIndex.build(
                ((d, dict(f)) for d, f in items), spell_out_titles=self.spell_out_titles
            )
        changed = [slot for slot in range(n) if items[slot][1] != self._fields[slot]]
        if len(changed) > n // 4:
            return TermIndex.build(
                ((d, dict(f)) for d, f in items), spell_out_titles=self.spell_out_titles
            )
        new = TermIndex(
            spell_out_titles=self.spell_out_titles,
            docs=list(self.docs),
            postings=dict(self.postings),
            lengths=list(self.lengths),
            vectors=list(self.vectors),
            positions=dict(self.positions),
            _fields=list(self._fields),
            _defines=list(self._defines),
        )
        lists: dict[str, list[tuple[int, float]]] = {}  # the postings that change
        for slot in changed:
            new._replace(slot, items[slot][1], lists)
        for doc_id, fields in items[n:]:
            new._append(doc_id, fields, lists)
        new._keep(lists)
        if new.postings.keys() == self.postings.keys():
            new._vocabulary = self._vocabulary  # the same words: the same completions
            new._apart = self._apart
        new.aliases = {}
        for defines in new._defines:  # the first document to define a word wins
            for short, long in defines:
                new.aliases.setdefault(short, long)
        new._add_title_aliases()
        return new

    def _add_title_aliases(self) -> None:
        """``title_aliases`` of the documents' titles, where no document defines the word."""
        if not self.spell_out_titles:
            return
        titles = (text for fields in self._fields for name, text in fields if name == "title")
        for short, long in title_aliases(titles, self.postings).items():
            self.aliases.setdefault(short, long)

    def _keep(self, lists: dict[str, list[tuple[int, float]]]) -> None:
        """Make the postings ``lists`` (new or changed) this index's own, as tuples; a term
        left with none is dropped. Each list is let go as soon as it is copied."""
        postings = self.postings
        for term in list(lists):
            posting = lists.pop(term)
            if posting:
                postings[term] = tuple(posting)
            else:
                postings.pop(term, None)

    def _append(
        self,
        doc_id: str,
        fields: tuple[tuple[str, str], ...],
        lists: dict[str, list[tuple[int, float]]],
        *,
        fresh: bool = False,
        weighed: Weighed | None = None,
    ) -> None:
        """Add a document (with ``weighed``, its ``_weigh(fields)`` worked out before); with
        ``fresh`` (a plain build) ``lists`` makes a missing list."""
        tf, defines = weighed if weighed is not None else _weigh(fields)
        slot = len(self.docs)
        self.positions[doc_id] = slot
        self.docs.append(doc_id)
        self.lengths.append(sum(tf.values()))
        if fresh:  # a plain build: every list is this index's own
            for term, freq in tf.items():
                lists[term].append((slot, freq))
        else:
            for term, freq in tf.items():
                self._posting(term, lists).append((slot, freq))
        self.vectors.append(tf)
        self._fields.append(fields)
        self._defines.append(defines)
        for short, long in defines:
            self.aliases.setdefault(short, long)

    def _replace(
        self,
        slot: int,
        fields: tuple[tuple[str, str], ...],
        lists: dict[str, list[tuple[int, float]]],
    ) -> None:
        """Index ``fields`` as document ``slot``'s, in place of what it had (postings stay in
        slot order, as ``build`` makes them)."""
        for term in self.vectors[slot]:
            posting = self._posting(term, lists)
            del posting[bisect.bisect_left(posting, slot, key=_slot_of)]
        tf, defines = _weigh(fields)
        for term, freq in tf.items():
            posting = self._posting(term, lists)
            posting.insert(bisect.bisect_left(posting, slot, key=_slot_of), (slot, freq))
        self.lengths[slot] = sum(tf.values())
        self.vectors[slot] = tf
        self._fields[slot] = fields
        self._defines[slot] = defines

    def _posting(
        self, term: str, lists: dict[str, list[tuple[int, float]]]
    ) -> list[tuple[int, float]]:
        """``term``'s postings as a list to change, copied from the index's tuple (which may
        be shared with another index) the first time; ``_keep`` makes it the index's."""
        found = lists.get(term)
        if found is None:
            found = lists[term] = list(self.postings.get(term, ()))
        return found

    @property
    def size(self) -> int:
        return len(self.docs)

    def idf(self, term: str) -> float:
        """Rarity of ``term``; a word no document has gets the rarest possible weight."""
        idfs = self._idf_table()
        found = idfs.get(term)
        if found is None:
            n = len(self.postings.get(term, ()))
            found = idfs[term] = math.log(1.0 + (self.size - n + 0.5) / (n + 0.5))
        return found

    def _idf_table(self) -> dict[str, float]:
        """The IDFs worked out so far (``idf`` fills it), emptied if the index has grown."""
        if self._idfs_size != len(self.docs):
            self._idfs, self._idfs_size = {}, len(self.docs)
        return self._idfs

    def query_weights(self, text: str) -> dict[str, float]:
        """Each distinct query term with its IDF."""
        return {term: self.idf(term) for term in dict.fromkeys(terms(text))}

    def expanded_weights(
        self, text: str, expansion: float = EXPANSION_WEIGHT
    ) -> tuple[dict[str, float], dict[str, str]]:
        """Query terms with their IDF, and the index's own words for those it lacks.

        A compound counts by its parts (the question's "cross-account" is the record's
        "cross account"): one the index does not know (``build-and-release``) only by them,
        one it knows also as an added word standing in for its rarest part, so the records
        that write it joined rank higher without the idea counting twice. A word it does not
        know is matched to the indexed words it begins (``cert`` -> ``certificat``) or that
        begin it; an abbreviation a document defines brings the words it stands for. Added
        words weigh ``expansion`` of their IDF. The second mapping says which query word
        each added word stands in for.
        """
        found = self._expanded.get((text, expansion))
        if found is None:  # one question asks for them several times: kept a while
            if len(self._expanded) >= _EXPANDED_KEPT:
                self._expanded.clear()
            found = self._expanded[(text, expansion)] = self._expand(text, expansion)
        return dict(found[0]), dict(found[1])

    def _expand(self, text: str, expansion: float) -> tuple[dict[str, float], dict[str, str]]:
        weights: dict[str, float] = {}
        origin: dict[str, str] = {}
        for term in dict.fromkeys(terms(text)):
            known = term in self.postings
            if _COMPOUND.search(term):
                if not known:
                    continue
                parts = [p for p in terms(term)[1:] if p in self.postings]
                if parts:  # the words count; written joined, they are a bonus
                    weights[term] = self.idf(term) * expansion
                    origin[term] = max(parts, key=self.idf)
                    continue
            weights[term] = self.idf(term)
            extra = list(self.aliases.get(term, ()))
            if not known:
                extra += self._completions(term) + self._written_apart(term)
            for other in extra:
                if other not in weights and other in self.postings:
                    weights[other] = self.idf(other) * expansion
                    origin[other] = term
        return weights, origin

    def _written_apart(self, term: str) -> list[str]:
        """The compounds the documents write that ``term`` writes joined: "multi-cluster"
        for "multicluster", "non-prod" for "nonprod", "fail-over" for "failover"."""
        table = self._apart
        if table is None:
            table = {}
            for known in self.postings:
                if _COMPOUND.search(known):
                    joined = terms(_COMPOUND.sub("", known))
                    if len(joined) == 1:
                        table.setdefault(joined[0], []).append(known)
            self._apart = table
        return table.get(term, [])

    def _completions(self, term: str) -> list[str]:
        if len(term) < _MIN_STEM or not term.isalpha():
            return []
        cache = self._vocabulary
        if not cache:
            cache = self._vocabulary = sorted(t for t in self.postings if t.isalpha())
        found = []
        for t in itertools.islice(cache, bisect.bisect_left(cache, term), None):
            if not t.startswith(term):
                break
            if len(t) <= len(term) + _MAX_TAIL:
                found.append(t)
        found.sort(key=lambda t: -len(self.postings[t]))
        return found[:_MAX_COMPLETIONS]

    def search(self, text: str, limit: int = 20, *, expand: bool = True) -> list[Scored]:
        """BM25 over weighted fields, best first, with each hit's matched IDF share.

        A document's score is the sum, over the query's terms in order, of ``idf * norm``
        with ``norm = freq * (k1 + 1) / (freq + k1 * (1 - b + b * length / average))``.
        """
        import numpy as np

        if expand:
            weights, origin = self.expanded_weights(text)
        else:
            weights, origin = self.query_weights(text), {}
        total = sum(w for t, w in weights.items() if t not in origin)
        if not weights or not self.docs or not total:
            return []
        scores = np.zeros(len(self.docs))
        hit = np.zeros(len(self.docs), dtype=bool)
        for term, idf in weights.items():
            if term in self.postings:
                slots, norms = self._factors(term)
                scores[slots] += idf * norms  # a term's slots are distinct
                hit[slots[norms > 0]] = True  # not by a field that weighs nothing alone
        best = _top_slots(scores, np.flatnonzero(hit), limit, self.docs)
        return [
            Scored(self.docs[s], score, min(1.0, self._matched(s, weights, origin) / total))
            for s, score in best
        ]

    def _factors(self, term: str) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """The slots of the documents holding ``term`` and their BM25 ``norm`` (as above)."""
        found = self._bm25.get(term)
        if found is not None:
            return found
        import numpy as np

        if self._lengths is None:  # once per index: a new term used to pay a pass over them
            self._lengths = np.array(self.lengths, dtype=np.float64)
            self._average = sum(self.lengths) / len(self.lengths) or 1.0
        posting = self.postings[term]
        # (slot, freq) pairs read flat in one pass; slots are exact as floats (< 2**53)
        pairs = np.fromiter(
            itertools.chain.from_iterable(posting), dtype=np.float64, count=2 * len(posting)
        )
        slots = pairs[0::2].astype(np.intp)
        freq = pairs[1::2]
        # The plain formula's operations in its order, so each factor rounds the same.
        lengths = self._lengths[slots]
        norms = freq * (_K1 + 1) / (freq + _K1 * ((1 - _B) + _B * lengths / self._average))
        self._bm25[term] = found = (slots, norms)
        return found

    def _matched(self, slot: int, weights: Mapping[str, float], origin: Mapping[str, str]) -> float:
        """The query weight document ``slot`` matches; an added word covers the query word
        it stands for, once."""
        vector = self.vectors[slot]
        if not origin:
            matched = 0.0
            for t, w in weights.items():
                if t in vector:
                    matched += w
            return matched
        direct = sum(w for t, w in weights.items() if t not in origin and t in vector)
        covered = {o for t, o in origin.items() if t in vector and o not in vector}
        return direct + sum(weights[o] for o in covered)

    def coverage(self, text: str, doc_id: str) -> float:
        """The share of ``text``'s weight that document ``doc_id`` matches, as ``search``
        gives it for a hit (0.0 for a document the index does not hold)."""
        slot = self.positions.get(doc_id)
        weights, origin = self.expanded_weights(text)
        total = sum(w for t, w in weights.items() if t not in origin)
        if slot is None or not total:
            return 0.0
        return min(1.0, self._matched(slot, weights, origin) / total)

    def subject_terms(self, text: str, top: int = 3) -> list[tuple[str, float]]:
        """The query's ``top`` rarest words that the index knows, with their IDF: what the
        question is about (``secrets``, ``merge``, not ``platform``)."""
        return self._subject(*self.expanded_weights(text), top)

    def _subject(
        self, weights: dict[str, float], origin: dict[str, str], top: int
    ) -> list[tuple[str, float]]:
        return sorted(
            ((t, w) for t, w in weights.items() if t not in origin and t in self.postings),
            key=lambda tw: (-tw[1], tw[0]),
        )[:top]

    def subject_coverage(self, text: str, doc_id: str, top: int = 3) -> float:
        """Share of the IDF of the query's ``top`` rarest words that the index knows (the
        question's subject: ``secrets``, ``merge``, not ``platform``) that ``doc_id`` has,
        itself or through a word standing in for it. 1.0 when the index knows none."""
        slot = self.positions.get(doc_id)
        if slot is None:
            return 0.0
        weights, origin = self.expanded_weights(text)
        known = self._subject(weights, origin, top)
        total = sum(w for _, w in known)
        if not total:
            return 1.0
        vector = self.vectors[slot]
        stand_ins = {o for t, o in origin.items() if t in vector}
        return sum(w for t, w in known if t in vector or t in stand_ins) / total

    def held_only_by(self, text: str, doc_id: str, top: int = 3) -> list[str]:
        """The query's ``top`` rarest words that the index knows (its subject, as in
        ``subject_coverage``) that document ``doc_id`` holds and no other document does."""
        slot = self.positions.get(doc_id)
        if slot is None:
            return []
        vector = self.vectors[slot]
        return [
            t
            for t, _ in self._subject(*self.expanded_weights(text), top)
            if t in vector and len(self.postings[t]) == 1
        ]

    def similarity(self, a: int, b: int, top: int = 40) -> float:
        """Cosine of two documents' TF-IDF vectors over their most distinctive terms."""
        (sa, va, na), (sb, vb, nb) = self._top(a, top), self._top(b, top)
        if sb.isdisjoint(sa) or not (na and nb):  # most pairs share no top term
            return 0.0
        # The products in ``va``'s order, summed left to right: the same float every time.
        dot = sum([w * vb[t] for t, w in va.items() if t in sb])
        return dot / (na * nb)

    def shared_terms(self, a: int, b: int, top: int = 40, limit: int = 5) -> list[str]:
        """The distinctive terms two documents share, most weighty first (evidence for people)."""
        va, vb = self._top(a, top)[1], self._top(b, top)[1]
        both = sorted((t for t in va if t in vb), key=lambda t: -(va[t] * vb[t]))
        return both[:limit]

    def _top(self, slot: int, top: int) -> tuple[frozenset[str], dict[str, float], float]:
        """A document's ``top`` heaviest TF-IDF terms: as a set, with weights, and their norm."""
        cached = self._tops.get((slot, top))
        if cached is not None:
            return cached
        idfs, idf, log = self._idf_table(), self.idf, math.log
        weighted = {
            t: (1 + log(f)) * (idfs.get(t) or idf(t))
            for t, f in self.vectors[slot].items()
            if f > 0
        }
        # Heaviest first, ties in first-occurrence order (``reverse`` keeps sorting stable).
        keep = sorted(weighted, key=weighted.__getitem__, reverse=True)[:top]
        out = {t: weighted[t] for t in keep}
        found = self._tops[(slot, top)] = (
            frozenset(keep),
            out,
            math.sqrt(sum(w * w for w in out.values())),
        )
        return found

    def slot(self, doc_id: str) -> int | None:
        return self.positions.get(doc_id)


def _top_slots(
    scores: NDArray[np.float64], found: NDArray[np.intp], limit: int, docs: Sequence[str]
) -> list[tuple[int, float]]:
    """The ``limit`` best of the ``found`` slots by score, ties by document id, with their
    scores; only those that can be among them are sorted."""
    import numpy as np

    if limit <= 0 or not len(found):
        return []
    values = scores[found]
    if len(found) > limit:
        kth = np.partition(values, len(found) - limit)[len(found) - limit]
        keep = values >= kth
        found, values = found[keep], values[keep]
    pairs = zip(found.tolist(), values.tolist(), strict=True)
    return sorted(pairs, key=lambda sv: (-sv[1], docs[sv[0]]))[:limit]


def rank_of(hits: Sequence[Scored]) -> dict[str, int]:
    """1-based rank of each document in a result list."""
    return {hit.doc: i for i, hit in enumerate(hits, start=1)}
