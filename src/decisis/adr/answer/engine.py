"""``ask``: what do we do about X today? The record that stands, its history, or no answer.

1. Read the question once (``question``).
2. Gather the records it may start from, each with its features (``features``), and score
   them by the settings' weights.
3. Apply the named checks on its form, in order (``checks``).
4. Walk from the best start along believed links to the record that stands (``walk``).
5. Abstain when the calibrated probability that the best start answers is below the
   settings' threshold (``gate``), unless the question names the record or a corrected
   question nearly the same vouches for it; or when the walk ends at a record marked
   superseded or deprecated that no record replaces (the ``retired`` check).
6. Say it in about 130 tokens (``render``).

The steps are functions of their inputs, so ``decisis.adr.answer.fit`` runs the same ones
when it fits the settings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from decisis.adr.answer.checks import SCOPE_CHECKED, form_unmet
from decisis.adr.answer.excerpt import excerpt
from decisis.adr.answer.features import Candidates, candidates
from decisis.adr.answer.gate import gate_values, probability
from decisis.adr.answer.question import parse_question
from decisis.adr.answer.render import (
    NOTHING_INGESTED,
    RETIRED,
    Answer,
    abstained,
    check_question,
    notes_of,
    render,
    summary_of,
    which_record,
)
from decisis.adr.answer.rerank import active_reranker
from decisis.adr.answer.settings import DEFAULT_SETTINGS, FEATURES, AnswerSettings
from decisis.adr.answer.walk import Walk, walk
from decisis.adr.link.view import AdrView, view_of
from decisis.graph import Graph

__all__ = [
    "Ordered",
    "Settled",
    "ask",
    "consider",
    "decide",
    "order",
    "prepare",
    "settle",
    "walk_from",
]


@dataclass(frozen=True)
class Ordered:
    """Where a question may start after the checks on its form: the starts by score, what
    vouches for the best (``"named"``, ``"questions"``), or why there is no answer."""

    ranked: list[tuple[str, float]]
    vouched: str | None = None
    why: str | None = None
    which: tuple[str, ...] = ()  # the records a number the question gives could mean


def consider(graph: Graph | None, view: AdrView, text: str, settings: AnswerSettings) -> Candidates:
    """The question read once, and its candidate starts with their features (with a model
    reranker configured, the record it picks among the best gets its ``model`` feature)."""
    question = parse_question(view, text, settings.subject_terms)
    found = candidates(graph, view, question, settings)
    reranker = active_reranker()
    if reranker is not None and found.keys:
        best = [key for key, _ in found.ranked(settings)[: reranker.top]]
        picked = reranker.pick(view, text, best)
        if picked is not None:
            at, row = FEATURES.index("model"), found.keys.index(picked)
            values = list(found.values[row])
            values[at] = 1.0
            found.values[row] = tuple(values)
            found.ranks[picked]["model"] = 1
    return found


def order(found: Candidates, settings: AnswerSettings) -> Ordered:
    """The starts by score after the checks ``named``, ``forgotten``, ``team`` and ``scope``
    (``form`` needs the best start, and ``settle`` applies it)."""
    question, checks = found.question, settings.checks
    if "named" in checks and len(question.named) > 1:
        return Ordered([], why="the record number is that of several records", which=question.named)
    recalled = found.remembered
    if "forgotten" in checks and recalled is not None and recalled.answer is None:
        return Ordered([], why=f'a question like it ("{recalled.label}") was answered: no record')
    ranked = found.ranked(settings)
    if "named" in checks and len(question.named) == 1:
        named = question.named[0]
        score = ranked[0][1] if ranked else 1.0
        return Ordered([(named, score), *[r for r in ranked if r[0] != named]], "named")
    vouched = set(recalled.keys) if recalled else set()
    if "team" in checks and question.folder is not None:
        ranked = _team_first(found, ranked, question.folder, vouched)
    if "scope" in checks and found.excluded:
        leading = {k for k, _ in ranked[:SCOPE_CHECKED]}
        dropped = [k for k in found.excluded if k in leading and k not in vouched]
        if dropped and len(dropped) == len(leading):
            key = next(k for k, _ in ranked if k in dropped)
            left_out = ", ".join(found.excluded[key])
            return Ordered([], why=f"{key}, the closest record, says it does not cover {left_out}")
        ranked = [r for r in ranked if r[0] not in dropped]
    if not ranked:
        return Ordered([], why="no record shares its words")
    return Ordered(ranked, "questions" if ranked[0][0] in vouched else None)


def _team_first(
    found: Candidates, ranked: list[tuple[str, float]], folder: str, vouched: set[str]
) -> list[tuple[str, float]]:
    """``ranked`` with the named team's records that share the question's words first (and
    any a remembered question vouches for), each group in its order."""
    folders = found.folders
    first = [
        r
        for r in ranked
        if r[0] in vouched or (folders.get(r[0]) == folder and found.value(r[0], "lexical") > 0)
    ]
    if not first:
        return ranked
    chosen = {k for k, _ in first}
    return first + [r for r in ranked if r[0] not in chosen]


def walk_from(
    view: AdrView,
    found: Candidates,
    start: str,
    vouched: str | None,
    graph: Graph | None = None,
    settings: AnswerSettings = DEFAULT_SETTINGS,
) -> Walk:
    """The walk from ``start`` to what stands, as answering takes it: a start a corrected
    question nearly the same vouches for is the answer (a person said so, knowing what
    replaced it); a record asked about by name is asked about whole."""
    if vouched == "questions":
        return Walk([start])
    return walk(
        view,
        start,
        found.relevance,
        settings.walk_threshold,
        graph=graph,
        whole=vouched == "named",
        meaning=found.cosines,
        asked=found.question.terms,
        limits=(settings.relevance_min, settings.partial_relevance_min),
    )


def _evidence(found: Candidates, ordered: Ordered, chance: float | None) -> dict[str, Any]:
    if not ordered.ranked:
        return {}
    top = ordered.ranked[0][0]
    if top not in found.keys:
        return {"start": top, "votes": {"named": 1}, "coverage": 0.0, "subject": 0.0}
    out: dict[str, Any] = {
        "start": top,
        "votes": dict(found.ranks.get(top, {})),
        "coverage": round(found.value(top, "coverage"), 4),
        "subject": round(found.value(top, "subject"), 4),
    }
    if top in found.cosines:
        out["cosine"] = round(found.cosines[top], 4)
    if top in found.sentences:
        out["sentence_cosine"] = round(found.sentences[top][0], 4)
        out["sentence"] = found.sentences[top][1]
    if chance is not None:
        out["probability"] = round(chance, 4)
    if found.remembered is not None:
        out["remembered"] = found.remembered.label
    return out


@dataclass(frozen=True)
class Settled:
    """What answering decides for one question before it says it: the ordered starts, and
    unless a check abstained, the walk from the best start and the gate's values (``None``
    when something vouches for the start, and the gate does not decide)."""

    ordered: Ordered
    unmet: str | None = None  # why the best start cannot give the form the question asks
    walked: Walk | None = None
    gate: tuple[float, ...] | None = None
    retired: str | None = None  # the status of where the walk ends, when nobody should follow it

    def chance(self, settings: AnswerSettings) -> float | None:
        """The gate's probability that the best start answers, when the gate decides."""
        return None if self.gate is None else probability(self.gate, settings)

    def answer(self, settings: AnswerSettings) -> str | None:
        """The record answered, or ``None`` when a check or the gate abstains."""
        chance = self.chance(settings)
        if self.walked is None or (chance is not None and chance < settings.abstain_below):
            return None
        return None if self.retired else self.walked.standing


