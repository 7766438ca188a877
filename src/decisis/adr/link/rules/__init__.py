"""Link rules: each proposes ``old -> new`` supersession links between records, with evidence.

A rule is a name, a Beta prior on how often its links are right, and a ``propose``
function over the records of one ingest. The built-in rules are registered with
``register`` like any team's own::

    status-line     a status line names the replacement ("Superseded by [036](036-x.md)")
                    -> state ``stated``
    stated-in-text  a record's text says the replacement outright ("We supersede [ADR 18]
                    with the current ADR", "overrides our previous decision from ADR 004",
                    "This ADR has been superseded by [7]") -> ``stated``; the rest are
                    ``candidate``
    moves-on        an old record's body says the team moves on to a linked later record
    cites-replaced  a new record cites an older one next to replace / migrate / instead of /
                    supersede / deprecate / in favour of
    chooses-turned-down  a later record decides for what an earlier one turned down
                    ("rather than using EKS" -> a record titled "EKS")
    decides-deferred  a later record decides what an earlier one left to be decided ("with
                    future consideration of auto-scaling" -> "Use Karpenter for scaling"):
                    a partial link, the rest of the earlier record still stands
    title-replaces  a later record's title says what of an earlier one it replaces ("Replace
                    Kafka with SQS" -> the record titled "Use Kafka for order events")
    same-question   a later record of the same folder decides the same question: similar
                    distinctive terms and title, each among the other's closest
    replaced-together  two records that went together (one cites the other), each stated
                    replaced by one of two that go together: each newer one takes over
                    part of the other older one too
    ended-by-cited  "we no longer store the data as a blob (see [ADR 23])": the cited record
                    ended what an earlier record's decision did ("store form data as blobs"),
                    in part
    uses-another    a later record takes another's kind of what an earlier one chose ("We will
                    use the Modernisation Platform SSO" after "Use SSO for CP Team")
    replaces-use-of  a later record replaces the use of a thing one earlier record used
                    ("This replaces usage of kOps"): that record, in part

The shared parts are in ``base``; the built-in rules in ``cited`` (status-line, moves-on,
cites-replaced), ``named`` (names-replaced, title-replaces, with ``subjects``: what a record
decided about), ``decided_later`` (chooses-turned-down, decides-deferred), ``similar``
(same-question), ``together`` (replaced-together), ``ended`` (ended-by-cited),
``another`` (uses-another) and ``used`` (replaces-use-of).

A link's trust is its rule's Beta mean ``s / (s + f)``; its cost for a walk is
``-log(trust)``. Corrections move the counts (see ``decisis.adr.learn.corrections``).
"""

from __future__ import annotations

from decisis.adr.link.rules.another import uses_another
from decisis.adr.link.rules.base import (
    FunctionRule,
    LinkRule,
    Proposal,
    RuleContext,
    Trust,
    get_rule,
    propose_links,
    register,
    rules,
)
from decisis.adr.link.rules.cited import cites_replaced, moves_on, stated_in_text, status_line
from decisis.adr.link.rules.decided_later import chooses_turned_down, decides_deferred
from decisis.adr.link.rules.ended import ended_by_cited
from decisis.adr.link.rules.named import names_replaced, title_replaces
from decisis.adr.link.rules.similar import same_question
from decisis.adr.link.rules.together import replaced_together
from decisis.adr.link.rules.used import replaces_use_of

__all__ = [
    "FunctionRule",
    "LinkRule",
    "Proposal",
    "RuleContext",
    "Trust",
    "get_rule",
    "propose_links",
    "register",
    "rules",
]


for _rule in (
    FunctionRule(
        "status-line", Trust(9.0, 1.0), "a status line names the replacement", status_line
    ),
    FunctionRule(
        "stated-in-text",
        Trust(9.0, 1.0),
        "a record's text says outright which record replaced which",
        stated_in_text,
    ),
    FunctionRule(
        "moves-on",
        Trust(3.0, 2.0),
        "an old record says the team moves on to a later one",
        moves_on,
    ),
    FunctionRule(
        "cites-replaced",
        Trust(3.0, 2.0),
        "a new record cites an older one next to a replacement word",
        cites_replaced,
    ),
    FunctionRule(
        "names-replaced",
        Trust(3.0, 2.0),
        "a new record names what an older one decided next to a replacement word",
        names_replaced,
    ),
    FunctionRule(
        "chooses-turned-down",
        Trust(3.0, 2.0),
        "a later record decides for what an earlier one turned down",
        chooses_turned_down,
    ),
    FunctionRule(
        "decides-deferred",
        Trust(3.0, 2.0),
        "a later record decides what an earlier one left to be decided",
        decides_deferred,
    ),
    FunctionRule(
        "title-replaces",
        Trust(3.0, 2.0),
        "a later record's title names what of an earlier one it replaces",
        title_replaces,
    ),
    FunctionRule(
        "same-question",
        Trust(2.0, 3.0),
        "a later record of the same folder decides the same question",
        same_question,
    ),
    FunctionRule(
        "replaced-together",
        Trust(3.0, 2.0),
        "two records replaced together take over part of each other's older one",
        replaced_together,
    ),
    FunctionRule(
        "ended-by-cited",
        Trust(3.0, 2.0),
        "a record says a cited record ended what an earlier one decided",
        ended_by_cited,
    ),
    FunctionRule(
        "uses-another",
        Trust(3.0, 2.0),
        "a later record takes another's kind of what an earlier one chose",
        uses_another,
    ),
    FunctionRule(
        "replaces-use-of",
        Trust(3.0, 2.0),
        "a later record replaces the use of a thing one earlier record used",
        replaces_use_of,
    ),
):
    register(_rule)
