"""Every knob of answering in one frozen value, each with what it does and what chose it.

Answering reads a question, scores the records it may start from by a weighted sum of
features (``decisis.adr.answer.features``), walks from the best to what stands, and abstains
when one calibrated score says the best start does not answer it. The weights, the
abstention model and its threshold are fitted by ``decisis.adr.answer.fit`` with one corpus
held out at a time (leave-one-corpus-out over the five development corpora of
``bench/suite.toml``); the defaults below are the fit on all five, and each says so.

Tests and tuners change a setting with ``dataclasses.replace(DEFAULT_SETTINGS, …)``; nothing
here is a module global that code overwrites.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

__all__ = [
    "CHECK_NAMES",
    "DEFAULT_SETTINGS",
    "FEATURES",
    "GATE_FEATURES",
    "LEARNED",
    "AnswerSettings",
]

# What a start is scored by, in the order of ``AnswerSettings.weights``
# (``decisis.adr.answer.features`` computes them).
FEATURES = (
    "lexical",  # BM25 of the whole record over weighted fields, relative to the best record
    "passage",  # BM25 of the record's best section, relative to the best section
    "title",  # share of the question's distinctive weight the record's title holds
    "title_cosine",  # the question's cosine with the record's title alone
    "coverage",  # share of the question's distinctive (IDF) weight the record holds
    "subject",  # share of the question's subject (its rarest known words) the record holds
    "cosine",  # the question's cosine with the record's vector (default embedder)
    "sentence",  # the cosine of the record's sentence closest to the question
    "team",  # 1 when the question names the record's team (its folder), else 0
    "remembered",  # 1 when a corrected question nearly the same resolved to this record
    "recalled",  # the closest cosine of a corrected question resolved to this record, above
    # ``recall_floor`` (0 below it): corrections reach questions on the topic in other words
    "model",  # 1 when a configured model, shown the best starts, picked this record
    # (``decisis.adr.answer.rerank``; 0 without one)
    "learned_terms",  # the closest corrected question resolved to this record, by the rare
    # terms the two share (``decisis.adr.answer.memory``; 0 with learning off)
    "learned_cosine",  # ... by meaning: its cosine above ``learned_floor``, scaled to [0, 1]
)
# What corrections lend (``decisis.adr.answer.memory``): 0 for every record with learning off.
# Their weights are left out of the scale the gate reads a score on, so that weighing them
# leaves every answer given with learning off as it was.
LEARNED = frozenset({"learned_terms", "learned_cosine"})
# The named checks on a question's form (``decisis.adr.answer.checks``), in the order they apply.
CHECK_NAMES = ("named", "team", "forgotten", "scope", "form", "retired")
# What the abstention model reads of the best start, in the order of ``abstain_weights``.
GATE_FEATURES = (
    "score",  # the best start's score, relative to the most a start can score
    "margin",  # its lead over the second start, on the same scale
    "coverage",  # the share of the question's distinctive weight it holds
    "sentence",  # the cosine of its sentence closest to the question
)
"""Chosen leave-one-corpus-out on the five corpora of ``bench/suite.toml``: with ``subject``
(weight 0 in every fit) and ``cosine`` (the start's, or where its walk ends) also read, 141
of 171 right; without them 142 (govuk-aws +1, no corpus lower). ``gate.gate_readings``
still computes both."""


@dataclass(frozen=True)
class AnswerSettings:
    """How answering scores starts and decides to abstain. Frozen: change with ``replace``."""

    weights: tuple[float, ...] = (
        1.0,
        0.004,
        0.839,
        0.0,
        0.0,
        0.0,
        0.392,
        0.717,
        0.276,
        2.0,
        0.0,
        1.0,
        1.0,
        0.5,
    )
    """Weight of each of ``FEATURES`` in a start's score. Fitted by a listwise ranking loss on
    the starts that walk to a right answer (``decisis.adr.answer.fit``); the default is the
    fit on the five corpora of ``bench/suite.toml``. ``model`` is set, not fitted (1.0, the
    weight of the best lexical match): no model is reachable here to fit it on. ``learned_terms``
    (1.0) and ``learned_cosine`` (0.5) are chosen learning on, in simulated test-then-train
    orders of the same five corpora (``decisis.adr.answer.fit_learning``: 426 -> 437 right
    over three orders of 171 questions, in sample)."""

    abstain_weights: tuple[float, ...] = (1.4305, 7.5944, 2.6508, 4.16)
    """Logistic weights of ``GATE_FEATURES``: the probability that the best start answers
    the question is ``sigmoid(abstain_bias + abstain_weights · gate features)``. Fitted by
    logistic regression on whether the best start was right (``decisis.adr.answer.fit``);
    the default is the fit on the five corpora of ``bench/suite.toml`` (with the ``retired``
    check and the four gate features: ``python -m decisis.evaluation.fit bench/suite.toml``)."""

    abstain_bias: float = -4.4088
    """The logistic model's intercept (see ``abstain_weights``)."""

    abstain_below: float = 0.475
    """Abstain when the probability is below this. Chosen with the model, as the value that
    answers most questions right on the fitting corpora (the middle of the best run of a
    grid in steps of 0.025); the default is the fit on the five corpora."""

    walk_threshold: float = 0.5
    """A link is walked when the rules' belief in it reaches this (stated and confirmed links
    are certain; a rule's candidates carry its trust). Kept from the engine before (the
    development questions of ``adr-corpus``); ``decisis eval --links`` scores the links it
    believes."""

    relevance_min: float = 0.35
    """A candidate link is walked at full belief only when its newer record matches the
    question at least this share of the best match (its belief is scaled down below it): a
    record that replaced part of another is not where a question about the rest ends. Kept
    from the engine before."""

    partial_relevance_min: float = 0.7
    """A link a rule inferred for part of a record is walked only when the newer record
    matches the question this share of the best match (or ``relevance_min`` while closer in
    meaning than the older one): the question must be about that part. Kept from the engine
    before."""

    depth: int = 20
    """How many records of each ranking (terms, vectors, full text) become candidates. Not
    fitted: the right start is within the first 20 for every development question that has
    one."""

    subject_terms: int = 3
    """A question's subject is its this-many rarest words the records know. Kept from the
    engine before (three question files, topics held out)."""

    question_match: float = 0.6
    """A corrected question vouches for its record only when the two questions each hold at
    least this share of the other's distinctive weight."""

    question_cosine: float = 0.8
    """... and their cosine (default embedder) is at least this: nearly the same question.
    Paraphrases of the development set reach 0.25-0.72 with each other, questions on other
    topics up to 0.77."""

    recall_floor: float = 0.6
    """A corrected question counts for ``recalled`` only from this cosine with the question up
    (``recalled`` is the earlier form of ``learned_cosine``, kept at weight 0).
    ``recalled`` weighs 0 by default: at 0.25 (floor 0.6), chosen in simulated test-then-train
    orders, the real runs on the five corpora lost three hydra answers in three orders and
    gained one of mc-review (docs/benchmarks.md); the fit does not choose it."""

    remember: bool = True
    """Whether corrected questions count (``recall``): a baseline without decisis's memory
    turns it off."""

    checks: tuple[str, ...] = ("named", "team", "forgotten", "scope", "form", "retired")
    """The named checks on the question's form, in order (``decisis.adr.answer.checks``);
    each has its measured effect in docs/benchmarks.md. Removing one turns it off.
    ``retired`` was added measured on the five corpora of ``bench/suite.toml`` (leave one
    corpus out: one more question right, none lost)."""

    fitted_on: str = (
        "bench/suite.toml: cloud-platform, govuk-aws, hydra, mc-review, modernisation-platform"
    )
    """Which corpora chose these values (the fit writes it). The defaults are the fit on all
    five development corpora (``python -m decisis.evaluation.fit bench/suite.toml``), learning
    off; figures called held out come from ``decisis eval --suite … --loco``, which refits
    with each corpus left out."""

    learned_floor: float = 0.5
    """``learned_cosine`` counts a corrected question only where the cosine of its profile over
    the records with the question's (``decisis.adr.answer.memory.profile``) is above this, and
    above that of every question resolved to another record. Chosen with the learned weights
    (``decisis.adr.answer.fit_learning``, the five corpora of ``bench/suite.toml``; tried
    0.2, 0.35, 0.5, 0.65)."""

    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Anything a caller wants kept with the settings (the fit's figures); never read here."""

    def __post_init__(self) -> None:
        from decisis.errors import InvalidInput

        if len(self.weights) != len(FEATURES):
            raise InvalidInput("weights", f"{len(self.weights)} given", f"{len(FEATURES)} numbers")
        if len(self.abstain_weights) != len(GATE_FEATURES):
            raise InvalidInput(
                "abstain_weights", f"{len(self.abstain_weights)} given", f"{len(GATE_FEATURES)}"
            )
        if not 0.0 <= self.abstain_below <= 1.0:
            raise InvalidInput("abstain_below", f"{self.abstain_below}", "a number in [0, 1]")
        unknown = sorted(set(self.checks) - set(CHECK_NAMES))
        if unknown:
            raise InvalidInput("checks", f"names {unknown}", ", ".join(CHECK_NAMES))

    def weight(self, feature: str) -> float:
        return self.weights[FEATURES.index(feature)]

    def with_weights(self, **changes: float) -> AnswerSettings:
        """These settings with some feature weights changed by name."""
        unknown = set(changes) - set(FEATURES)
        if unknown:
            from decisis.errors import InvalidInput

            raise InvalidInput("weights", f"unknown {sorted(unknown)}", ", ".join(FEATURES))
        weights = tuple(changes.get(n, w) for n, w in zip(FEATURES, self.weights, strict=True))
        return replace(self, weights=weights)

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        out["weights"] = dict(zip(FEATURES, self.weights, strict=True))
        out["abstain_weights"] = dict(zip(GATE_FEATURES, self.abstain_weights, strict=True))
        out["checks"] = list(self.checks)
        return out

    @classmethod
    def from_dict(cls, data: object) -> AnswerSettings:
        """Settings from ``to_dict``'s form (a fit written to a file); a setting it does not
        name keeps its default, one it names that is not a setting is refused by name."""
        from decisis.errors import InvalidInput

        if not isinstance(data, dict):
            raise InvalidInput(
                "settings", "is not an object", "the form AnswerSettings.to_dict gives"
            )
        known = {f.name for f in fields(cls) if f.name != "extra"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput("settings", f"names {unknown}", ", ".join(sorted(known)))
        changes: dict[str, Any] = dict(data)
        for name, names in (("weights", FEATURES), ("abstain_weights", GATE_FEATURES)):
            given = changes.get(name)
            if isinstance(given, dict):
                base = dict(zip(names, getattr(DEFAULT_SETTINGS, name), strict=True))
                stray = sorted(set(given) - set(names))
                if stray:
                    raise InvalidInput(name, f"names {stray}", ", ".join(names))
                changes[name] = tuple(float(given.get(n, base[n])) for n in names)
            elif given is not None:
                changes[name] = tuple(given)
        if "checks" in changes:
            changes["checks"] = tuple(changes["checks"])
        try:
            return replace(DEFAULT_SETTINGS, **changes)
        except TypeError as exc:
            raise InvalidInput("settings", str(exc), "numbers and lists as to_dict gives") from None


DEFAULT_SETTINGS = AnswerSettings()
