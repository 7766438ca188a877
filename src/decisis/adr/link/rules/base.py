"""The parts every link rule shares: trust, proposals, the records of an ingest, the registry."""

from __future__ import annotations

import bisect
import datetime as dt
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from decisis.adr.read.chronology import written_at
from decisis.adr.read.records import AdrRecord
from decisis.errors import InvalidInput
from decisis.model import LinkState
from decisis.search.terms import TermIndex, term_sequence


@dataclass(frozen=True, slots=True)
class Trust:
    """A Beta(successes, failures) belief that a rule's links are right."""

    successes: float
    failures: float

    @property
    def mean(self) -> float:
        return self.successes / (self.successes + self.failures)

    @property
    def cost(self) -> float:
        """The cost of walking one link of this trust: ``-log(mean)``."""
        return -math.log(max(self.mean, 1e-9))

    def moved(self, successes: float = 0.0, failures: float = 0.0) -> Trust:
        return Trust(self.successes + successes, self.failures + failures)


@dataclass(frozen=True, slots=True)
class Proposal:
    """One proposed link: record ``new`` replaces record ``old``, says ``rule``, because
    ``evidence``. ``partial`` marks an amendment: part of ``old`` still stands. ``named``:
    the terms of ``old``'s subject that ``new`` names as replaced (a two-word subject as its
    terms joined by a space), when the rule reads one. ``for_named``: the link speaks only
    for a question naming one of ``named``, when the rule read the part from a name alone
    ("This replaces usage of kOps": the newer record is about EKS, so its words matching a
    question tell nothing of whether the question is about the kOps part)."""

    old: str
    new: str
    rule: str
    state: LinkState
    evidence: str
    partial: bool = False
    named: tuple[str, ...] = ()
    for_named: bool = False


@dataclass
class RuleContext:
    """The records of one ingest and the term statistics the rules share."""

    records: Sequence[AdrRecord]
    by_key: dict[str, AdrRecord] = field(init=False)
    by_folder: dict[str, list[AdrRecord]] = field(init=False)  # in ``records`` order
    index: TermIndex = field(init=False)
    # Per folder, the ``order_key`` of its records sorted, and their places in ``by_folder``
    # in that order: the records written before or after one are a slice of it.
    _order: dict[str, tuple[list[tuple[dt.date, int]], list[int]]] = field(init=False, repr=False)
    _term_texts: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _when: dict[str, tuple[dt.date, int]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_key = {r.key: r for r in self.records}
        self.by_folder = {}
        for r in self.records:
            self.by_folder.setdefault(r.folder, []).append(r)
        self._when = written_at((r.key, r.folder, r.number, r.date) for r in self.records)
        self._order = {}
        for folder, members in self.by_folder.items():
            keyed = sorted((self.when(r), place) for place, r in enumerate(members))
            self._order[folder] = ([k for k, _ in keyed], [place for _, place in keyed])
        self.index = TermIndex.build((r.key, record_fields(r)) for r in self.records)

    def term_text(self, record: AdrRecord) -> str:
        """``record``'s body as its terms joined by spaces, with a space at each end (to
        find a phrase of terms with ``in``); worked out once per record."""
        found = self._term_texts.get(record.key)
        if found is None:
            found = self._term_texts[record.key] = f" {' '.join(term_sequence(record.body))} "
        return found

    def holding(self, term: str) -> list[AdrRecord]:
        """The records whose title, decision or body has the term ``term``, by its postings
        (a rule looking for the few records that use a word reads only those)."""
        docs = self.index.docs
        return [self.by_key[docs[slot]] for slot, _ in self.index.postings.get(term, ())]

    def when(self, record: AdrRecord) -> tuple[dt.date, int]:
        """When ``record`` was written (``decisis.adr.read.chronology``)."""
        return self._when[record.key]

    def later(self, a: AdrRecord, b: AdrRecord) -> bool:
        """Whether ``b`` was written after ``a`` (by date, then by number)."""
        return self.when(b) > self.when(a)

    def written_after(self, record: AdrRecord) -> list[AdrRecord]:
        """The records of ``record``'s folder written after it (see ``later``), in
        ``by_folder`` order."""
        keys, places = self._order[record.folder]
        return self._members(record, places[bisect.bisect_right(keys, self.when(record)) :])

    def written_before(self, record: AdrRecord, *, same_time: bool = False) -> list[AdrRecord]:
        """The records of ``record``'s folder written before it, in ``by_folder`` order;
        with ``same_time`` also those of the same date and number (``record`` among them)."""
        keys, places = self._order[record.folder]
        cut = bisect.bisect_right if same_time else bisect.bisect_left
        return self._members(record, places[: cut(keys, self.when(record))])

    def _members(self, record: AdrRecord, places: list[int]) -> list[AdrRecord]:
        members = self.by_folder[record.folder]
        return [members[place] for place in sorted(places)]


def record_fields(record: AdrRecord) -> dict[str, str]:
    """The texts of a record that ranking reads, by field."""
    return {"title": record.title, "decision": record.decision, "body": record.body}


def order_key(record: AdrRecord) -> tuple[dt.date, int]:
    return (record.date or dt.date.min, record.number if record.number is not None else -1)


class LinkRule(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def prior(self) -> Trust: ...
    @property
    def description(self) -> str: ...

    def propose(self, ctx: RuleContext) -> Iterable[Proposal]: ...


@dataclass(frozen=True)
class FunctionRule:
    """A rule made of a function; the easy way to write one."""

    name: str
    prior: Trust
    description: str
    fn: Callable[[RuleContext], Iterable[Proposal]]

    def propose(self, ctx: RuleContext) -> Iterable[Proposal]:
        return self.fn(ctx)


_RULES: dict[str, LinkRule] = {}


def register(rule: LinkRule) -> LinkRule:
    """Add a link rule (a later one with the same name replaces the earlier)."""
    if not rule.name or not isinstance(rule.prior, Trust):
        raise InvalidInput("rule", "a link rule needs a name and a Trust prior", "LinkRule")
    _RULES[rule.name] = rule
    return rule


def unregister(name: str) -> None:
    """Remove the rule called ``name``, if any (a rule a user turned on for a while)."""
    _RULES.pop(name, None)


def rules() -> list[LinkRule]:
    return list(_RULES.values())


def get_rule(name: str) -> LinkRule | None:
    return _RULES.get(name)


def propose_links(records: Sequence[AdrRecord]) -> list[Proposal]:
    """Every registered rule's proposals, at most one per (rule, old, new), self-links dropped."""
    ctx = RuleContext(records)
    seen: set[tuple[str, str, str]] = set()
    out: list[Proposal] = []
    for rule in rules():
        for p in rule.propose(ctx):
            marker = (p.rule, p.old, p.new)
            if (
                p.old != p.new
                and p.old in ctx.by_key
                and p.new in ctx.by_key
                and marker not in seen
            ):
                seen.add(marker)
                out.append(p)
    return out
