"""Replacement links measured as links: what the engine believes against a ``truth.json``.

A truth file is a JSON list of records, each ``{"key": …, "replaced_by": [{"key": …,
"kind": "full" | "partial", …}, …]}`` (the form of ``data/labels/*/truth.json``). A true link
is the pair (old, new); a believed link is a pair whose ``supersedes`` edges together reach
the walk's threshold: stated or confirmed, or a noisy-OR of the rules' trusts at least
``threshold``, with no edge of the pair rejected. Pairs match whatever their kind (full or
partial); the kinds are reported beside them. A true link to a record that is itself only
proposed counts like any other.

Precision is the share of believed links that are true; recall the share of true links that
are believed; both per corpus (the part of the old record's key before ``:``) and pooled.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from decisis.adr import BelievedLink
from decisis.errors import InvalidInput
from decisis.model.validation import loads_json

__all__ = ["LinkCounts", "LinkReport", "TrueLink", "load_truth", "score_links"]

_ALLOWED = 'a JSON list of {"key": …, "replaced_by": [{"key": …, "kind": "full"|"partial"}]}'


@dataclass(frozen=True, slots=True)
class TrueLink:
    old: str
    new: str
    kind: str  # "full" or "partial"
    where: str = ""


@dataclass(frozen=True)
class Truth:
    """The records a truth file knows, and the true links between them."""

    keys: frozenset[str]
    links: tuple[TrueLink, ...]


def _records(path: Path) -> list[dict[str, object]]:
    try:
        data = loads_json(path.read_text(encoding="utf-8"), "truth", _ALLOWED, where=f"{path} ")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput("truth", f"{path} cannot be read ({exc})", _ALLOWED) from None
    if not isinstance(data, list) or not all(
        isinstance(r, dict) and isinstance(r.get("key"), str) for r in data
    ):
        raise InvalidInput("truth", f"{path} is not a list of records with keys", _ALLOWED)
    return data


def load_truth(paths: Iterable[str | os.PathLike[str]]) -> Truth:
    """The records and true links of one or more truth files."""
    keys: set[str] = set()
    links: list[TrueLink] = []
    for path in paths:
        for record in _records(Path(path)):
            old = str(record["key"])
            keys.add(old)
            replaced = record.get("replaced_by") or []
            if not isinstance(replaced, list):
                raise InvalidInput("truth", f"{path}: {old}: replaced_by is not a list", _ALLOWED)
            for item in replaced:
                if not isinstance(item, dict) or not isinstance(item.get("key"), str):
                    raise InvalidInput("truth", f"{path}: {old}: a link has no key", _ALLOWED)
                kind = str(item.get("kind") or "full")
                links.append(TrueLink(old, str(item["key"]), kind, str(item.get("where") or "")))
    return Truth(frozenset(keys), tuple(links))


@dataclass
class LinkCounts:
    """Found, believed-but-false and missed links of one corpus."""

    corpus: str
    found: list[TrueLink] = field(default_factory=list)
    false: list[BelievedLink] = field(default_factory=list)
    missed: list[TrueLink] = field(default_factory=list)

    @property
    def precision(self) -> float:
        believed = len(self.found) + len(self.false)
        return len(self.found) / believed if believed else 1.0

    @property
    def recall(self) -> float:
        true = len(self.found) + len(self.missed)
        return len(self.found) / true if true else 1.0

    def to_dict(self) -> dict[str, object]:
        return {
            "corpus": self.corpus,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "true": len(self.found) + len(self.missed),
            "believed": len(self.found) + len(self.false),
            "found": [f"{t.old} -> {t.new} ({t.kind})" for t in self.found],
            "false": [f"{b.old} -> {b.new} ({', '.join(b.rules)})" for b in self.false],
            "missed": [f"{t.old} -> {t.new} ({t.kind}, {t.where})" for t in self.missed],
        }


@dataclass
class LinkReport:
    corpora: list[LinkCounts]

    @property
    def pooled(self) -> LinkCounts:
        out = LinkCounts("pooled")
        for counts in self.corpora:
            out.found += counts.found
            out.false += counts.false
            out.missed += counts.missed
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "corpora": [c.to_dict() for c in self.corpora],
            "pooled": self.pooled.to_dict(),
        }


def _corpus_of(key: str) -> str:
    return key.split(":", 1)[0]


def score_links(believed: Sequence[BelievedLink], truth: Truth) -> LinkReport:
    """Precision and recall of ``believed`` against ``truth``, per corpus; believed links
    between records the truth does not know are left out (another corpus in the store)."""
    true_pairs: Mapping[tuple[str, str], TrueLink] = {(t.old, t.new): t for t in truth.links}
    by_corpus: dict[str, LinkCounts] = {}

    def counts(key: str) -> LinkCounts:
        corpus = _corpus_of(key)
        return by_corpus.setdefault(corpus, LinkCounts(corpus))

    for key in sorted(truth.keys):
        counts(key)
    seen: set[tuple[str, str]] = set()
    for link in believed:
        if link.old not in truth.keys or link.new not in truth.keys:
            continue
        pair = (link.old, link.new)
        seen.add(pair)
        if pair in true_pairs:
            counts(link.old).found.append(true_pairs[pair])
        else:
            counts(link.old).false.append(link)
    for pair, true in true_pairs.items():
        if pair not in seen:
            counts(true.old).missed.append(true)
    return LinkReport([by_corpus[name] for name in sorted(by_corpus)])
