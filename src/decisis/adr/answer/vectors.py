"""The vector vote, when ``decisis.search.embedding`` provides an embedder; else no vote.

Record vectors (title and decision text) are kept in the store, in the space
``<embedder name>:adr-record``, each tagged with a digest of what was embedded: the
first answer in a process reads them back instead of embedding every record again,
and only records that are new or changed are embedded (and written). They are also
kept in the process across views, and on the view itself. A read-only view (``at(t)``)
reads and computes but writes nothing. Everything else works without vectors: they
are one vote among several.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
from collections.abc import Sequence
from typing import Any

from decisis.adr.link.view import AdrView
from decisis.errors import DecisisError, StoreError
from decisis.graph import Graph

__all__ = [
    "RECORD_SPACE",
    "closest_records",
    "closest_sentence",
    "question_similarities",
    "question_vector",
    "record_matrix",
    "record_space",
    "similarities",
    "title_similarities",
]

RECORD_SPACE = "adr-record"  # what is embedded: a record's title with its decision and body
_RECIPE = "mean-of-title-decision-and-title-body-v1"  # part of every digest: a new recipe
# makes every stored vector stale
_NO_EMBEDDER: list[bool] = []
_QUERY_CACHE = 256
_KEPT: dict[Any, Any] = {}  # (node id, digest) -> record vector; "embedder" -> its name
_KEPT_LIMIT = 200_000
# Sentence vectors of the records asked about most recently: (embedder, node id, digest) ->
# (matrix, sentences). Only a question's best start is split into sentences, so few are
# ever needed.
_SENTENCES: dict[Any, Any] = {}
_SENTENCES_LIMIT = 512
SENTENCE_WORDS = 4  # shorter "sentences" are labels and fragments ("Status: Accepted")


EMBEDDER_VARIABLE = "DECISIS_EMBEDDER"  # names the embedder answering uses (default: static)
_NAMED: dict[str, Any] = {}  # embedders loaded by name, once a process


def _embedder() -> Any | None:
    """The embedder answering uses: the one ``DECISIS_EMBEDDER`` names, else the default."""
    chosen = os.environ.get(EMBEDDER_VARIABLE) or None
    if chosen is not None:  # asked for by name: an unknown one or a missing extra is said
        found = _NAMED.get(chosen)
        if found is None:
            from decisis.search import embedding

            found = _NAMED[chosen] = embedding.get_embedder(chosen)
        return found
    if _NO_EMBEDDER:
        return None
    try:
        from decisis.search import embedding  # type: ignore[attr-defined,unused-ignore]

        return embedding.get_embedder()
    except Exception:  # no module yet, no model file, no numpy: vectors simply do not vote
        _NO_EMBEDDER.append(True)
        return None


def _name(embedder: Any) -> str:
    return str(getattr(embedder, "name", type(embedder).__name__))


def record_space(embedder: Any) -> str:
    """The store space of record vectors: the embedder's name (its vector space) and what
    was embedded, so vectors of different models never mix."""
    return f"{_name(embedder)}:{RECORD_SPACE}"


def _digest(view: AdrView, key: str) -> str:
    """What a record's vector was computed from: its title and decision, and its file's
    content hash standing for the body (hashing every body per view would cost more)."""
    node, meta = view.records[key], view.meta(key)
    source = meta.get("content_hash") or meta.get("text") or ""
    text = "\0".join([_RECIPE, node.label, node.rationale or "", str(source)])
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _stored(graph: Graph, space: str, wanted: dict[str, str]) -> dict[str, Any]:
    """Vectors the store keeps for ``wanted`` (node id -> digest), stale ones left out."""
    try:
        return graph.store.get_vectors(graph.name, space, list(wanted), digests=wanted)
    except StoreError:  # a store that cannot read them: compute instead
        return {}


def _keep(graph: Graph, space: str, rows: dict[str, Any], digests: dict[str, str]) -> None:
    """Write computed vectors to the store, unless the view is read-only; vectors are a
    cache, so failing to keep them only costs computing them again."""
    if graph.as_of is not None or not rows:
        return
    try:
        graph.store.put_vectors(graph.name, space, rows, digests=digests)
    except DecisisError:  # e.g. a read-only database file, a record just tombstoned
        return


def _record_vectors(embedder: Any, view: AdrView, keys: Sequence[str], graph: Graph | None) -> Any:
    """One unit vector a record: the mean of its title-and-decision and title-and-body
    vectors (chosen on the development questions: better than either alone).

    A view is rebuilt whenever the ledger moves (every correction), while records rarely
    change: vectors are kept across views by node id and digest, per embedder, in the
    process and in the store.
    """
    import numpy as np

    name = _name(embedder)
    if _KEPT.get("embedder") != name:
        _KEPT.clear()
        _KEPT["embedder"] = name
    ident = {k: (view.records[k].id, _digest(view, k)) for k in keys}
    missing = [k for k in keys if ident[k] not in _KEPT]
    if len(_KEPT) + len(missing) > _KEPT_LIMIT:
        _KEPT.clear()
        _KEPT["embedder"] = name
        missing = list(keys)
    space = record_space(embedder)
    if missing and graph is not None:
        stored = _stored(graph, space, dict(ident[k] for k in missing))
        for k in missing:
            vector = stored.get(ident[k][0])
            if vector is not None:
                _KEPT[ident[k]] = vector
        missing = [k for k in missing if ident[k] not in _KEPT]
    if missing:
        short = [f"{view.records[k].label}. {view.records[k].rationale or ''}" for k in missing]
        long = [f"{view.records[k].label}. {view.meta(k).get('text') or ''}" for k in missing]
        matrix = _unit_rows(embedder.embed(short) + embedder.embed(long))
        for k, row in zip(missing, matrix, strict=True):
            _KEPT[ident[k]] = row
        if graph is not None:
            made = {ident[k][0]: _KEPT[ident[k]] for k in missing}
            _keep(graph, space, made, {ident[k][0]: ident[k][1] for k in missing})
    return np.stack([_KEPT[ident[k]] for k in keys])


def _unit_rows(matrix: Any) -> Any:
    """``matrix`` with each row scaled to length 1 (an all-zero row left as it is), so that
    a product with a unit query vector is a cosine, whatever the embedder returns."""
    norms = (matrix * matrix).sum(axis=1, keepdims=True) ** 0.5
    norms[norms == 0] = 1.0
    return matrix / norms


def _query_vector(embedder: Any, view: AdrView, text: str) -> Any:
    cache = view.cache.setdefault("query-vectors", {})
    vector = cache.get(text)
    if vector is None:
        if len(cache) >= _QUERY_CACHE:
            cache.clear()
        vector = cache[text] = embedder.embed([text])[0]
    return vector


def question_similarities(view: AdrView, question: str, ids: Sequence[str]) -> dict[str, float]:
    """Cosine of ``question`` with remembered questions (node ids), when an embedder is
    available (else empty)."""
    embedder = _embedder()
    if embedder is None or not ids:
        return {}
    labels = {n.id: n.label for n in view.questions}
    cache = view.cache.setdefault("question-vectors", {})
    missing = [i for i in ids if i not in cache and i in labels]
    if missing:
        for i, vector in zip(missing, embedder.embed([labels[i] for i in missing]), strict=True):
            cache[i] = vector
    query = _query_vector(embedder, view, question)
    return {i: float(cache[i] @ query) for i in ids if i in cache}


def question_vector(view: AdrView, question: str) -> Any | None:
    """The unit vector of ``question`` (``None`` without an embedder)."""
    import numpy as np

    embedder = _embedder()
    if embedder is None:
        return None
    vector = np.asarray(_query_vector(embedder, view, question), dtype=np.float32)
    norm = float(np.sqrt(vector @ vector))
    return vector / norm if norm else vector


def closest_sentence(view: AdrView, question: str, key: str) -> tuple[float, str] | None:
    """The sentence of record ``key`` (its title among them) closest in meaning to
    ``question``, with its cosine; ``None`` without an embedder. A whole record's vector is
    an average over everything it says; a question about one of its points is closer to
    the sentence that makes it."""
    embedder = _embedder()
    if embedder is None or key not in view.records:
        return None
    ident = (_name(embedder), view.records[key].id, _digest(view, key))
    kept = _SENTENCES.get(ident)
    if kept is None:
        found, raw = _sentence_vectors(embedder, view, key, ident[2])
        if not found:
            return None
        if len(_SENTENCES) >= _SENTENCES_LIMIT:
            _SENTENCES.clear()
        kept = _SENTENCES[ident] = (_unit_rows(raw), found)
    matrix, found = kept
    scores = _cosines(matrix, _query_vector(embedder, view, question))
    best = int(scores.argmax())
    return float(scores[best]), found[best]


_TITLES: dict[Any, Any] = {}  # (embedder, title) -> unit vector
_TITLES_LIMIT = 100_000


def title_similarities(view: AdrView, question: str, keys: Sequence[str]) -> dict[str, float]:
    """The question's cosine with the title alone of each record of ``keys`` (a title is the
    decision in a line); empty without an embedder."""
    embedder = _embedder()
    if embedder is None or not keys:
        return {}
    name = _name(embedder)
    titles = {k: view.records[k].label for k in keys if k in view.records}
    missing = sorted({t for t in titles.values() if (name, t) not in _TITLES})
    if missing:
        if len(_TITLES) + len(missing) > _TITLES_LIMIT:
            _TITLES.clear()
        for title, row in zip(missing, _unit_rows(embedder.embed(missing)), strict=True):
            _TITLES[(name, title)] = row
    query = _query_vector(embedder, view, question)
    return {k: float(_TITLES[(name, t)] @ query) for k, t in titles.items()}


SENTENCE_SPACE = "adr-sentences-v1"  # derived data: a record's sentences and their vectors


def _sentence_vectors(embedder: Any, view: AdrView, key: str, digest: str) -> tuple[list[str], Any]:
    """Record ``key``'s sentences and the embedder's vectors of them, as kept in the store
    (``Store.put_derived``, under the record's digest) or split and embedded now and kept:
    a new process reads them instead of parsing and embedding the record again."""
    import numpy as np

    graph = view.graph
    space = f"{_name(embedder)}:{SENTENCE_SPACE}"
    if graph is not None:
        try:
            body = graph.store.get_derived(graph.name, space, [key], digests={key: digest})
        except StoreError:
            body = {}
        if key in body:
            try:
                found, dtype, dim, data = json.loads(body[key])
                raw = np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype))
                return list(found), raw.reshape(len(found), dim) if found else raw
            except (ValueError, TypeError):  # a body damaged behind decisis's back
                pass
    found = _record_sentences(view, key)
    raw = np.asarray(embedder.embed(found)) if found else np.zeros((0, 0), dtype=np.float32)
    if graph is not None and graph.as_of is None:
        data = base64.b64encode(np.ascontiguousarray(raw).tobytes()).decode()
        text = json.dumps([found, raw.dtype.str, int(raw.shape[1]) if raw.ndim == 2 else 0, data])
        with contextlib.suppress(DecisisError):  # read-only: split and embedded again next time
            graph.store.put_derived(graph.name, space, {key: (digest, text)})
    return found, raw


def _record_sentences(view: AdrView, key: str) -> list[str]:
    """Record ``key``'s title and the sentences of its prose (a list item is one; tables,
    code and headings are left out), each of at least ``SENTENCE_WORDS`` words."""
    from decisis.adr.read.markdown import blocks, prose, sentences  # only on a store's miss

    text = str(view.meta(key).get("text") or "")
    found = [view.records[key].label]
    for start, end in blocks(text):
        found += sentences(prose(text[start:end]))
    return [s for s in found if len(s.split()) >= SENTENCE_WORDS]


def _cosines(matrix: Any, query: Any) -> Any:
    """``matrix @ query`` (unit rows, so cosines), on this thread only: a matrix-vector
    product through BLAS is split across threads that then spin, doubling the CPU time
    of an answer on a large corpus (about 10 ms instead of 5 ms at 50,000 records) for
    little gain in wall-clock time; ``einsum`` does not call BLAS."""
    import numpy as np

    return np.einsum("ij,j->i", matrix, query)


def _top(scores: Any, limit: int) -> list[int]:
    """Positions of the ``limit`` highest ``scores``, highest first, ties by position: a
    partition rather than a sort of every record's score."""
    import numpy as np

    if limit <= 0 or len(scores) == 0:
        return []
    negated = -scores
    if limit < len(scores):
        least = np.partition(negated, limit - 1)[limit - 1]  # minus the limit-th highest
        chosen = np.flatnonzero(negated <= least)  # more than limit on a tie at the edge
    else:
        chosen = np.arange(len(scores))
    ranked = chosen[np.lexsort((chosen, negated[chosen]))][:limit]
    return [int(i) for i in ranked]


