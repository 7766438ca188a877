"""Check a plan against what stands: for each step, what it uses that was replaced or
turned down, with the record that stands now and why.

A step leans on a premise (``decisis.plans.premises``) when it names a **distinctive** term
of it that what stands does not also carry. Distinctive: rare among the graph's decisions
(``CheckSettings.min_idf``), not an everyday English word, and used by no standing
decision at all (a term some standing decision still decides with is in use, whatever an
old one said about it). Precision comes first: a plan check that cries wolf is turned off.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from decisis.graph import Graph
from decisis.model import Node
from decisis.plans.premises import Premise, PremiseKind, Premises, gather
from decisis.plans.steps import Step, split_steps
from decisis.search.text import as_written, terms, words

__all__ = ["DEFAULT_CHECK", "CheckSettings", "Finding", "PlanCheck", "StepCheck", "check_plan"]


@dataclass(frozen=True, slots=True)
class CheckSettings:
    """The plan check's knobs, chosen on ``bench/plans-dev.jsonl`` (66 steps written from five
    teams' records, each team's graph on its own; ``bench/plan_check.py``, docs/stale.md).
    The thresholds were swept together: 2.5 and 3.5 keep precision 1.0 at recall 0.54 there;
    picked on four teams and scored on the fifth, precision 0.875 at recall 0.54."""

    min_idf: float = 2.5
    """A term of a premise's title, chosen options or turned-down phrase names it only if at
    least this rare among the graph's decisions (BM25 IDF over titles and decision texts,
    rarity judged as among at least ``min_records``). At 2.0: precision 0.84, same recall."""
    min_records: int = 50
    """Rarity in a small graph says little: a term is judged as if among at least this many
    decisions, so in a graph of five a term two of them use is still rare enough."""
    everyday_rows: int = 7500
    """A word among the first this many whole words of the shipped vocabulary (roughly by
    how often English uses them: "health", "single", "network", "framework" at 7,500) names
    no tool or product; "jenkins" is past 10,000, "python" past 15,000."""
    any_standing: bool = True
    """A term any standing decision uses (not only what replaced the premise) is in use."""
    min_idf_text: float = 3.5
    """A replaced decision's text (its rationale: an ADR's decision section) names it too,
    by terms at least this rare: the text is long and tells of much besides what was
    chosen, so it needs rarer words than the title. At 2.5: precision 0.71, recall 0.58;
    at 3.0 one finding more than at 3.5, the same recall."""
    phrase_terms: int = 2
    """A standing decision's phrase of what it turned down ("instead of Create React App")
    is named only by a step holding at least this many of its terms, one distinctive."""
    max_findings: int = 3
    """At most this many findings a step, the strongest first."""


DEFAULT_CHECK = CheckSettings()


@dataclass(frozen=True, slots=True)
class Finding:
    """A step names what no longer stands: the ``premise`` (a replaced decision, a rejected
    option, or a standing decision that turned the thing down), what ``standing`` now, the
    words of the step that name it, and a one-line ``reason``."""

    kind: PremiseKind
    premise: Node
    standing: tuple[Node, ...]
    words: tuple[str, ...]
    reason: str
    weight: float
    premise_key: str | None = None
    standing_keys: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class StepCheck:
    step: Step
    findings: list[Finding]


@dataclass(frozen=True, slots=True)
class PlanCheck:
    """Every step of a plan with its findings (none for most)."""

    steps: list[StepCheck] = field(default_factory=list)

    @property
    def findings(self) -> int:
        return sum(len(s.findings) for s in self.steps)


class _Rarity:
    """BM25 IDF of terms over the graph's decisions, and the everyday-word test."""

    def __init__(self, premises: Premises, settings: CheckSettings) -> None:
        self.df = Counter(t for doc in premises.documents for t in doc)
        self.n = max(len(premises.documents), settings.min_records)
        self.settings = settings

    def idf(self, term: str) -> float:
        n = self.df.get(term, 0)
        return math.log(1.0 + (self.n - n + 0.5) / (n + 0.5))


_ENDINGS = ("s", "es", "ed", "d", "ing")


def _everyday(word: str, rows: int) -> bool:
    """Whether ``word`` or its base form ("builds": "build") is an everyday English word."""
    from decisis.search.embed_static import is_common_word

    forms = [word] + [word[: -len(e)] for e in _ENDINGS if word.endswith(e) and len(word) > 4]
    return any(is_common_word(form, among=rows) for form in forms)


