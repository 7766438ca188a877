"""What a record's title says gives way: "Replace Kafka with SQS" -> "Kafka".

A title is the team's one-line summary of the decision, so a title that says what it
replaces is stronger evidence than a sentence of the body, and its grammar is simple
enough to read the two sides apart: the old side is what gives way, the other side is
what the record adopts ("… with SQS", "… to GitHub Actions", "Use RDS instead of …").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

__all__ = ["TitleReplacement", "replaced_in_title"]

# The new side, after the old one: "… with SQS", "… by DocumentDB", "… to GitHub Actions".
_NEW_SIDE = r"(?:\s+(?:with|by|for|to|onto|into|in\s+favou?r\s+of)\s+.*)?"


# ``scope``: what the replacement is for, after the new side: "Replace Kafka with SQS for
# order events". Where a pattern has a lazy ``.*?`` between two words, the first word is
# taken once, atomically (``^(?>.*?…)``): whether the second word follows does not depend
# on which first word it follows, so a title of many first words and no second would only
# be read again after each.
@functools.cache
def _compiled() -> tuple[re.Pattern[str], tuple[re.Pattern[str], ...]]:
    """The scope pattern and the old-side patterns, compiled on the first title read: a
    tenth of the regex compiling a question's process did at import, for a rule only
    ingest runs."""
    scope = re.compile(
        r"^(?>.*?\s(?:with|by|to|onto|into|in\s+favou?r\s+of)\s+\S)"
        r".*?\s(?:for|as\s+the|as\s+our)\s+(?P<scope>\S.*)$",
        re.IGNORECASE,
    )
    # Read in order; the first that matches names the old side (group ``old``).
    patterns = (
        # "Mongo replacement by DocumentDB", "Jenkins replaced by GitHub Actions"
        re.compile(
            r"^(?P<old>.+?)\s+(?:replacement|replaced|superseded|migration|retired|deprecated)"
            r"\s+(?:by|with|to|in\s+favou?r\s+of)\s+\S.*$",
            re.IGNORECASE,
        ),
        # "Use RDS instead of provisioned EC2 databases", "SQS rather than Kafka"
        re.compile(r"\b(?:instead\s+of|rather\s+than)\s+(?P<old>.+)$", re.IGNORECASE),
        # "Migrate from Jenkins to GitHub Actions", "Move PublicAPI away from frontend-lb",
        # "Switch the build off Travis"
        re.compile(
            r"^(?>.*?\b(?:migrat(?:e|es|ed|ing|ion)|mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?"
            r"|transition(?:s|ed|ing)?)\b).*?\b(?:away\s+from|from|off(?:\s+of)?)"
            r"\s+(?P<old>.+?)" + _NEW_SIDE + "$",
            re.IGNORECASE,
        ),
        # "Replace Kafka with SQS", "Retire Elasticsearch in favour of OpenSearch",
        # "Decommission the Cloud Platform CLI tool", "Removal of the proxy"; whole verbs only
        # ("Dropdown component library", "Removable media" replace nothing)
        re.compile(
            r"\b(?:replac(?:e|es|ed|ing)|supersed(?:e|es|ed|ing)|retir(?:e|es|ed|ing)"
            r"|deprecat(?:e|es|ed|ing)|decomm?iss?ion(?:s|ed|ing)?|sunset(?:s|ting)?"
            r"|remov(?:e|es|ed|ing)|drop(?:s|ped|ping)?|(?:replacement|retirement|removal"
            r"|deprecation|decommissioning)\s+of|replacement\s+for)\s+(?P<old>.+?)"
            + _NEW_SIDE
            + "$",
            re.IGNORECASE,
        ),
        re.compile(r"\b(?:phas\w*\s+out|stop\s+using)\s+(?P<old>.+?)" + _NEW_SIDE + "$", re.I),
    )
    return scope, patterns


@dataclass(frozen=True, slots=True)
class TitleReplacement:
    """What a title says gives way (``old``), and what for (``scope``) when it says so."""

    old: str
    scope: str | None = None


def replaced_in_title(title: str) -> TitleReplacement | None:
    """What ``title`` says the record replaces, or ``None`` when it replaces nothing."""
    text = " ".join(title.split()).rstrip(".")
    scopes, patterns = _compiled()
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            old = found.group("old").strip(" \"'`")
            if not old:
                return None
            scope = scopes.search(text[found.end("old") :])
            return TitleReplacement(old, scope.group("scope") if scope else None)
    return None
