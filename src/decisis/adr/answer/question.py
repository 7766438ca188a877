"""A question read once: the team it names, its words as searched, its subject, the record
it names by number, and the form of answer it asks for. Every later stage reads this value,
not the raw text again."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from decisis.adr.answer.amounts import Kind, asked_for
from decisis.adr.answer.choices import Choice, choices
from decisis.adr.answer.named import named_records
from decisis.adr.link.view import AdrView
from decisis.search.glossary import spelled_both_ways
from decisis.search.text import terms, words

__all__ = ["FOLDER_SHARE", "Question", "folder_words", "parse_question"]

FOLDER_SHARE = 0.6
"""A word of a folder's name names that folder when at least this share of the records using
it are that folder's (``aws`` in ``govuk-aws`` is everybody's). Kept from the engine before."""

# "live" as a verb ("Where do the Terraform modules live?"): in a question it asks where
# something is, while records say "live" for production ("the live cluster"); as a word of
# the question it would pull towards whatever record talks of production. Not after "go".
_LIVE_AS_VERB = re.compile(
    r"(?<!-)(?<!\bgo )(?<!\bgoing )(?<!\bgoes )(?<!\bwent )(?<!\bgone )\blive"
    r"(?=\s+(?:in|on|under|alongside|inside|within|for|so|now|there|here|together)\b"
    r"|\s*[?.!,]|\s*$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Question:
    """A question as every stage of answering reads it."""

    text: str
    """As asked."""
    folder: str | None
    """The one team (folder) it names, if it names one ("… on the Modernisation Platform")."""
    asked: str
    """Its content: without the words naming the team (they choose the team, and as content
    would favour the records that repeat the team's name) nor "live" as a verb."""
    searched: str
    """``asked`` with the other spelling of each common abbreviation it uses
    (``decisis.search.glossary``: "single sign-on" also as "SSO")."""
    terms: frozenset[str]
    """The stemmed terms of the whole question."""
    subject: tuple[str, ...]
    """Its ``subject_terms`` rarest terms that the records know: what it is about."""
    named: tuple[str, ...]
    """The records it names by key or number: one, or several when a number is that of
    several teams' records and it names no team."""
    amount: Kind | None
    """The kind of value it asks for (a length of time, a version, a region), if any."""
    choices: tuple[Choice, ...]
    """The choices it offers ("AWS Secrets Manager or Kubernetes Secrets?")."""


def folder_words(view: AdrView) -> dict[str, set[str]]:
    """Words that name one folder: its name's words and initials (``modernisation-platform``:
    ``modernisation``, ``mp``) that no other folder name has and that records of other folders
    seldom use. Kept on the view."""
    cached = view.cache.get("folder-words")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    folders = sorted({str(view.meta(k).get("folder") or "") for k in view.records} - {""})
    names: dict[str, set[str]] = {}
    for folder in folders:
        parts = [p for p in re.split(r"[^a-z0-9]+", folder.lower()) if p]
        names[folder] = set(terms(" ".join(parts)))
        if len(parts) > 1:
            names[folder].add("".join(p[0] for p in parts))
    counts = Counter(w for ws in names.values() for w in ws)
    index, out = view.index, {}
    for folder, ws in names.items():
        keep = set()
        for word in ws:
            if counts[word] != 1:
                continue
            docs = [index.docs[slot] for slot, _ in index.postings.get(word, ())]
            here = sum(1 for d in docs if view.meta(d).get("folder") == folder)
            if not docs or here / len(docs) >= FOLDER_SHARE:
                keep.add(word)
        out[folder] = keep
    view.cache["folder-words"] = out
    return out


def _named_folder(view: AdrView, text: str) -> str | None:
    said = set(terms(text)) | {re.sub(r"[^a-z0-9]", "", w) for w in words(text)}
    named = [f for f, ws in folder_words(view).items() if ws & said]
    return named[0] if len(named) == 1 else None


def _without_folder(view: AdrView, text: str, folder: str | None) -> str:
    if folder is None:
        return text
    naming = folder_words(view)[folder]

    def names(word: str) -> bool:  # the whole word: "cp-cli" is a tool, not the team
        return bool(naming & {re.sub(r"[^a-z0-9]", "", word), *terms(word)[:1]})

    kept = [w for w in text.split() if not names(w.lower())]
    return " ".join(kept) if kept else text


def parse_question(view: AdrView, text: str, subject_terms: int = 3) -> Question:
    """Read ``text`` once against the records of ``view``."""
    folder = _named_folder(view, text)
    asked = _LIVE_AS_VERB.sub(" ", _without_folder(view, text, folder))
    extra = spelled_both_ways(asked, known=view.index.postings)
    searched = f"{asked} ({'; '.join(extra)})" if extra else asked
    subject = tuple(t for t, _ in view.index.subject_terms(asked, subject_terms))
    return Question(
        text=text,
        folder=folder,
        asked=asked,
        searched=searched,
        terms=frozenset(terms(text)),
        subject=subject,
        named=tuple(named_records(view, text, folder)),
        amount=asked_for(text),
        choices=tuple(choices(text)),
    )