def record_matrix(view: AdrView, graph: Graph | None = None) -> Any | None:
    """The vectors of ``view``'s records, one row each in the view's order, kept on the
    view (and, with ``graph``, in its store); ``None`` without an embedder or records."""
    embedder = _embedder()
    return None if embedder is None else _matrix(embedder, view, graph)


def _matrix(embedder: Any, view: AdrView, graph: Graph | None) -> Any | None:
    """``record_matrix`` with the embedder already in hand."""
    if not view.records:
        return None
    matrix = view.cache.get("vectors")
    if matrix is None:
        matrix = view.cache["vectors"] = _record_vectors(embedder, view, list(view.records), graph)
    return matrix


def similarities(
    view: AdrView,
    question: str,
    limit: int,
    also: Sequence[str] = (),
    graph: Graph | None = None,
) -> dict[str, float]:
    """The ``limit`` records most similar to ``question``, and those in ``also``, with their
    cosine. With ``graph`` (the one ``view`` shows), record vectors are read from and
    kept in its store."""
    embedder = _embedder()
    matrix = None if embedder is None else _matrix(embedder, view, graph)
    if matrix is None:
        return {}
    keys = list(view.records)
    query = _query_vector(embedder, view, question)
    scores = _cosines(matrix, query)
    out = {keys[i]: float(scores[i]) for i in _top(scores, limit)}
    positions = view.cache.get("vector-positions")
    if positions is None:
        positions = view.cache["vector-positions"] = {k: i for i, k in enumerate(keys)}
    for key in also:
        i = positions.get(key)
        if i is not None:
            out.setdefault(key, float(scores[i]))
    return out


def closest_records(graph: Graph, text: str, k: int = 5) -> list[tuple[str, float]]:
    """The ``k`` records of ``graph`` closest to ``text`` in meaning, with their cosine, best
    first (plain vector search over the default embedder's record vectors; empty without
    an embedder). Record vectors are read from and kept in the graph's store."""
    from decisis.adr.link.view import view_of

    found = similarities(view_of(graph), text, k, graph=graph)
    return sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
