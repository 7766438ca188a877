"""What corrected questions lend to later ones: their terms and meaning, beside their node.

A correction keeps its question in the graph as a node resolved to a record (or to "no
record"). Beside that node, as derived data (``Store.put_derived``, space ``QUESTION_SPACE``
under the embedder's name), it keeps what a later question is compared with: the
question's stemmed terms and its vector (``Learnt``). ``correct`` keeps them when it
lands; a node whose data is missing (a store written before, another embedder) is read
again from its label and kept then.

A later question lends each record two features (``learned_values``), both 0 when nothing
was corrected, so answering with learning off is untouched:

* ``learned_terms``: the closest corrected question resolved to the record, by the terms the
  two share, weighed by their rarity among the records (IDF: a term no record has, the
  question's own word for the topic, weighs most), as a cosine of the two term sets;
* ``learned_cosine``: the closest such question in meaning (the cosine of the two
  questions' ``profile`` over the records), the part above ``AnswerSettings.learned_floor``,
  scaled to [0, 1].

Each is a lead (``lead``): what the closest question resolved to the record has over the
closest one resolved to any other record, so a correction lends only where it is the
nearest thing known, and two corrections on neighbouring topics do not both lift their
records for every question between them.

The fit (``decisis.adr.answer.fit``) chooses their weights in simulated test-then-train
orders on the fitting corpora, with these same functions.
"""

from __future__ import annotations

import base64
import contextlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from decisis.adr.link.view import AdrView
from decisis.errors import DecisisError
from decisis.graph import Graph
from decisis.search.kept import digest_of, kept
from decisis.search.text import terms

__all__ = [
    "QUESTION_SPACE",
    "Learnt",
    "forget_question",
    "keep_question",
    "lead",
    "learned_features",
    "learned_values",
    "learnt",
    "term_cosine",
]

QUESTION_SPACE = "adr-question"  # derived data: a corrected question's terms and vector
_FORMAT = "1"


@dataclass(frozen=True)
class Learnt:
    """One corrected question as later questions read it: the record it was resolved to,
    its stemmed terms, and its unit vector (``None`` without an embedder)."""

    node: str
    answer: str
    terms: frozenset[str]
    vector: Any | None = None
    profile: Any | None = None  # ``profile`` of its vector over the records as they are


def _embedder_name() -> str:
    from decisis.adr.answer.vectors import _embedder, _name

    embedder = _embedder()
    return "none" if embedder is None else _name(embedder)


def _space() -> str:
    return f"{QUESTION_SPACE}@{_FORMAT};{_embedder_name()}"


def _made(label: str) -> dict[str, Any]:
    """What is kept of one question: its terms, and its unit vector (base64 float32)."""
    import numpy as np

    from decisis.adr.answer.vectors import _embedder

    out: dict[str, Any] = {"terms": sorted(set(terms(label)))}
    embedder = _embedder()
    if embedder is not None:
        vector = np.asarray(embedder.embed([label])[0], dtype=np.float32)
        norm = float(np.sqrt(vector @ vector)) or 1.0
        out["vector"] = base64.b64encode((vector / norm).astype("<f4").tobytes()).decode()
    return out


def _decoded(body: Any) -> tuple[frozenset[str], Any | None]:
    import numpy as np

    if not isinstance(body, dict) or not isinstance(body.get("terms"), list):
        return frozenset(), None  # a body damaged behind decisis's back: lends nothing
    vector = body.get("vector")
    raw = None if vector is None else np.frombuffer(base64.b64decode(vector), dtype="<f4")
    return frozenset(str(t) for t in body["terms"]), raw


def _same(body: Any) -> Any:
    """A body as it is kept and read back (JSON already)."""
    return body


def keep_question(graph: Graph, node: str, label: str) -> None:
    """Keep the terms and vector of corrected question ``node`` beside it (a saving: read
    again from its label when missing)."""
    kept(graph, _space(), {node: digest_of([label])}, lambda _: _made(label), _same, _same)


def forget_question(graph: Graph, node: str) -> None:
    """Forget what was kept beside question ``node`` (its correction was undone; the view
    no longer reads a tombstoned question, so this only frees the space)."""
    if graph.as_of is None:
        with contextlib.suppress(DecisisError):
            graph.store.delete_derived(graph.name, _space(), [node])


