"""A labelled question with its candidates worked out once, and how settings answer it:
what the fit of the weights and gate (``fit``) and of what corrections lend
(``fit_learning``) both score."""

from __future__ import annotations

from dataclasses import dataclass, field

from decisis.adr.answer.checks import form_unmet
from decisis.adr.answer.engine import Settled, settle, walk_from
from decisis.adr.answer.features import Candidates
from decisis.adr.answer.settings import DEFAULT_SETTINGS, AnswerSettings
from decisis.adr.answer.walk import Walk
from decisis.adr.link.view import AdrView
from decisis.graph import Graph

__all__ = ["FitCase", "Labelled", "answered", "fit_case", "settle_case"]


@dataclass(frozen=True)
class Labelled:
    """A question with its right answer: the key that stands (or ``None``: no record
    answers it), and other keys as right."""

    text: str
    expected: str | None
    acceptable: tuple[str, ...] = ()

    def right(self, answer: str | None) -> bool:
        if answer is None:
            return self.expected is None
        return answer == self.expected or answer in self.acceptable


@dataclass
class FitCase:
    """One labelled question, with its candidates and what each start walks to."""

    group: str
    question: Labelled
    view: AdrView
    found: Candidates
    walks: dict[tuple[str, str | None], Walk] = field(default_factory=dict)
    # the walk's settings (not fitted: the walk does not depend on the weights)
    settings: AnswerSettings = DEFAULT_SETTINGS
    unmet: dict[str, str | None] = field(default_factory=dict)

    def walk(self, start: str, vouched: str | None) -> Walk:
        """The walk from ``start`` (kept: the walk does not depend on the weights)."""
        found = self.walks.get((start, vouched))
        if found is None:
            found = self.walks[(start, vouched)] = walk_from(
                self.view, self.found, start, vouched, settings=self.settings
            )
        return found

    def end(self, start: str, vouched: str | None) -> tuple[str, tuple[str, ...]]:
        """Where the walk from ``start`` ends, and its chain."""
        walked = self.walk(start, vouched)
        return walked.standing, tuple(walked.chain)

    def status(self, key: str) -> object:
        return self.view.meta(key).get("status")

    def form(self, start: str) -> str | None:
        if start not in self.unmet:
            self.unmet[start] = form_unmet(self.view, self.found.question, start)
        return self.unmet[start]


def fit_case(
    graph: Graph, group: str, question: Labelled, settings: AnswerSettings = DEFAULT_SETTINGS
) -> FitCase:
    """``question`` asked of the records of ``graph``, its candidates worked out once."""
    from decisis.adr.answer.engine import consider
    from decisis.adr.link.view import view_of

    view = view_of(graph)
    found = consider(graph, view, question.text, settings)
    return FitCase(group, question, view, found, settings=settings)


def settle_case(
    case: FitCase, settings: AnswerSettings, found: Candidates | None = None
) -> Settled:
    """How ``settings`` settle ``case`` (``found``: its candidates with what corrections lend)."""
    return settle(found or case.found, settings, case.walk, case.form, case.status)


def answered(case: FitCase, settings: AnswerSettings, found: Candidates | None = None) -> bool:
    """Whether ``case`` is answered right under ``settings`` (the gate applied)."""
    return case.question.right(settle_case(case, settings, found).answer(settings))