@dataclass(frozen=True, slots=True)
class _Said:
    """A step's terms (a dotted or dashed compound as one: "cypress-axe" is not "cypress"),
    and those of its words that could name a thing, each with the word as written."""

    text: str
    terms: frozenset[str]
    names: dict[str, str]


def _whole_terms(text: str) -> set[str]:
    """``text``'s terms with each compound whole: "trussworks/react-uswds" is not "react"."""
    return {found[0] for word in words(text) if (found := terms(word))}


def _step_terms(text: str, rows: int) -> _Said:
    every: set[str] = set()
    names: dict[str, str] = {}
    for word in words(text):
        found = terms(word)[:1]  # a compound's whole, not its parts
        every.update(found)
        if found and not _everyday(word, rows):
            names.setdefault(found[0], word)
    return _Said(text, frozenset(every), names)


def _label(node: Node, keys: dict[str, str]) -> str:
    key = keys.get(node.id)
    return f"{key} {node.label!r}" if key else f"{node.id[:13]} {node.label!r}"


def _reason(premise: Premise, named: list[str], keys: dict[str, str]) -> str:
    said = ", ".join(named)
    now = " and ".join(_label(n, keys) for n in premise.standing) or "nothing recorded"
    if premise.kind == "replaced":
        return f"names {said} of {_label(premise.node, keys)}, replaced by {now}"
    if premise.kind == "turned-down":
        return f"names {said}, which {now} turned down"
    return f"names {said}: option {premise.node.label!r} was rejected by {now}"


@dataclass(frozen=True, slots=True)
class _Read:
    """A premise with the terms of each of its texts, worked out once a check."""

    premise: Premise
    texts: tuple[frozenset[str], ...]
    gone: frozenset[str]


def _read(premises: Premises, settings: CheckSettings) -> list[_Read]:
    in_use = premises.in_use if settings.any_standing else set()
    return [
        _Read(p, tuple(frozenset(_whole_terms(t)) for t in p.texts), p.carried | in_use)
        for p in premises.items
    ]


def _hits(read: _Read, step: _Said, rarity: _Rarity, settings: CheckSettings) -> list[str]:
    """The distinctive terms of a premise that the step names, rarest first."""
    premise, gone = read.premise, read.gone
    hits: set[str] = set()
    for index, said in enumerate(read.texts):
        floor = settings.min_idf
        if premise.kind == "replaced" and index == 1:  # (title, rationale, options…)
            floor = settings.min_idf_text
        named = {t for t in said - gone if t in step.names and rarity.idf(t) >= floor}
        if premise.kind == "turned-down" and len(said & step.terms) < settings.phrase_terms:
            continue  # a phrase of a long text: one word in common is too little
        hits |= named
    return sorted(hits, key=lambda t: (-rarity.idf(t), t))


def _findings(
    step: _Said, reads: list[_Read], keys: dict[str, str], rarity: _Rarity, settings: CheckSettings
) -> list[Finding]:
    found = []
    for read in reads:
        hits = _hits(read, step, rarity, settings)
        if not hits:
            continue
        premise = read.premise
        named = list(dict.fromkeys(as_written(step.text, t) for t in hits))
        found.append(
            Finding(
                premise.kind,
                premise.node,
                premise.standing,
                tuple(named),
                _reason(premise, named, keys),
                round(sum(rarity.idf(t) for t in hits), 4),
                keys.get(premise.node.id),
                tuple(keys.get(n.id) for n in premise.standing),
            )
        )
    replaced_by = {n.id for f in found if f.kind == "replaced" for n in f.standing}
    found = [f for f in found if f.kind != "turned-down" or f.premise.id not in replaced_by]
    found.sort(key=lambda f: (-f.weight, f.premise.id))
    return found[: settings.max_findings]


def check_plan(graph: Graph, plan: str, settings: CheckSettings = DEFAULT_CHECK) -> PlanCheck:
    """Each step of ``plan`` (``split_steps``) with what it names that no longer stands."""
    steps = split_steps(plan)
    premises = gather(graph)
    rarity = _Rarity(premises, settings)
    reads = _read(premises, settings)
    checked = []
    for step in steps:
        said = _step_terms(step.text, settings.everyday_rows)
        checked.append(StepCheck(step, _findings(said, reads, premises.keys, rarity, settings)))
    return PlanCheck(checked)