def learnt(view: AdrView, graph: Graph | None = None) -> list[Learnt]:
    """The corrected questions of ``view`` resolved to one of its records, with their terms
    and vectors (kept on the view: one read of the store per ledger head)."""
    cached = view.cache.get("learnt")
    if cached is not None:
        return list(cached)
    resolved = {
        n.id: (n.label, str(n.metadata["answer"]))
        for n in view.questions
        if isinstance(n.metadata.get("answer"), str) and n.metadata["answer"] in view.records
    }
    wanted = {node: digest_of([label]) for node, (label, _) in resolved.items()}
    source = graph if graph is not None else view.graph
    if source is not None and wanted:
        bodies = kept(source, _space(), wanted, lambda n: _made(resolved[n][0]), _same, _same)
    else:
        bodies = {node: _made(label) for node, (label, _) in resolved.items()}
    from decisis.adr.answer.vectors import record_matrix

    matrix = record_matrix(view, graph) if resolved else None
    out = []
    for node, (_, answer) in resolved.items():
        found, vector = _decoded(bodies[node])
        out.append(Learnt(node, answer, found, vector, profile(matrix, vector)))
    view.cache["learnt"] = tuple(out)
    return out


def profile(matrix: Any | None, vector: Any | None) -> Any | None:
    """Where a question points among the records: its cosines with every record
    (``matrix``, one unit row a record), less their mean, as a unit vector. Two questions
    on one topic point at the same records; their profiles tell them from questions on
    other topics better than their own cosine, which any two questions share a good part
    of by being questions (development corpora: same-answer pairs ranked above others
    0.82 / 0.71 / 0.87 of the time, against 0.77 / 0.66 / 0.80)."""
    import numpy as np

    if matrix is None or vector is None:
        return None
    cosines = np.asarray(matrix, dtype=np.float32) @ np.asarray(vector, dtype=np.float32)
    cosines = cosines - cosines.mean()
    norm = float(np.sqrt(cosines @ cosines))
    return cosines / norm if norm else None


def term_cosine(a: Iterable[str], b: frozenset[str], idf: Callable[[str], float]) -> float:
    """Cosine of two term sets weighed by rarity (each term's weight its IDF)."""
    mine = set(a)
    shared = mine & b
    if not shared:
        return 0.0
    norm = math.sqrt(sum(idf(t) ** 2 for t in mine) * sum(idf(t) ** 2 for t in b))
    return sum(idf(t) ** 2 for t in shared) / norm if norm else 0.0


def lead(by_record: dict[str, float], key: str, floor: float) -> float:
    """How far record ``key``'s closest corrected question is above ``floor`` and above the
    closest question resolved to any other record."""
    mine = by_record.get(key, 0.0)
    other = max((v for k, v in by_record.items() if k != key), default=0.0)
    return max(0.0, mine - max(floor, other))


def learned_values(
    memory: Sequence[Learnt],
    asked: frozenset[str],
    pointed: Any | None,
    idf: Callable[[str], float],
) -> tuple[dict[str, float], dict[str, float]]:
    """For each record a corrected question in ``memory`` was resolved to: the closest such
    question's term cosine with ``asked`` (``term_cosine``), and the closest by meaning (the
    cosine of its ``profile`` with the question's, ``pointed``)."""
    by_terms: dict[str, float] = {}
    by_meaning: dict[str, float] = {}
    for item in memory:
        shared = term_cosine(asked, item.terms, idf)
        if shared > by_terms.get(item.answer, 0.0):
            by_terms[item.answer] = shared
        if pointed is not None and item.profile is not None:
            cosine = float(item.profile @ pointed)
            if cosine > by_meaning.get(item.answer, -1.0):
                by_meaning[item.answer] = cosine
    return by_terms, by_meaning


def learned_features(
    by_terms: dict[str, float], by_meaning: dict[str, float], key: str, floor: float
) -> tuple[float, float]:
    """``learned_terms`` and ``learned_cosine`` of record ``key``, from ``learned_values``."""
    cosine = lead(by_meaning, key, floor) / (1.0 - floor) if floor < 1.0 else 0.0
    return lead(by_terms, key, 0.0), cosine
