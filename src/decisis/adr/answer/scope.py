"""What a record says it leaves out: "This record does not cover the disaster recovery
environments", "… will be addressed in a future ADR", "… is out of scope".

Such a record shares the words of a question about the thing it leaves out, so it
ranks high for it, yet it is the one record that says it does not answer it. The words
a record uses only in such sentences are its *excluded* terms; a question whose
subject is among them does not start there (the ``scope`` check, ``decisis.adr.answer.checks``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from decisis.adr.link.view import AdrView
from decisis.search.kept import digest_of, kept, space_of
from decisis.search.text import terms

__all__ = [
    "EXCLUSION",
    "excluded_terms",
    "keep_exclusions",
    "record_exclusions",
    "sentence_exclusions",
]

_RECORD = r"(?:record|adr|decision|document|proposal|rfc)"
_LATER = r"(?:future|separate|later|subsequent|follow[- ]up|new|another|different)"
# Each pattern names where the thing left out is written: ``after`` the match ("This record
# does not cover <it>"), ``before`` it ("<It> will be addressed in a future ADR"), or on
# ``either`` side ("<It> is out of scope"). Only those words count as left out, not the
# rest of the sentence ("… once they have been confirmed to work").
EXCLUSION = re.compile(
    "|".join(
        [
            # "This record does not (currently) cover / address / apply to …"
            # (the verb right after "not", at most an adverb between: "does not preclude
            # applying …" leaves nothing out)
            rf"(?P<after>\b(?:this|the) {_RECORD}\b[^.;]{{0,80}}?\b(?:does|do|will|is) not "
            r"(?:\w+ly )?(?:cover|address|apply to|include|consider|deal with|handle|decide|"
            r"concern)\b)",
            # "… will be addressed in a future ADR", "… is to be decided in a separate record"
            r"(?P<before>\b(?:will|shall|is to|are to|to) be (?:addressed|covered|decided|"
            r"handled|considered|discussed|documented|dealt with|tackled|agreed)\b[^.;]{0,80}?"
            rf"\b(?:in|by|with) (?:a|an|another|the) (?:{_LATER} )+{_RECORD}s?\b)",
            # "… is (officially) out of scope", "outside the scope of this ADR"
            r"(?P<either>\bout of scope\b|\boutside (?:of )?(?:the )?scope\b|"
            r"\bbeyond the scope\b|\bnot (?:in|within) (?:the )?scope\b)",
        ]
    ),
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n\s*[-*+]\s+|\n\s*\d+\.\s+|\n#+\s")
# Saying what a record leaves out takes a sentence, not a page: longer runs of text (a
# table, a pasted log) are not searched, which keeps a hostile record from costing time.
MAX_SENTENCE = 600


def excluded_terms(title: str, text: str) -> frozenset[str]:
    """Terms of ``text`` that appear only in sentences saying the record leaves
    something out (never the title's)."""
    if EXCLUSION.search(" ".join(text.split())) is None:
        # Most records say nothing of the kind: a sentence that matched would match here too
        # (its words, flattened the same way, are in the flattened text), so no tokenising.
        return frozenset()
    return sentence_exclusions(title, text)


def sentence_exclusions(title: str, text: str) -> frozenset[str]:
    """``excluded_terms`` read sentence by sentence, with no shortcut."""
    inside: set[str] = set()
    outside: set[str] = set(terms(title))
    for sentence in _SENTENCE_END.split(text):
        flat = " ".join(sentence.split())
        match = EXCLUSION.search(flat) if len(sentence) <= MAX_SENTENCE else None
        if match is None:
            outside.update(terms(flat))
            continue
        before, after = flat[: match.start()], flat[match.end() :]
        left_out = {"after": after, "before": before}.get(match.lastgroup or "", before + after)
        inside.update(terms(left_out))
    return frozenset(inside - outside)


# What ``excluded_terms`` is made with, in the name of the space its results are kept in
# (with the term engine's version, ``space_of``): a change to a pattern or to the limit makes
# every kept result stale. Bump the recipe on any other change to how they are worked out.
_RECIPE = (
    "1;"
    + hashlib.sha256(
        "\0".join([EXCLUSION.pattern, _SENTENCE_END.pattern, str(MAX_SENTENCE)]).encode()
    ).hexdigest()[:16]
)
EXCLUDED_TERMS = f"adr-excluded-terms:{_RECIPE}"  # the store space of the results


def _made_from(view: AdrView, key: str) -> tuple[str, str]:
    node = view.records[key]
    return node.label, str(node.metadata.get("text") or "")


def _decode(data: Any) -> frozenset[str]:
    return frozenset(str(term) for term in data)


def keep_exclusions(view: AdrView, keys: Iterable[str]) -> None:
    """Work out ``excluded_terms`` of the records ``keys`` that the view does not hold yet,
    in one read: from the store where a process before kept them for the same title and
    text (``decisis.search.kept``), else by reading the text, then kept. A cold question
    reads them for its candidates instead of searching each one's text again."""
    cache: dict[str, frozenset[str]] = view.cache.setdefault("excluded-terms", {})
    missing = [k for k in dict.fromkeys(keys) if k not in cache and k in view.records]
    if not missing:
        return
    if view.graph is None:
        cache.update({k: excluded_terms(*_made_from(view, k)) for k in missing})
        return
    cache.update(
        kept(
            view.graph,
            space_of(EXCLUDED_TERMS),
            {k: digest_of(_made_from(view, k)) for k in missing},
            lambda k: excluded_terms(*_made_from(view, k)),
            sorted,
            _decode,
        )
    )


def record_exclusions(view: AdrView, key: str) -> frozenset[str]:
    """``excluded_terms`` of record ``key``, kept on the view (derived once per record)."""
    cache: dict[str, frozenset[str]] = view.cache.setdefault("excluded-terms", {})
    found = cache.get(key)
    if found is None:
        found = cache[key] = excluded_terms(*_made_from(view, key))
    return found
