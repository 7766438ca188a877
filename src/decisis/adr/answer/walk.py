"""From a start record along trusted links to the record that stands.

A link ``old -> new`` is believed with its confidence (stated and confirmed links
near 1, a rule's candidates at the rule's trust, rejected ones 0); several rules
proposing the same pair combine as independent evidence (noisy-OR). A candidate
is walked only when its belief passes ``threshold`` and ``new`` itself matches the
question well enough (belief scaled down below ``RELEVANCE_MIN``), or the question
uses the subject the rule read as replaced (``names_asked``: "the manager cluster",
which the newer record calls "our management cluster"): a record that
replaced another *in part*
(a later record on node scaling replacing one paragraph of a cluster record) is
not where a question about the other part should end. A link for part of a record is
walked only when the question is about that part (``_about_the_part``), whether a rule
inferred it, a correction confirmed it or the newer record says so ("This ADR in part
supersedes 0003"): for the rest, the older record still answers. Cycles (two records
naming each other) stop the walk at the first repeat.

Given the graph, the links come from the store in one query per walk
(``Store.supersession_region``): the records reachable from the start over pairs
nobody rejected whose links together could pass ``threshold`` (their confidences
summed, a bound on the noisy-OR; each candidate's confidence is its rule's trust,
which ``rule.trusted`` events keep there). The choice below then runs over that
small region and picks what the whole view would have given.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from decisis.adr.link.rules import Trust
from decisis.adr.link.trust import CORRECTION_RULE, link_confidence
from decisis.adr.link.view import AdrView
from decisis.graph import Graph
from decisis.model import Edge, LinkState

__all__ = [
    "JUDGED_ONLY",
    "WALK_THRESHOLD",
    "Step",
    "Walk",
    "named_subjects",
    "names_asked",
    "pair_belief",
    "pair_partial",
    "region",
    "walk",
]

WALK_THRESHOLD = 0.5
JUDGED_ONLY = 0.95  # a threshold only stated and confirmed links pass
RELEVANCE_MIN = 0.35  # a candidate's successor must match the question this well (vs the best)
# ... and one that replaced only part of a record nearly as well as the best (or at least
# as close in meaning as the older record): the question must be about that part ("scaled
# by hand", not "who runs the control plane").
PARTIAL_RELEVANCE_MIN = 0.7
MAX_STEPS = 20
# Confidences are stored to six decimals (``rule.trusted``): the floor gives way by
# more than the rounding of twenty links, so no pair the trust could believe is cut.
FLOOR_SLACK = 1e-5


@dataclass(frozen=True, slots=True)
class Step:
    """One hop: ``new`` replaces ``old``, believed with ``belief``, by these rules."""

    old: str
    new: str
    belief: float
    rules: tuple[str, ...]
    partial: bool
    named: tuple[str, ...] = ()  # what the question named that the link says was replaced


@dataclass
class Walk:
    chain: list[str]
    steps: list[Step] = field(default_factory=list)
    split: list[str] = field(default_factory=list)  # other records that also replace a step
    # records that took over part of one on the chain, not followed (``walk(whole=True)``)
    parts: list[str] = field(default_factory=list)

    @property
    def standing(self) -> str:
        return self.chain[-1]


def region(graph: Graph, view: AdrView, start: str, threshold: float) -> dict[str, list[Edge]]:
    """The links the walk from record ``start`` may follow, by the key of the record they
    replace, fetched from the store in one query (each list in id order, as in the view)."""
    edges = graph.store.supersession_region(
        graph.name,
        view.records[start].id,
        floor=max(0.0, min(1.0, threshold) - FLOOR_SLACK),
        as_of=graph.as_of,
    )
    out: dict[str, list[Edge]] = {}
    for edge in edges:
        old = view.key_of.get(edge.target)
        if old is not None and edge.metadata.get("rule") is not None:
            out.setdefault(old, []).append(edge)
    return out


def _about_the_part(
    match: float,
    meaning: Mapping[str, float],
    old: str,
    new: str,
    limits: tuple[float, float] = (RELEVANCE_MIN, PARTIAL_RELEVANCE_MIN),
) -> bool:
    """Whether a question is about the part of ``old`` that ``new`` took over: ``new``
    matches its words nearly as well as the best record (``PARTIAL_RELEVANCE_MIN``), or
    matches them at ``RELEVANCE_MIN`` and is at least as close to it in meaning as ``old``.
    Word scores are relative to a folder's counts: ingested alone, the Cloud Platform's
    Karpenter record matches "Should I install the Cluster Autoscaler on the new clusters?"
    at 0.68 of the EKS record, among all three teams' records at 0.77."""
    relevance_min, partial_min = limits
    if match >= partial_min:
        return True
    closer = new in meaning and old in meaning and meaning[new] >= meaning[old]
    return closer and match >= relevance_min


def names_asked(edges: Sequence[Edge], asked: Collection[str]) -> tuple[str, ...]:
    """The subjects the links say the newer record replaced (the ``named`` terms a rule
    read) that the question uses (a two-word subject, both its words)."""
    if not asked:
        return ()
    found = {
        subject
        for edge in edges
        for subject in named_subjects(edge)
        if all(word in asked for word in subject.split())
    }
    return tuple(sorted(found))


