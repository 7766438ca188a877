"""Words as ranking sees them: lower case, stop words out, a light suffix strip.

Queries and records go through the same function, so the crude stemming only has to
be consistent, not linguistically right: ``pipelines``/``pipeline`` and
``scaling``/``scaled``/``scale`` meet; ``kubernetes`` becomes ``kubernete`` on both
sides, which is fine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from decisis.search.words import same_names, stop_words

__all__ = ["SAME_NAME", "STOP_WORDS", "as_written", "stem", "terms", "words"]

# A link target ends at the first ")", "(" or space: "[a]([a]([a](…" is read in linear time.
_URL = re.compile(r"https?://\S+|\]\([^()\s]*+\)")
_DATE = re.compile(r"^\d{1,4}([-/.])\d{1,2}\1\d{1,4}$")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#]*(?:[.\-_/][a-z0-9+#]+)*")
# English contractions and the possessive: "we've", "don't", "team's" are "we", "do",
# "team". Split at the apostrophe, their tails ("ve", "ll", "re", "don") would be words
# that decision records seldom write and questions often do: rare, so weighty, and
# matching whichever record happens to say "we've".
_NOT = re.compile(r"\b(?:(wo)|(ca)|(sha)|(ai)|([a-z]+))n['\u2019]t\b")
_TAIL = re.compile(r"(?<=[a-z])['\u2019](?:s|ve|ll|re|d|m)\b")
_NOT_STEMS = {1: "will", 2: "can", 3: "shall", 4: "is"}

# Function words, question words and words every decision record uses ("we", "use",
# "should", "decision"): they say nothing about which record answers a question. The list is
# data, each word with its origin (``decisis.search.words``).
STOP_WORDS = stop_words()


_MIN_ATION_STEM = 3  # "rotation" -> "rotate", "creation" -> "create"; "station" stays
_MIN_MENT_STEM = 5  # "deployment" -> "deploy", but "document", "comment" stay whole
_DOUBLING = frozenset({"ing", "ed", "edly"})  # suffixes that double a final consonant


def _doubled(word: str) -> bool:
    """Whether ``word`` ends in a doubled consonant that a suffix doubled ("logg" of
    "logging"), not one the word has ("install", "pass", "buzz"), and keeps three letters
    without it ("add" of "added" stays)."""
    last = word[-1]
    return len(word) > 3 and word[-2] == last and last not in "aeioulsz"


# British spellings in their American form, so that "centralise" meets "centralize" and
# "behaviour" meets "behavior" (records and questions are often written on either side):
# a British piece, its American one, and the endings it is found before, after at least
# three letters ("organisation", not "raise").
_BRITISH = (
    ("is", "iz", ("e", "ed", "es", "ing", "er", "ers", "ation", "ations")),
    ("ys", "yz", ("e", "ed", "es", "ing")),
    ("our", "or", ("", "s", "ed", "ing", "able", "ite", "ites")),
)


def _american(word: str) -> str:
    for british, american, endings in _BRITISH:
        for ending in endings:
            tail = british + ending
            if word.endswith(tail) and len(word) - len(tail) >= 3:
                return word[: len(word) - len(tail)] + american + ending
    return word


# Two names engineers use for one thing: one term for both, so a question saying one finds
# a record writing the other. A product's everyday short name ("Postgres" for PostgreSQL),
# the spoken word for a machine ("my test box", "an EC2 box": records write "instance"),
# and "auth" for authentication ("IAM auth"). Not abbreviations (``decisis.search.glossary``
# spells those out at question time), and only where the short form means nothing else in
# engineering. Other clipped words ("prod", "repo", "config", "db", "env", "creds") and
# "k8s" were measured one by one: no question file gains (docs/notes/benchmark-history.md,
# session 16).
SAME_NAME: dict[str, str] = same_names()  # data: ``decisis/search/words/same_names.toml``


def stem(word: str) -> str:
    """Strip common English inflections so that forms of one word meet (and British and
    American spellings: "centralised" and "centralized"; two names for one thing,
    ``SAME_NAME``)."""
    word = SAME_NAME.get(word, word)
    if len(word) <= 3 or not word.isalpha():
        return word
    word = _american(word)
    for suffix, replacement in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("es", "e"),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            # "basis", "status" keep their s; "amis", "apis" are plurals of acronyms
            if suffix == "s" and word.endswith(("ss", "us", "is")) and len(word) > 4:
                return word
            word = word[: len(word) - len(suffix)] + replacement
            if suffix in _DOUBLING and _doubled(word):  # "logging", "scanned": "log", "scan"
                word = word[:-1]
            break
    if word.endswith("ment") and len(word) >= _MIN_MENT_STEM + 4:  # "replacement": "replace"
        word = word[:-4]
    elif word.endswith("ation") and len(word) >= _MIN_ATION_STEM + 5:  # "rotation": "rotate"
        word = word[:-5] + "ate"
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-case words of ``text`` (dotted and dashed compounds kept whole, contractions
    read as the word they shorten: "we've" is "we", "doesn't" is "does")."""
    text = _URL.sub(" ", text.lower())
    if "'" in text or "\u2019" in text:
        text = _TAIL.sub("", _NOT.sub(_uncontract, text))
    return _WORD.findall(text)


def _uncontract(m: re.Match[str]) -> str:
    """The word a negative contraction shortens, without the "not" (a stop word)."""
    return next((_NOT_STEMS[i] for i in _NOT_STEMS if m.group(i)), m.group(5))


def _parts(word: str) -> Iterable[str]:
    yield word
    if any(sep in word for sep in ".-_/"):
        for part in re.split(r"[.\-_/]+", word):
            if part and part != word:
                yield part


def terms(text: str) -> list[str]:
    """The content terms of ``text``, stemmed, in order, repeats kept.

    A compound (``build-and-release``, ``gov.uk``) gives itself and its parts, so a
    question that writes it apart still meets it.
    """
    out: list[str] = []
    for word in words(text):
        for part in _parts(word):
            if part in STOP_WORDS or len(part) < 2 or part.isdigit() or _DATE.match(part):
                continue
            out.append(stem(part))
    return out


_WRITTEN_WORD = re.compile(r"\w[\w.\-]*\w|\w")


def as_written(text: str, subject: str) -> str:
    """How ``text`` writes ``subject`` (terms, space-separated): for each of its terms, the
    first word of ``text`` that has it ("Concourse" for ``concours``, "auto-scaling" for
    ``scal``); ``subject`` itself unless ``text`` has every term. For showing people a
    stemmed subject."""
    wanted = subject.split()
    found: list[str] = []
    for word in _WRITTEN_WORD.findall(text):
        if not wanted:
            break
        hit = set(terms(word)) & set(wanted)
        if hit:
            found.append(word)
            wanted = [t for t in wanted if t not in hit]
    return subject if wanted else " ".join(found)
