"""Records a question names by number: "Is ADR-22 still in force?", "What replaced
cloud-platform:022?", "Does record 7 of the Modernisation Platform still stand?".

A team that knows which record it means asks about it by its number, and the words of such
a question ("still in force") say nothing a search could use. A question naming a record
starts there, whatever its words match, and is never "about something else".

A key as ``decisis`` writes it (``cloud-platform:022``) names one record. A number after
"ADR", "record" or "decision" names the record of that number in the folder the question
names, or the only record of that number when the store holds one; when several folders
have one and the question names none, the answer says which records it could be.
"""

from __future__ import annotations

import re

from decisis.adr.link.view import AdrView

__all__ = ["named_records"]

_KEY = re.compile(r"(?<![\w-])([a-z0-9][a-z0-9._-]*:[a-z0-9-]+)(?![\w-])", re.IGNORECASE)
# "ADR-22", "ADR 0022", "record 7", "decision record no. 7"; not "records 30 days"
_NUMBER = re.compile(
    r"\b(?:adr|(?:decision\s+)?record|decision)s?\s*[-_#:]?\s*(?:no\.?\s*|number\s+)?(\d{1,6})\b"
    r"(?!\s*(?:[.,]\d|%|(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|[kmgt]i?b)\b))",
    re.IGNORECASE,
)


def _keys(view: AdrView) -> tuple[dict[str, str], dict[int, list[str]]]:
    """Record keys by their lower-case spelling and by their number, kept on the view."""
    cached: tuple[dict[str, str], dict[int, list[str]]] | None = view.cache.get("keys-named")
    if cached is None:
        lowered: dict[str, str] = {}
        numbered: dict[int, list[str]] = {}
        for key, node in view.records.items():
            lowered[key.lower()] = key
            number = node.metadata.get("number")
            if isinstance(number, int):
                numbered.setdefault(number, []).append(key)
        cached = view.cache["keys-named"] = (lowered, numbered)
    return cached


def named_records(view: AdrView, question: str, folder: str | None) -> list[str]:
    """The records ``question`` names by key, or by number (in ``folder``, the folder the
    question names, if any): one, several when a number is that of records in several
    folders, or none."""
    lowered, numbered = _keys(view)
    said = (m.group(1).lower() for m in _KEY.finditer(question))
    keys = {lowered[k] for k in said if k in lowered}
    if keys:  # two keys compare two records: neither is the one asked about
        return list(keys) if len(keys) == 1 else []
    numbers = {int(m.group(1)) for m in _NUMBER.finditer(question)}
    if len(numbers) != 1:
        return []
    found = numbered.get(numbers.pop(), [])
    if folder is not None:
        found = [k for k in found if view.meta(k).get("folder") == folder]
    return sorted(found)
