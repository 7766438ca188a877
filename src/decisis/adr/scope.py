"""What a record says it leaves out: "This record does not cover the disaster recovery
environments", "… will be addressed in a future ADR", "… is out of scope".

Such a record shares the words of a question about the thing it leaves out, so it
ranks high for it, yet it is the one record that says it does not answer it. The words
a record uses only in such sentences are its *excluded* terms; a question whose
subject is among them does not start there (``decisis.adr.start``).
"""

from __future__ import annotations

import re

from decisis.adr.view import AdrView
from decisis.search.text import terms

__all__ = ["EXCLUSION", "excluded_terms", "record_exclusions"]

_RECORD = r"(?:record|adr|decision|document|proposal|rfc)"
_LATER = r"(?:future|separate|later|subsequent|follow[- ]up|new|another|different)"
EXCLUSION = re.compile(
    "|".join(
        [
            # "This record does not (currently) cover / address / apply to …"
            rf"\b(?:this|the) {_RECORD}\b[^.;]{{0,80}}?\b(?:does|do|will|is) not\b[^.;]{{0,40}}?"
            r"\b(?:cover|address|apply|include|consider|deal with|handle|decide|concern)",
            # "… will be addressed in a future ADR", "… is to be decided in a separate record"
            r"\b(?:will|shall|is to|are to|to) be (?:addressed|covered|decided|handled|"
            r"considered|discussed|documented|dealt with|tackled|agreed)\b[^.;]{0,80}?"
            rf"\b(?:in|by|with) (?:a|an|another|the) (?:{_LATER} )+{_RECORD}s?\b",
            # "… is (officially) out of scope", "outside the scope of this ADR"
            r"\bout of scope\b|\boutside (?:of )?(?:the )?scope\b|\bbeyond the scope\b",
            r"\bnot (?:in|within) (?:the )?scope\b",
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
    inside: set[str] = set()
    outside: set[str] = set(terms(title))
    for sentence in _SENTENCE_END.split(text):
        found = terms(sentence)
        if len(sentence) <= MAX_SENTENCE and EXCLUSION.search(" ".join(sentence.split())):
            inside.update(found)
        else:
            outside.update(found)
    return frozenset(inside - outside)


def record_exclusions(view: AdrView, key: str) -> frozenset[str]:
    """``excluded_terms`` of record ``key``, kept on the view (derived once per record)."""
    kept: dict[str, frozenset[str]] = view.cache.setdefault("excluded-terms", {})
    found = kept.get(key)
    if found is None:
        node = view.records[key]
        found = kept[key] = excluded_terms(node.label, str(node.metadata.get("text") or ""))
    return found
