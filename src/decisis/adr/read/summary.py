"""A record's decision in one sentence, as answers state it.

The first sentence of the Decision section usually says what was decided ("We will use
PostgreSQL for the orders schema"). Some teams open it with how they got there ("We
discussed three options: have one admin instance per MySQL database…", "There are several
leading cloud providers…"): taken as the decision, such a sentence misstates it. When the
first sentence says nothing decided and a later one says what was chosen ("The final
option, and the one we've chosen for now, is to have a single instance…"), that one is the
summary.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from decisis.adr.read.markdown import blocks, first_sentence, is_list_item, prose, sentences

__all__ = ["says_what_was_chosen", "states_a_decision", "summarise", "tells_the_situation"]

# Words with which a sentence states a decision of any kind ("We will…", "…must be
# authenticated", "Option 4", "We host every service on…"; but not "We discussed three
# options", "We explored…": how the team got there). "Use Kubernetes…" is read by its
# imperative, below.
_STATES = re.compile(
    r"\b(?:will|shall|must|should|decided?|decision|cho(?:se|sen)|accept(?:ed)?|reject(?:ed)?"
    r"|adopt(?:ed|ing)?|going\s+to|option\s*\d+|agreed|opted|selected|we'll|preferred|choice)\b",
    re.IGNORECASE,
)
# ... or opens with "We" and a verb in the present ("We host…", "We keep…").
_WE_DO = re.compile(
    r"^we\s+(?!\w+ed\b|also\b|can\b|could\b|may\b|might\b|did\b|were\b|was\b|had\b)[a-z]+\b",
    re.IGNORECASE,
)
# A sentence opening with a verb of deciding is a decision too ("Replace our self hosted
# ELK stack…", "Use Kubernetes as…", "deprecate *.apps…").
_IMPERATIVE = re.compile(
    r"^(?:use|replace|move|remove|give|add|update|communicate|deprecate|adopt|migrate|create"
    r"|keep|stop|start|enable|disable|introduce|build|run|host|store|switch|drop|retire"
    r"|deploy|implement|split|combine|merge|centrali[sz]e|allow|require|prefer|avoid|support"
    r"|apply|do|don't|never|always)\b",
    re.IGNORECASE,
)
# Words with which a sentence says what was chosen: a decision verb in the past ("we decided
# to", "the one we've chosen", "was selected", "the decision is").
_CHOOSES = re.compile(
    r"\b(?:decided\s+(?:to|on|upon|that)|(?:we|we've|have|has|had)\s+(?:chosen|chose|opted"
    r"|selected|agreed\s+to)|(?:was|were|is|been)\s+(?:chosen|selected|agreed)"
    r"|the\s+decision\s+(?:is|was|has\s+been))\b",
    re.IGNORECASE,
)
# ... or what the team will do ("we will remove…"), but not what follows from it ("we will
# need to", "we will have"): read only after a first sentence that tells the situation.
_WILL_DO = re.compile(
    r"\bwe(?:'ll|\s+will)\s+(?!not\b|need\b|have\b|be\b|also\b|still\b|probably\b)[a-z]+\b",
    re.IGNORECASE,
)
# A sentence telling the situation or how the team got there: what it tried or weighed ("We
# discussed…", "We've tested…"), what there is ("There are several…"), how things are now.
_SITUATION = re.compile(
    r"^(?:we(?:'ve|\s+have)?\s+\w+ed\b|there\s+(?:are|is|were|was)\b)|\bcurrently\b",
    re.IGNORECASE,
)
_EXAMPLE = re.compile(r"^(?:for\s+(?:instance|example)|e\.g\.)", re.IGNORECASE)


def states_a_decision(sentence: str) -> bool:
    """Whether ``sentence`` states something decided, of any kind."""
    return bool(_STATES.search(sentence) or _IMPERATIVE.match(sentence) or _WE_DO.match(sentence))


def says_what_was_chosen(sentence: str) -> bool:
    """Whether ``sentence`` says what was chosen (not an example of it)."""
    return bool(_CHOOSES.search(sentence)) and not _EXAMPLE.match(sentence)


def tells_the_situation(sentence: str) -> bool:
    """Whether ``sentence`` tells how things are or what the team tried, not what it decided."""
    return bool(_SITUATION.search(sentence))


def summarise(text: str, limit: int = 240) -> str:
    """One sentence that says what ``text`` (a Decision section) decided, markdown stripped.

    The first block of two words or more gives it, unless its sentence states nothing
    decided and a later sentence says what was chosen ("we decided to…"), or, after a first
    sentence telling the situation, what the team will do ("we will remove…"). A sentence
    ending in a colon takes the first item of the list after it (``We will: disable
    mod-security…``); before anything else (a code block, a table) it ends in an ellipsis.
    """
    spans = list(blocks(text))
    first = _first(text, spans, limit)
    if states_a_decision(first):
        return first
    later = list(_sentences(text, spans, limit))
    chosen = next((s for s in later if says_what_was_chosen(s)), None)
    if chosen is None and tells_the_situation(first):
        will = (s for s in later if _WILL_DO.search(s) and not _EXAMPLE.match(s))
        chosen = next(will, None)
    return chosen or first


def _first(text: str, spans: list[tuple[int, int]], limit: int) -> str:
    for i, (start, end) in enumerate(spans):
        plain = prose(text[start:end])
        if len(plain.split()) < 2 and not plain.endswith(":"):
            continue
        sentence = first_sentence(plain, limit)
        if not sentence.endswith(":"):
            return sentence
        item = _item_after(text, spans, i)
        if item:
            return first_sentence(f"{sentence} {item}", limit)
        if len(sentence.split()) >= 3:
            return f"{sentence} \u2026"  # what it leads into is not prose (a tree, a table)
    return ""


def _sentences(text: str, spans: list[tuple[int, int]], limit: int) -> Iterator[str]:
    """Every sentence of ``text``'s prose blocks (``spans``), a lead-in ending in a colon
    joined to the list item after it (or to an ellipsis when none follows)."""
    for i, (start, end) in enumerate(spans):
        for said in sentences(prose(text[start:end])):
            whole = said
            if said.endswith(":"):
                item = _item_after(text, spans, i)
                whole = f"{said} {item}" if item else f"{said} \u2026"
            yield first_sentence(whole, limit)


def _item_after(text: str, spans: list[tuple[int, int]], i: int) -> str:
    """The list item right after block ``i``, as plain text, or ``""``."""
    following = text[spans[i + 1][0] : spans[i + 1][1]] if i + 1 < len(spans) else ""
    return prose(following) if is_list_item(following) else ""