Walker = Callable[[str, "str | None"], Walk]  # (start, what vouches for it) -> the walk


def settle(
    found: Candidates,
    settings: AnswerSettings,
    walker: Walker,
    unmet_of: Callable[[str], str | None],
    status_of: Callable[[str], object] | None = None,
) -> Settled:
    """The steps of answering that decide, in order: the checks, the walk, the gate's values.
    ``decide`` and the fit (``decisis.adr.answer.fit``, which keeps each walk and each form
    check of a question) both run them, so the fit scores what answering does. ``status_of``
    gives a record's status (for the ``retired`` check; without it, that check is off)."""
    ordered = order(found, settings)
    if ordered.why is not None or not ordered.ranked:
        return Settled(ordered)
    start = ordered.ranked[0][0]
    walked = walker(start, ordered.vouched)
    if "form" in settings.checks and ordered.vouched is None:
        # what is answered is where the walk ends: a record that replaced the start may
        # state the value the start does not ("which version" of a tool a later record chose)
        unmet = unmet_of(start)
        if unmet is not None and (walked.standing == start or unmet_of(walked.standing)):
            return Settled(ordered, unmet=unmet)
    if ordered.vouched is not None:
        return Settled(ordered, walked=walked)
    values = gate_values(found, ordered.ranked, settings, walked.standing, walked.chain)
    retired = None
    if "retired" in settings.checks and status_of is not None:
        status = status_of(walked.standing)
        retired = str(status) if status in RETIRED else None
    return Settled(ordered, walked=walked, gate=values, retired=retired)


