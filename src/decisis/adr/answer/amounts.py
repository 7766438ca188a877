"""Questions that ask for a value of one kind (a length of time, a version, a service level,
a cloud region), and whether a record states one.

"How long are RDS backups retained?" and "How many days are audit logs kept?" share their
words with the record that chose RDS or the log store, yet that record answers them only
if it says how long: a decision record that states no length of time anywhere does not
answer a question asking for one, however close its words are. Likewise "Which
Elasticsearch version should the search cluster run?" and a record that names no version,
or "What availability SLA does the platform commit to?" and one that states no percentage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["KINDS", "Kind", "asked_for"]

_UNITS = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|yrs?)"
_COUNT = (
    r"(?:\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|fifteen|twenty|thirty|sixty|ninety|hundred|several|few)"
)


def _which(noun: str) -> re.Pattern[str]:
    """ "which/what" and up to three words before ``noun``: "Which Elasticsearch version"."""
    return re.compile(rf"\b(?:which|what)\s+(?:[\w.+-]+\s+){{0,3}}{noun}s?\b", re.IGNORECASE)


# "Which Ubuntu release …?" asks for a version too; "Which release process …?", "What CI
# release pipeline …?" do not: a name before "release" and no noun it qualifies after it.
_RELEASE = (
    r"\b(?:which|what)\s+(?:[\w.+-]+\s+){1,3}releases?\b"
    r"(?!\s+(?:process|pipeline|notes?|cycles?|train|branch|strateg\w*|schedule|automation|"
    r"jobs?|tags?|candidates?|management|tooling|workflows?))"
)


@dataclass(frozen=True)
class Kind:
    """A kind of value a question asks for: how the question asks, how a record states it."""

    name: str  # as the answer says it: "how long", "which version"
    asks: re.Pattern[str]
    states: re.Pattern[str]

    def stated_in(self, text: str) -> bool:
        """Whether ``text`` (a record) states a value of this kind."""
        return self.states.search(text) is not None


KINDS: tuple[Kind, ...] = (
    Kind(
        "how long",
        re.compile(
            r"\bhow\s+long\b|\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|months|years)\b",
            re.IGNORECASE,
        ),
        # "30 days", "24h", "a year", "indefinitely", or a period: "nightly"
        re.compile(
            rf"\b{_COUNT}[\s-]*{_UNITS}\b|\b(?:indefinitely|forever|"
            r"hourly|daily|nightly|weekly|monthly|yearly|annually)\b",
            re.IGNORECASE,
        ),
    ),
    Kind(
        "which version",
        re.compile(f"{_which('version').pattern}|{_RELEASE}", re.IGNORECASE),
        re.compile(r"\b\d+\.\d+\b|\bv\d+\b|\bversion\s+\d+", re.IGNORECASE),  # "1.2", "v3"
    ),
    Kind(
        "which service level",
        # "What availability SLA does the platform commit to?", "Which uptime target …?"
        re.compile(
            r"\b(?:what|which)\b[^?.]{0,60}?\b(?:SLAs?|SLOs?|uptime|service[- ]levels?)\b",
            re.IGNORECASE,
        ),
        re.compile(r"\b\d+(?:\.\d+)?\s?(?:%|per\s?cent\b)|\bnines\b", re.IGNORECASE),  # "99.9%"
    ),
    Kind(
        "which region",
        _which("region"),
        # a cloud provider's region code: "eu-west-2", "europe-west1", "us-gov-west-1"
        re.compile(
            r"\b(?:us|eu|ap|sa|ca|me|af|il|mx|cn|uk|asia|europe|australia|northamerica|"
            r"southamerica)-(?:gov-)?(?:east|west|north|south|central|northeast|southeast|"
            r"northwest|southwest)\d?(?:-\d)?\b",
            re.IGNORECASE,
        ),
    ),
)


def asked_for(question: str) -> Kind | None:
    """The kind of value ``question`` asks for, if it asks for one of :data:`KINDS`."""
    return next((kind for kind in KINDS if kind.asks.search(question)), None)
