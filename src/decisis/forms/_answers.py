"""The forms of the ADR answers: an answer with its evidence, a correction (or its undo),
and what the links learnt."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from decisis.forms._base import Form, Time
from decisis.model import LinkState

if TYPE_CHECKING:
    from decisis.adr import Answer, Correction

__all__ = [
    "AnswerOut",
    "CorrectionOut",
    "Evidence",
    "ExcerptOut",
    "LearnedLink",
    "LearnedOut",
    "NoEvidence",
    "ReplacedStep",
    "RestoredLink",
    "RuleTrust",
    "TrustMove",
]


class ReplacedStep(Form):
    key: str = Field(description="The record that was replaced.")
    date: str | None
    by: str = Field(description="The record that replaced it.")
    rules: list[str] = Field(description="The rules (or statements) behind the link.")
    named: list[str] | None = Field(
        None, description="What the question named that the link says was replaced."
    )


class Evidence(Form):
    start: str = Field(description="The record the question started at.")
    votes: dict[str, int] = Field(
        description="Its place in each ranking that found it (terms, sections, vectors,"
        " questions, named)."
    )
    coverage: float = Field(description="Share of the question's distinctive weight it holds.")
    subject: float = Field(description="Share of the question's subject it holds.")
    cosine: float | None = None
    sentence: str | None = Field(None, description="The start's sentence closest to the question.")
    sentence_cosine: float | None = Field(None, description="That sentence's cosine with it.")
    probability: float | None = Field(
        None, description="The calibrated probability that it answers the question."
    )
    remembered: str | None = Field(None, description="A corrected question like this one.")


class NoEvidence(Form):
    """No record matched: nothing started anywhere."""


class ExcerptOut(Form):
    text: str
    about: list[str]


class AnswerOut(Form):
    """The record that stands for a question, or none, with how it got there."""

    question: str
    answer: str | None = Field(description="The standing record's key; null: none on record.")
    chain: list[str] = Field(description="Keys from where the question started to the answer.")
    text: str = Field(description="The compact answer.")
    tokens: int = Field(description="The text's length in cl100k tokens.")
    confidence: float
    replaced: list[ReplacedStep]
    notes: list[str]
    evidence: Evidence | NoEvidence = Field(
        description="Why it started where it did (empty when no record matched)."
    )
    excerpt: ExcerptOut | None

    @classmethod
    def of(cls, answer: Answer) -> AnswerOut:
        return cls.model_validate(answer.to_dict())


class RestoredLink(Form):
    edge: str
    from_: str = Field(alias="from", description="The judgement undone.")
    to: str = Field(description="The state the link returned to.")


class CorrectionOut(Form):
    question: str
    key: str | None
    was: str | None = Field(description="What decisis answered before.")
    node: str = Field(description="The question's node.")
    confirmed: list[str] = Field(description="Links confirmed (edge ids).")
    rejected: list[str]
    proposed: list[str]
    restored: list[RestoredLink] = Field(
        default_factory=list, description="For an undo: each link put back to its earlier state."
    )
    withdrawn: list[str] = Field(
        default_factory=list, description="For an undo: the links it had proposed, withdrawn."
    )

    @classmethod
    def of(cls, correction: Correction) -> CorrectionOut:
        return cls.model_validate(correction.to_dict())


class TrustMove(Form):
    seq: int
    at: Time
    successes: float
    failures: float
    trust: float
    by: str | None = Field(description="The question whose correction moved it.")
    undone: bool


class RuleTrust(Form):
    successes: float
    failures: float
    trust: float
    moves: list[TrustMove]


class LearnedLink(Form):
    old: str | None
    new: str | None
    rule: str | None
    state: LinkState
    confidence: float
    evidence: str | None
    partial: bool
    named: list[str]
    corrected_by: str | None


class LearnedOut(Form):
    rules: dict[str, RuleTrust]
    links: list[LearnedLink]

    @classmethod
    def of(cls, report: dict[str, Any]) -> LearnedOut:
        """``decisis.adr.learned``'s report."""
        return cls.model_validate(report)