def decide(
    view: AdrView,
    found: Candidates,
    settings: AnswerSettings = DEFAULT_SETTINGS,
    *,
    graph: Graph | None = None,
    walk_links: bool = True,
) -> Answer:
    """Turn the candidates of one question into its answer."""
    text = found.question.text

    def walker(start: str, vouched: str | None) -> Walk:
        if not walk_links:
            return Walk([start])
        return walk_from(view, found, start, vouched, graph, settings)

    settled = settle(
        found,
        settings,
        walker,
        lambda key: form_unmet(view, found.question, key),
        lambda key: view.meta(key).get("status"),
    )
    ordered = settled.ordered
    if ordered.which:
        return which_record(view, text, list(ordered.which))
    if ordered.why is not None:
        return abstained(text, ordered.why)
    start = ordered.ranked[0][0]
    if settled.unmet is not None:
        why = f"{start}, the closest record, {settled.unmet}"
        return abstained(text, why, _evidence(found, ordered, None))
    assert settled.walked is not None  # no check abstained: the best start was walked from
    result = settled.walked
    chance = settled.chance(settings)
    if chance is not None and chance < settings.abstain_below:
        why = "the closest record is about something else"
        return abstained(text, why, _evidence(found, ordered, chance))
    if settled.retired is not None:
        end = result.standing
        led = "the closest record" if end == start else f"where the closest record {start} leads"
        why = (
            f'{end} "{view.records[end].label}", {led}, is marked {settled.retired} and no '
            "record says what replaced it"
        )
        return abstained(text, why, _evidence(found, ordered, chance))
    notes = notes_of(view, result)
    summary = summary_of(view, result.standing)
    quote = excerpt(view, result.standing, text, summary)
    belief = 1.0
    for step in result.steps:
        belief *= step.belief
    replaced = [
        {
            "key": s.old,
            "date": view.meta(s.old).get("date"),
            "by": s.new,
            "rules": list(s.rules),
            **({"named": list(s.named)} if s.named else {}),
        }
        for s in result.steps
    ]
    return Answer(
        text,
        result.standing,
        result.chain,
        render(view, result, notes, summary, quote),
        (chance if chance is not None else 1.0) * belief,
        replaced,
        notes,
        start,
        _evidence(found, ordered, chance),
        quote,
    )


def ask(
    graph: Graph,
    question: str,
    settings: AnswerSettings = DEFAULT_SETTINGS,
    *,
    follow_links: bool = True,
) -> Answer:
    """Answer ``question`` from the records ingested into ``graph`` (without walking the
    links to what stands when ``follow_links`` is false: the best start is the answer)."""
    check_question(question)
    view = view_of(graph)
    if not view.records:
        return abstained(question, NOTHING_INGESTED)
    found = consider(graph, view, question, settings)
    return decide(view, found, settings, graph=graph, walk_links=follow_links)


def prepare(graph: Graph) -> int:
    """Derive now what the first question on ``graph`` would: the view of its records, the
    index of their sections, their vectors (kept in the store) and the words naming each
    team. A server calls it before taking requests so that its first asker does not wait
    for it (seconds at 5,000 records, a minute at 50,000). Returns the number of records."""
    from decisis.adr.answer.passages import passage_index
    from decisis.adr.answer.question import folder_words
    from decisis.adr.answer.vectors import record_matrix

    view = view_of(graph)
    if view.records:
        passage_index(view)
        folder_words(view)
        record_matrix(view, graph)
    return len(view.records)
