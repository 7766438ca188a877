"""Where a question starts: votes from full-text rank, distinctive terms, remembered
questions and (when an embedder is installed) vectors, fused by reciprocal rank.

Each voter ranks record keys; ``fuse`` adds the votes. The terms vote is BM25 over
weighted fields with the query expanded from the records themselves (abbreviations they
define, completions of words they lack; ``decisis.search.terms``), and a question that
names one folder ("… on the Modernisation Platform", "MP") boosts that folder's records
and starts among them when any matches (the folder's words come from its name, checked
against its records' vocabulary).
Besides the ranking, the evidence that the question is answered at all is kept (how
much of the question's distinctive weight the best record covers, its cosine with the
question, how close a remembered question is), for abstaining in ``decisis.adr.answer``.
Weights and thresholds were chosen with topics held out: ``decisis.evaluation.tune``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from decisis.adr.amounts import asked_for
from decisis.adr.choices import choices, names_a_choice
from decisis.adr.named import named_records
from decisis.adr.passages import best_passages
from decisis.adr.scope import record_exclusions
from decisis.adr.vectors import closest_sentence
from decisis.adr.view import AdrView
from decisis.graph import Graph
from decisis.search.embed_static import is_common_word
from decisis.search.fulltext import fulltext_rank
from decisis.search.fusion import Fused, fuse
from decisis.search.glossary import spelled_both_ways
from decisis.search.terms import Scored, TermIndex, term_counts
from decisis.search.text import terms, words

__all__ = ["VOTER_WEIGHTS", "VOUCHED", "StartPoints", "start_points"]

# Chosen on the development questions with topics held out (``decisis.evaluation.tune``):
# the store's full-text rank sees a record as one bag of words and mostly adds noise to
# the field-weighted terms vote, so it only breaks ties.
# The vectors of the default (static) embedder rank worse than the terms on their own
# (22 of 43 answerable development questions start right by vectors, 35 by terms), so
# they are not a voter of their own: ``VECTOR_WEIGHT`` times the cosine is added to the
# terms vote's score (relative to its best). With topics held out every weight above 0
# did worse (more outdated starts), so by default the cosine is only evidence for
# abstaining (``decisis.adr.answer``); a stronger embedder may earn a weight here.
VOTER_WEIGHTS: Mapping[str, float] = {
    "fulltext": 0.05,
    "terms": 1.0,
    "questions": 1.5,
}
VECTOR_WEIGHT = 0.0
# Votes that vouch for a start whatever its words match: a remembered question corrected to
# it, or the question naming it by key or number (``decisis.adr.named``).
VOUCHED = frozenset({"questions", "named"})
DEPTH = 20
# A question naming one team's folder ("… on the Modernisation Platform") multiplies the terms
# score of that folder's records by 1 + FOLDER_BOOST, and the naming words leave the content
# (``without_folder_name``); 0.5 chosen with topics held out, as the other weights. The
# fused ranking then puts that folder's records first (``_named_team_first``), so the boost
# orders them among themselves and among the rest.
FOLDER_BOOST = 0.5
# A record's best section counts this much beside its whole text (``decisis.adr.passages``):
# 0.2-0.3 gave the same answers on all three question files; 0.4 and above lost
# development questions to records that mention the subject in one section only.
PASSAGE_WEIGHT = 0.25
FOLDER_SHARE = 0.6  # a folder-name word names the folder when this share of its records is there
QUESTION_MATCH = 0.6  # share of a question's weight a remembered question must cover
# ... and, with an embedder, how close in meaning it must be. Paraphrases in the development
# set share few words and a cosine of 0.25-0.72 with each other, while questions on other
# topics reach 0.77: a remembered question vouches for an answer only when it is nearly
# the same question, so a correction never leaks into a neighbouring topic.
QUESTION_COSINE = 0.8
# The question's subject: its SUBJECT_TERMS rarest words the records know. How much of it
# the best start covers is evidence for abstaining (``decisis.adr.answer``): a record that
# matches "GOV.UK infrastructure … request" but none of "merge, pull, approval" is about
# something else. Kept for the first SUBJECT_CHECKED starts.
SUBJECT_TERMS = 3
SUBJECT_CHECKED = 3


@dataclass
class StartPoints:
    """The fused ranking and the evidence behind it."""

    fused: list[Fused]
    coverage: dict[str, float] = field(default_factory=dict)  # key -> matched IDF share
    remembered: str | None = None  # a remembered question that matches closely
    remembered_answer: str | None = None
    vector_scores: dict[str, float] = field(default_factory=dict)
    term_scores: dict[str, float] = field(default_factory=dict)
    subject: dict[str, float] = field(default_factory=dict)  # key -> rarest words' share
    # records passed over because they say they leave the question's subject out
    excluded: dict[str, list[str]] = field(default_factory=dict)  # key -> the words
    # why the best start cannot give what the question's form asks for ("says nothing of how
    # long", 'names neither "A" nor "B"'), or None
    form_unmet: str | None = None
    # the records a number in the question could mean, when it is that of several ("ADR 22")
    named: list[str] = field(default_factory=list)
    # words of the question's subject that the best start alone uses, in its own text
    # ("stdout" in the logging record): the question is about what that record is about
    held_only: list[str] = field(default_factory=list)
    # the best start's sentence closest to the question in meaning, and its cosine (with an
    # embedder)
    sentence: str | None = None
    sentence_cosine: float | None = None

    @property
    def relevance(self) -> dict[str, float]:
        """How well each record matches the question, relative to the best match (0 to 1)."""
        if not self.term_scores:
            return {}
        top = max(self.term_scores.values())
        return {k: s / top for k, s in self.term_scores.items()}


def folder_words(view: AdrView) -> dict[str, set[str]]:
    """Words that name one folder: its name's words and initials (``modernisation-platform``:
    ``modernisation``, ``mp``) that no other folder name has and that records of other
    folders seldom use (``aws`` in ``govuk-aws`` is everybody's). Kept on the view."""
    cached = view.cache.get("folder-words")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    folders = sorted({str(view.meta(k).get("folder") or "") for k in view.records} - {""})
    names: dict[str, set[str]] = {}
    for folder in folders:
        parts = [p for p in re.split(r"[^a-z0-9]+", folder.lower()) if p]
        names[folder] = set(terms(" ".join(parts)))
        if len(parts) > 1:
            names[folder].add("".join(p[0] for p in parts))
    counts = Counter(w for ws in names.values() for w in ws)
    index, out = view.index, {}
    for folder, ws in names.items():
        keep = set()
        for word in ws:
            if counts[word] != 1:  # another folder's name has it: no need to scan its uses
                continue
            docs = [index.docs[slot] for slot, _ in index.postings.get(word, ())]
            here = sum(1 for d in docs if view.meta(d).get("folder") == folder)
            if not docs or here / len(docs) >= FOLDER_SHARE:
                keep.add(word)
        out[folder] = keep
    view.cache["folder-words"] = out
    return out


def named_folder(view: AdrView, question: str) -> str | None:
    """The one folder ``question`` names, if it names exactly one."""
    said = set(terms(question)) | {re.sub(r"[^a-z0-9]", "", w) for w in words(question)}
    named = [f for f, ws in folder_words(view).items() if ws & said]
    return named[0] if len(named) == 1 else None


def without_folder_name(view: AdrView, question: str, folder: str | None) -> str:
    """``question`` without the words that name ``folder`` ("GOV.UK", "MP"): they choose
    the team (``FOLDER_BOOST``), and as content they would favour the records that repeat
    the team's name over the ones about what was asked."""
    if folder is None:
        return question
    naming = folder_words(view)[folder]

    def names(word: str) -> bool:  # the whole word: "cp-cli" is a tool, not the team
        return bool(naming & {re.sub(r"[^a-z0-9]", "", word), *terms(word)[:1]})

    kept = [w for w in question.split() if not names(w.lower())]
    return " ".join(kept) if kept else question


# "live" as a verb ("Where do the Terraform modules live?", "… live in which account?"): in
# a question it asks where something is; in the records "live" is production ("the live
# cluster", "live-1"), so as a word of the question it would pull towards whatever record
# talks of production. Not after "go" ("before going live") nor in "go-live".
_LIVE_AS_VERB = re.compile(
    r"(?<!-)(?<!\bgo )(?<!\bgoing )(?<!\bgoes )(?<!\bwent )(?<!\bgone )\blive"
    r"(?=\s+(?:in|on|under|alongside|inside|within|for|so|now|there|here|together)\b"
    r"|\s*[?.!,]|\s*$)",
    re.IGNORECASE,
)


def without_live_as_verb(question: str) -> str:
    """``question`` without "live" where it is a verb (see ``_LIVE_AS_VERB``)."""
    return _LIVE_AS_VERB.sub(" ", question)


def searched_text(view: AdrView, question: str) -> str:
    """The question with the other spelling of each common abbreviation it uses
    (``single sign-on`` also as ``sso``; ``decisis.search.glossary``)."""
    extra = spelled_both_ways(question, known=view.index.postings)
    return f"{question} ({'; '.join(extra)})" if extra else question


def _term_votes(view: AdrView, asked: str, folder: str | None) -> list[Scored]:
    """BM25 hits for ``asked`` (the question without the words naming ``folder``), each
    record scored by its whole text and, at ``PASSAGE_WEIGHT``, by its best section, both
    relative to the best; the records of ``folder`` boosted."""
    text = searched_text(view, asked)
    hits = {h.doc: h for h in view.index.search(text, limit=DEPTH * 10)}
    if not hits:
        return []
    passages = best_passages(view, text, limit=DEPTH * 6)
    best_record = max(h.score for h in hits.values())
    best_passage = max(passages.values(), default=0.0) or 1.0
    scored = []
    for key in hits.keys() | passages.keys():
        hit = hits.get(key)
        score = (1.0 - PASSAGE_WEIGHT) * (hit.score / best_record if hit else 0.0)
        score += PASSAGE_WEIGHT * passages.get(key, 0.0) / best_passage
        if folder is not None and view.meta(key).get("folder") == folder:
            score *= 1.0 + FOLDER_BOOST
        coverage = hit.coverage if hit else view.index.coverage(text, key)
        scored.append(Scored(key, score * best_record, coverage))
    scored.sort(key=lambda h: (-h.score, h.doc))
    return scored[:DEPTH]


def _covers(index: TermIndex, doc: str, asked: set[str]) -> float:
    """The share of remembered question ``doc``'s weight that the words ``asked`` match:
    with the share of the new question's weight it matches (the search's coverage), it
    says whether the two are nearly the same question, not one inside the other ("How are
    MP users given access to AWS accounts?" holds most of "Should a new MP application
    get its own AWS account?", but not the other way round)."""
    slot = index.slot(doc)
    if slot is None:
        return 0.0
    own = {t: index.idf(t) for t in index.vectors[slot]}
    total = sum(own.values())
    return sum(w for t, w in own.items() if t in asked) / total if total else 0.0


def _question_votes(view: AdrView, question: str) -> tuple[list[str], Scored | None]:
    """Keys that remembered questions like this one were resolved to, and the closest one."""
    index = view.question_index
    asked = set(index.query_weights(question))
    hits = [
        h
        for h in index.search(question, limit=5)
        if h.coverage >= QUESTION_MATCH and _covers(index, h.doc, asked) >= QUESTION_MATCH
    ]
    if hits:
        from decisis.adr.vectors import question_similarities

        close = question_similarities(view, question, [h.doc for h in hits])
        if close:
            hits = [h for h in hits if close.get(h.doc, 0.0) >= QUESTION_COSINE]
    keys = []
    for hit in hits:
        answer = view.questions[view.question_index.positions[hit.doc]].metadata.get("answer")
        if isinstance(answer, str) and answer in view.records:
            keys.append(answer)
    return keys, hits[0] if hits else None


def _blend(scored: list[Scored], vectors: Mapping[str, float]) -> list[str]:
    """The terms ranking reordered by ``relative term score + VECTOR_WEIGHT * cosine``."""
    if not vectors or VECTOR_WEIGHT <= 0:
        return [s.doc for s in scored]
    top = scored[0].score if scored else 1.0
    blended = {s.doc: s.score / top for s in scored}
    for key in vectors:
        blended.setdefault(key, 0.0)
    for key in blended:
        blended[key] += VECTOR_WEIGHT * vectors.get(key, 0.0)
    return sorted(blended, key=lambda k: (-blended[k], k))[:DEPTH]


def _named_team_first(view: AdrView, fused: list[Fused], folder: str) -> list[Fused]:
    """``fused`` with the records of the team the question names first (and any a
    remembered question vouches for), each group in its order: "Do we use Vault for
    secrets on GOV.UK?" is about GOV.UK's decisions, so another team's record that
    matches better in words (one that weighed Vault) is not where it starts. When no
    record of the team matches, the order is left as it is."""
    first = [f for f in fused if "questions" in f.votes or view.meta(f.doc).get("folder") == folder]
    if not first:
        return fused
    chosen = {f.doc for f in first}
    return first + [f for f in fused if f.doc not in chosen]


def _in_scope(
    view: AdrView, question: str, fused: list[Fused]
) -> tuple[list[Fused], dict[str, list[str]]]:
    """``fused`` without the leading records that say they leave the question's subject
    out ("does not cover the disaster recovery environments"), and what each left out."""
    subject = {t for t, _ in view.index.subject_terms(question, SUBJECT_TERMS)}
    excluded: dict[str, list[str]] = {}
    if subject:
        for hit in fused[:SUBJECT_CHECKED]:
            left_out = sorted(subject & record_exclusions(view, hit.doc))
            if left_out and "questions" not in hit.votes:
                excluded[hit.doc] = left_out
    return [f for f in fused if f.doc not in excluded], excluded


def start_points(graph: Graph, view: AdrView, question: str) -> StartPoints:
    """Rank the records where ``question`` may start, by fused votes."""
    folder = named_folder(view, question)
    # also what the subject is read from
    asked = without_live_as_verb(without_folder_name(view, question, folder))
    scored = _term_votes(view, asked, folder)
    vectors = vector_scores(view, question, [s.doc for s in scored], graph)
    rankings: dict[str, list[str]] = {"terms": _blend(scored, vectors)}
    rankings["fulltext"] = [
        view.key_of[node_id]
        for node_id in fulltext_rank(graph, question, DEPTH)
        if node_id in view.key_of
    ]
    remembered, closest = _question_votes(view, question)
    if remembered:
        rankings["questions"] = remembered
    fused = fuse(rankings, VOTER_WEIGHTS, limit=DEPTH)
    if folder is not None:
        fused = _named_team_first(view, fused, folder)
    fused, excluded = _in_scope(view, asked, fused)
    named = named_records(view, question, folder)
    if len(named) == 1:  # "Is ADR-22 still in force?": it starts there, whatever it matches
        fused = [Fused(named[0], fused[0].score if fused else 1.0, {"named": 1})] + [
            f for f in fused if f.doc != named[0]
        ]
    points = StartPoints(fused, excluded=excluded, named=named if len(named) > 1 else [])
    points.coverage = {s.doc: s.coverage for s in scored}
    points.term_scores = {s.doc: s.score for s in scored}
    points.vector_scores = vectors
    points.subject = {
        f.doc: view.index.subject_coverage(asked, f.doc, SUBJECT_TERMS)
        for f in points.fused[:SUBJECT_CHECKED]
    }
    if points.fused:
        top = points.fused[0].doc
        points.form_unmet = _form_unmet(view, question, top)
        said = closest_sentence(view, question, top)
        if said is not None:
            points.sentence_cosine, points.sentence = said
        own = own_terms(view, top)
        points.held_only = [
            t
            for t in view.index.held_only_by(asked, top, SUBJECT_TERMS)
            if t in own and _names_something(asked, t)
        ]
    if closest is not None:
        node = view.questions[view.question_index.positions[closest.doc]]
        points.remembered = node.label
        answer = node.metadata.get("answer")
        points.remembered_answer = answer if isinstance(answer, str) else None
    return points


def _names_something(question: str, term: str) -> bool:
    """Whether the question's word for ``term`` names a thing ("stdout", "Ansible") rather
    than being an everyday word ("password", "nightly"). Only then does one record using it
    say the question is about that record: in a team's fifty records, many everyday words
    are used by one record only, and questions about other things use them too."""
    said = [w for w in words(question) if term in terms(w)]
    return not said or any(not is_common_word(w) for w in said)


def own_terms(view: AdrView, key: str) -> Mapping[str, int]:
    """The terms of record ``key``'s own title and text, not the words of questions a
    correction resolved to it; kept on the view."""
    kept: dict[str, Mapping[str, int]] = view.cache.setdefault("own-terms", {})
    found = kept.get(key)
    if found is None:
        found = kept[key] = term_counts(view.text_of(key))
    return found


def _form_unmet(view: AdrView, question: str, top: str) -> str | None:
    """Why record ``top`` cannot give what the question's form asks for (a length of time,
    a version, a region; one of the choices it offers, "A or B"), or ``None``."""
    kind = asked_for(question)
    if kind is not None and not kind.stated_in(view.text_of(top)):
        return f"says nothing of {kind.name}"
    for first, second in choices(question):
        if not names_a_choice((first, second), view.index, top):
            return f'names neither "{first}" nor "{second}"'
    return None


def vector_scores(
    view: AdrView, question: str, also: Sequence[str] = (), graph: Graph | None = None
) -> dict[str, float]:
    """Cosine of the question with its closest records and with ``also`` (when an
    embedder is available, else empty); record vectors are kept in ``graph``'s store."""
    from decisis.adr.vectors import similarities

    return similarities(view, question, DEPTH, also, graph)
