"""Questions that ask for a value of one kind (a length of time, a version, a cloud region),
and whether a record states one.

"How long are RDS backups retained?" and "How many days are audit logs kept?" share their
words with the record that chose RDS or the log store, yet that record answers them only
if it says how long: a decision record that states no length of time anywhere does not
answer a question asking for one, however close its words are. Likewise "Which
Elasticsearch version should the search cluster run?" and a record that names no version.
"""

from __future__ import annotations

import re

__all__ = [
    "asks_duration",
    "asks_region",
    "asks_version",
    "states_duration",
    "states_region",
    "states_version",
]

_UNITS = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|yrs?)"
_ASKS = re.compile(
    r"\bhow\s+long\b|\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|months|years)\b",
    re.IGNORECASE,
)
_COUNT = (
    r"(?:\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|fifteen|twenty|thirty|sixty|ninety|hundred|several|few)"
)
_STATES = re.compile(
    rf"\b{_COUNT}[\s-]*{_UNITS}\b|\b(?:indefinitely|forever|"
    r"hourly|daily|nightly|weekly|monthly|yearly|annually)\b",
    re.IGNORECASE,
)


def asks_duration(question: str) -> bool:
    """Whether ``question`` asks for a length of time ("how long", "how many days")."""
    return _ASKS.search(question) is not None


def states_duration(text: str) -> bool:
    """Whether ``text`` states a length of time ("30 days", "24h", "a year", "indefinitely")
    or a period ("nightly", "monthly")."""
    return _STATES.search(text) is not None


_ASKS_VERSION = re.compile(r"\b(?:which|what)\s+(?:[\w.+-]+\s+){0,3}versions?\b", re.IGNORECASE)
_STATES_VERSION = re.compile(r"\b\d+\.\d+\b|\bv\d+\b|\bversion\s+\d+", re.IGNORECASE)


def asks_version(question: str) -> bool:
    """Whether ``question`` asks which version ("Which Elasticsearch version …?")."""
    return _ASKS_VERSION.search(question) is not None


def states_version(text: str) -> bool:
    """Whether ``text`` names a version ("1.2", "v3", "version 7")."""
    return _STATES_VERSION.search(text) is not None


_ASKS_REGION = re.compile(r"\b(?:which|what)\s+(?:[\w.+-]+\s+){0,3}regions?\b", re.IGNORECASE)
# a cloud provider's region code ("eu-west-2", "us-central1", "uksouth"-style names aside)
_STATES_REGION = re.compile(
    r"\b(?:us|eu|ap|sa|ca|me|af|il|mx|cn|uk|asia|europe|australia|northamerica|southamerica)"
    r"-(?:gov-)?(?:east|west|north|south|central|northeast|southeast|northwest|southwest)\d?"
    r"(?:-\d)?\b",
    re.IGNORECASE,
)


def asks_region(question: str) -> bool:
    """Whether ``question`` asks which cloud region ("Which AWS region hosts …?")."""
    return _ASKS_REGION.search(question) is not None


def states_region(text: str) -> bool:
    """Whether ``text`` names a cloud region by its code ("eu-west-2", "europe-west1")."""
    return _STATES_REGION.search(text) is not None