def named_subjects(edge: Edge) -> list[str]:
    """The subjects ``edge`` says its newer record replaced (its ``named`` metadata), or none
    when that is missing or not a list of strings (metadata is anybody's JSON)."""
    named = edge.metadata.get("named")
    if not isinstance(named, list | tuple):
        return []
    return [n for n in named if isinstance(n, str) and n.strip()]


def pair_partial(edges: Sequence[Edge]) -> bool:
    """Whether the links of one (old, new) pair replace only part of ``old``: what a record
    says outright (its status line, "in part supersedes"), when one does, else any link."""
    said = [e for e in edges if e.state is LinkState.STATED]
    return any(bool(e.metadata.get("partial")) for e in said or edges)


def pair_belief(edges: Sequence[Edge], trust: dict[str, Trust]) -> tuple[float, bool] | None:
    """The belief that the links ``edges`` of one (old, new) pair replace old by new, as
    independent evidence (noisy-OR of their confidences), and whether one of them is stated
    or confirmed; ``None`` when one of them was rejected."""
    if any(e.state is LinkState.REJECTED for e in edges):
        return None
    doubt = 1.0
    for edge in edges:
        doubt *= 1.0 - link_confidence(edge, trust)
    judged = any(e.state in (LinkState.STATED, LinkState.CONFIRMED) for e in edges)
    return 1.0 - doubt, judged


def _options(
    view: AdrView,
    current: str,
    relevance: Mapping[str, float],
    successors: Mapping[str, Sequence[Edge]],
    whole: bool = False,
    meaning: Mapping[str, float] | None = None,
    asked: Collection[str] = (),
    limits: tuple[float, float] = (RELEVANCE_MIN, PARTIAL_RELEVANCE_MIN),
) -> list[Step]:
    """The successors of ``current`` with the belief that they replace it for this question
    (with ``whole``, a question about ``current`` itself: every successor matches it);
    ``meaning`` is each record's cosine with the question, where known."""
    by_new: dict[str, list[Edge]] = {}
    for edge in successors.get(current, ()):
        new = view.key_of.get(edge.source)
        if new is not None:
            by_new.setdefault(new, []).append(edge)
    steps = []
    for new, edges in by_new.items():
        believed = pair_belief(edges, view.trust)
        if believed is None:
            continue
        belief, judged = believed
        match = 1.0 if whole else relevance.get(new, 0.0)
        partial = pair_partial(edges)
        # the question names what the newer record says it replaced: about that, whatever
        # else the newer record's words match
        named = names_asked(edges, asked)
        # a link that speaks only for the part a rule named ("replaces usage of kOps") is
        # about a question naming it, whatever else the newer record's words match
        for_named = not judged and all(e.metadata.get("for_named") is True for e in edges)
        about = bool(named) or (
            (whole or not for_named) and _about_the_part(match, meaning or {}, current, new, limits)
        )
        if partial and not about:
            # a link for part of a record speaks only for that part, even once a correction
            # confirmed it or when the newer record says so ("This ADR in part supersedes
            # 0003"): for what the rest decides, the older record still answers
            continue
        if all(e.metadata.get("rule") == CORRECTION_RULE for e in edges) and not judged:
            # a link only one correction proposed is not walked until a second one agrees
            continue
        if judged:
            belief = max(belief, JUDGED_ONLY)
        elif match < limits[0] and not named:
            belief *= match / limits[0]
        rules = tuple(sorted({str(e.metadata.get("rule")) for e in edges}))
        steps.append(Step(current, new, belief, rules, partial, named))
    # Among believed successors the newest stands: a record written later decides last.
    return sorted(steps, key=lambda s: (-round(s.belief, 1), view.order(s.new), s.new))


def walk(
    view: AdrView,
    start: str,
    relevance: Mapping[str, float],
    threshold: float = WALK_THRESHOLD,
    *,
    graph: Graph | None = None,
    whole: bool = False,
    meaning: Mapping[str, float] | None = None,
    asked: Collection[str] = (),
    limits: tuple[float, float] = (RELEVANCE_MIN, PARTIAL_RELEVANCE_MIN),
) -> Walk:
    """Follow the best believed successor from ``start`` until none passes ``threshold``.

    With ``graph``, the links come from its store in one query (``region``); without,
    from the view's copy of every link. Both give the same walk. With ``whole`` (the
    question asks about the start record as a whole, by name), ``relevance`` does not count:
    every believed link is followed, except those that replaced only part of a record,
    whose newer records are listed in ``Walk.parts``. ``meaning`` (each record's cosine
    with the question, where known) lets a link for part of a record be followed by a
    question closer in meaning to the newer record (``_about_the_part``); ``asked`` (the
    question's terms) lets a link be followed by a question naming what it replaced.
    """
    successors = view.successors if graph is None else region(graph, view, start, threshold)
    result = Walk([start])
    seen = {start}
    for _ in range(MAX_STEPS):
        current = result.chain[-1]
        options = [
            s
            for s in _options(view, current, relevance, successors, whole, meaning, asked, limits)
            if s.new not in seen
        ]
        passing = [s for s in options if s.belief >= threshold]
        if whole:
            result.parts += [s.new for s in passing if s.partial and s.new not in result.parts]
            passing = [s for s in passing if not s.partial]
        if not passing:
            break
        best = passing[0]
        result.split += [s.new for s in passing[1:]]
        result.steps.append(best)
        result.chain.append(best.new)
        seen.add(best.new)
    return result
