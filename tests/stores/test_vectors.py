"""Vectors in the store, on every backend: exact round trips, the same nearest neighbours as
numpy brute force, tombstones and ``as_of`` respected, bad input refused with nothing written.

Vectors are derived data: writing them moves no ledger head and leaves ``verify`` green.
The plain PostgreSQL server has no pgvector, so ``postgres`` tests the array fallback;
with ``DECISIS_TEST_PGVECTOR_URL`` set the suite also runs on pgvector with its HNSW index.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from decisis.errors import Conflict, InvalidInput, NotFound
from decisis.stores import Store, open_store
from decisis.stores.replay import verify
from tests.stores.helpers import BACKENDS, G, add_chain, add_node, at, tombstoned

S = "test-model:abc123:note"  # a space: embedder name plus what was embedded


@pytest.fixture(params=[*sorted(BACKENDS), "pgvector"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Every backend of the conformance suite, and PostgreSQL with pgvector."""
    if request.param == "pgvector":
        from tests.stores.postgres.pgvector import PgvectorStore

        opened: Store = PgvectorStore()
        assert opened.vector_index == "pgvector-hnsw"  # type: ignore[attr-defined]
    else:
        opened = BACKENDS[request.param](tmp_path)
    try:
        yield opened
    finally:
        opened.close()


def _unit(rng: np.random.Generator, n: int, dim: int) -> NDArray[np.float32]:
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _reference(
    vectors: dict[str, NDArray[np.float32]], query: NDArray[np.float32], k: int
) -> list[str]:
    """Brute force in float64: the ids of the ``k`` highest cosines."""
    q = query.astype(np.float64) / np.linalg.norm(query)
    score = {i: float(v.astype(np.float64) @ q / np.linalg.norm(v)) for i, v in vectors.items()}
    return sorted(score, key=lambda i: (-score[i], i))[:k]


def _nodes(store: Store, n: int) -> list[str]:
    return [node.id for node in add_chain(store, n)]


def test_vectors_round_trip_exactly_as_float32(store: Store) -> None:
    a, b, c = _nodes(store, 3)
    given = np.array([0.1, -2.5, 1e-30, 3.4e38], dtype=np.float32)
    written = store.put_vectors(G, S, [(a, given), (b, [1, 2, 3, 4]), (c, (0.5, 0.25, 0.0, -1.0))])
    assert written == 3
    got = store.get_vectors(G, S)
    assert sorted(got) == sorted([a, b, c])
    assert got[a].dtype == np.float32
    assert np.array_equal(got[a], given)
    assert np.array_equal(got[b], np.array([1, 2, 3, 4], dtype=np.float32))
    assert np.array_equal(got[c], np.array([0.5, 0.25, 0.0, -1.0], dtype=np.float32))
    assert list(store.get_vectors(G, S, [c, "no-such-node", a])) == [c, a]
    assert store.vector_spaces(G) == {S: 4}


def test_a_mapping_is_accepted_and_a_second_put_replaces(store: Store) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, {a: [1.0, 0.0], b: [0.0, 1.0]})
    store.put_vectors(G, S, [(a, [0.0, -1.0])])
    got = store.get_vectors(G, S)
    assert got[a].tolist() == [0.0, -1.0]
    assert got[b].tolist() == [0.0, 1.0]


def test_nearest_agrees_with_numpy_brute_force(store: Store) -> None:
    rng = np.random.default_rng(7)
    ids = _nodes(store, 120)
    matrix = _unit(rng, len(ids), 24) * rng.uniform(0.5, 2.0, (len(ids), 1)).astype(np.float32)
    store.put_vectors(G, S, list(zip(ids, matrix, strict=True)))
    vectors = dict(zip(ids, matrix, strict=True))
    for query in _unit(rng, 5, 24):
        hits = store.nearest(G, S, query, 10)
        assert [h.id for h in hits] == _reference(vectors, query, 10)
        want = vectors[hits[0].id] @ query / np.linalg.norm(vectors[hits[0].id])
        assert hits[0].score == pytest.approx(float(want), abs=1e-5)
        assert all(x.score >= y.score for x, y in pairwise(hits))
    among = ids[::7]
    query = _unit(rng, 1, 24)[0]
    hits = store.nearest(G, S, query, 5, ids=among)
    assert [h.id for h in hits] == _reference({i: vectors[i] for i in among}, query, 5)
    assert store.nearest(G, S, query, 0) == []
    assert len(store.nearest(G, S, query, 500)) == len(ids)


def test_ties_are_broken_by_id_and_scores_are_cosines(store: Store) -> None:
    a, b, c = _nodes(store, 3)
    store.put_vectors(G, S, [(c, [2.0, 0.0]), (a, [1.0, 0.0]), (b, [0.0, 3.0])])
    hits = store.nearest(G, S, [5.0, 0.0], 3)
    assert [h.id for h in hits] == [a, c, b]
    assert [round(h.score, 6) for h in hits] == [1.0, 1.0, 0.0]
    assert hits[0] == (a, hits[0].score)  # a (node id, cosine) pair


def test_nearest_sees_every_change_since_the_last_query(store: Store) -> None:
    a, b, c = _nodes(store, 3)
    store.put_vectors(G, S, [(a, [0.0, 1.0]), (b, [1.0, 0.2])])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 1)] == [b]
    store.put_vectors(G, S, [(a, [1.0, 0.0])])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 1)] == [a]
    store.delete_vectors(G, S, [a])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 3)] == [b]
    store.put_vectors(G, S, [(c, [1.0, 0.1])])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 3)] == [c, b]
    store.append(G, [tombstoned(c)])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 3)] == [b]


def test_a_second_sqlite_store_on_the_file_sees_the_first_ones_writes(tmp_path: Path) -> None:
    """SQLite keeps each space stacked between queries; a write by another connection
    (another process) changes the space's version, so the stack is rebuilt."""
    first, second = (open_store(f"sqlite:///{tmp_path}/shared.db") for _ in range(2))
    try:
        a, b = _nodes(first, 2)
        first.put_vectors(G, S, [(a, [1.0, 0.0])])
        assert [h.id for h in second.nearest(G, S, [0.0, 1.0], 2)] == [a]
        first.put_vectors(G, S, [(b, [0.0, 1.0])])
        assert [h.id for h in second.nearest(G, S, [0.0, 1.0], 2)] == [b, a]
        first.delete_vectors(G, S)
        assert second.nearest(G, S, [0.0, 1.0], 2) == []
    finally:
        first.close()
        second.close()


def test_tombstoned_nodes_are_never_returned(store: Store) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, [(a, [1.0, 0.0]), (b, [0.9, 0.1])])
    store.append(G, [tombstoned(a)])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 5)] == [b]
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 5, ids=[a, b])] == [b]
    assert list(store.get_vectors(G, S)) == [b]
    assert store.get_vectors(G, S, [a]) == {}
    with pytest.raises(Conflict, match="tombstoned"):
        store.put_vectors(G, S, [(a, [1.0, 0.0])])


def test_as_of_leaves_out_nodes_not_valid_then(store: Store) -> None:
    early = add_node(store, label="early", when=at(0)).id
    late = add_node(store, label="late", when=at(10)).id
    store.put_vectors(G, S, [(early, [0.0, 1.0]), (late, [1.0, 0.0])])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 2, as_of=at(5))] == [early]
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 2, as_of=at(20))] == [late, early]


def test_zero_vectors_are_similar_to_nothing(store: Store) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, [(a, [0.0, 0.0]), (b, [0.0, -1.0])])
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 5)] == [b]
    assert store.nearest(G, S, [0.0, 0.0], 5) == []
    assert store.get_vectors(G, S)[a].tolist() == [0.0, 0.0]


def test_spaces_and_graphs_never_mix(store: Store) -> None:
    (a,) = _nodes(store, 1)
    other = add_node(store, graph="other").id
    store.put_vectors(G, S, [(a, [1.0, 0.0])])
    store.put_vectors(G, "other-model:ffff:note", [(a, [1.0, 0.0, 0.0])])
    store.put_vectors("other", S, [(other, [0.0, 1.0, 0.0, 0.0])])
    assert store.vector_spaces(G) == {S: 2, "other-model:ffff:note": 3}
    assert store.vector_spaces("other") == {S: 4}
    assert [h.id for h in store.nearest(G, S, [1.0, 0.0], 5)] == [a]
    assert list(store.get_vectors("other", S)) == [other]
    assert store.nearest(G, "unknown-space", [1.0], 3) == []
    assert store.get_vectors(G, "unknown-space") == {}
    assert store.vector_spaces("no-graph") == {}


def test_delete_some_or_the_whole_space(store: Store) -> None:
    a, b, c = _nodes(store, 3)
    store.put_vectors(G, S, [(a, [1.0, 0.0]), (b, [0.0, 1.0]), (c, [1.0, 1.0])])
    assert store.delete_vectors(G, S, [a, "no-such-node"]) == 1
    assert sorted(store.get_vectors(G, S)) == sorted([b, c])
    assert store.delete_vectors(G, S) == 2
    assert store.vector_spaces(G) == {}
    assert store.delete_vectors(G, S) == 0
    store.put_vectors(G, S, [(a, [1.0, 2.0, 3.0])])  # a deleted space may take a new dimension
    assert store.vector_spaces(G) == {S: 3}


def test_digests_make_stale_vectors_read_as_missing(store: Store) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, [(a, [1.0, 0.0]), (b, [0.0, 1.0])], digests={a: "h1", b: "h2"})
    assert sorted(store.get_vectors(G, S, digests={a: "h1", b: "h2"})) == sorted([a, b])
    assert list(store.get_vectors(G, S, digests={a: "h1", b: "changed"})) == [a]
    assert list(store.get_vectors(G, S, [b], digests={a: "h1", b: "h2"})) == [b]
    store.put_vectors(G, S, [(b, [0.0, 2.0])])  # no digest: matches no digest asked for
    assert list(store.get_vectors(G, S, digests={b: "h2"})) == []
    assert sorted(store.get_vectors(G, S)) == sorted([a, b])


def test_vector_digests_say_what_each_vector_was_put_with(store: Store) -> None:
    a, b, c, gone = _nodes(store, 4)
    assert store.vector_digests(G, S) == {}  # an unknown space
    store.put_vectors(G, S, [(a, [1.0, 0.0]), (b, [0.0, 1.0])], digests={a: "h1", b: "h2"})
    store.put_vectors(G, S, [(c, [1.0, 1.0]), (gone, [2.0, 1.0])])
    store.append(G, [tombstoned(gone)])
    assert store.vector_digests(G, S) == {a: "h1", b: "h2", c: None}
    assert store.vector_digests(G, S, [b, c, "0" * 26]) == {b: "h2", c: None}
    assert store.vector_digests(G, S, []) == {}
    store.put_vectors(G, S, [(a, [0.5, 0.5])], digests={a: "h3"})
    assert store.vector_digests(G, S, [a]) == {a: "h3"}
    assert store.vector_digests(G, "another-model:note") == {}


def test_vectors_are_not_ledger_events(store: Store) -> None:
    (a,) = _nodes(store, 1)
    head = store.head(G)
    store.put_vectors(G, S, [(a, [1.0, 0.0])])
    store.delete_vectors(G, S, [a])
    assert store.head(G) == head
    assert verify(store, G).ok


def _nothing_written(store: Store, a: str, before: dict[str, Any]) -> None:
    assert store.get_vectors(G, S).keys() == before.keys()
    for key, vector in store.get_vectors(G, S).items():
        assert np.array_equal(vector, before[key])
    assert store.vector_spaces(G) == ({S: 2} if before else {})


BAD_VECTORS: list[tuple[Any, str]] = [
    ([1.0, float("nan")], "NaN"),
    ([1.0, float("inf")], "NaN or an infinity"),
    ([1.0, 1e39], "infinity"),  # finite as float64, not as float32
    (["1.0", "2.0"], "<U3"),
    ("12", "not a vector"),
    ([True, False], "bool"),
    ([[1.0, 2.0]], "shape"),
    ([], "shape"),
    ([1.0, None], "object"),
    ({"x": 1.0}, "not a vector"),
    ([1 + 2j, 0], "complex"),
]


@pytest.mark.parametrize(("bad", "says"), BAD_VECTORS)
def test_bad_vectors_are_refused_and_nothing_is_written(store: Store, bad: Any, says: str) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, [(a, [1.0, 0.0])])
    before = store.get_vectors(G, S)
    with pytest.raises(InvalidInput, match=says) as caught:
        store.put_vectors(G, S, [(a, [0.0, 1.0]), (b, bad)])
    assert caught.value.field == "vector"
    assert b in str(caught.value)
    _nothing_written(store, a, before)


def test_a_wrong_dimension_names_both_and_nothing_is_written(store: Store) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, [(a, [1.0, 0.0])])
    before = store.get_vectors(G, S)
    with pytest.raises(InvalidInput, match=r"dimension 3 does not match .* dimension 2"):
        store.put_vectors(G, S, [(a, [0.0, 1.0, 0.0]), (b, [1.0, 1.0, 1.0])])
    with pytest.raises(InvalidInput, match=r"dimension 3 differs from the batch's 2"):
        store.put_vectors(G, S, [(a, [0.0, 1.0]), (b, [1.0, 1.0, 1.0])])
    with pytest.raises(InvalidInput, match=r"dimension 3 does not match .* dimension 2"):
        store.nearest(G, S, [1.0, 0.0, 0.0])
    _nothing_written(store, a, before)


def test_the_first_batch_of_a_space_is_checked_too(store: Store) -> None:
    a, b = _nodes(store, 2)
    with pytest.raises(InvalidInput, match="differs"):
        store.put_vectors(G, S, [(a, [0.0, 1.0]), (b, [1.0])])
    with pytest.raises(NotFound, match="no-such-node"):
        store.put_vectors(G, S, [(a, [0.0, 1.0]), ("no-such-node", [1.0, 0.0])])
    assert store.vector_spaces(G) == {}
    assert store.get_vectors(G, S) == {}


def test_an_unknown_node_is_not_found_and_nothing_is_written(store: Store) -> None:
    a, b = _nodes(store, 2)
    store.put_vectors(G, S, [(a, [1.0, 0.0])])
    before = store.get_vectors(G, S)
    with pytest.raises(NotFound, match="no-such-node") as caught:
        store.put_vectors(G, S, [(b, [0.0, 1.0]), ("no-such-node", [1.0, 0.0])])
    assert isinstance(caught.value, LookupError)
    with pytest.raises(NotFound):
        store.put_vectors("other graph", S, [(a, [1.0, 0.0])])  # a lives in graph G only
    _nothing_written(store, a, before)


@pytest.mark.parametrize(
    ("items", "field"),
    [
        ([("x", [1.0, 0.0], "extra")], "items"),
        ([(7, [1.0, 0.0])], "items"),
        ("not pairs", "items"),
        (42, "items"),
    ],
)
def test_malformed_items_are_refused(store: Store, items: Any, field: str) -> None:
    _nodes(store, 1)
    with pytest.raises(InvalidInput) as caught:
        store.put_vectors(G, S, items)
    assert caught.value.field == field
    assert store.vector_spaces(G) == {}


def test_duplicates_bad_spaces_and_bad_arguments_are_refused(store: Store) -> None:
    (a,) = _nodes(store, 1)
    with pytest.raises(InvalidInput, match="twice"):
        store.put_vectors(G, S, [(a, [1.0]), (a, [2.0])])
    for space in ("", " padded ", 3, "x" * 301):
        with pytest.raises(InvalidInput) as caught:
            store.put_vectors(G, space, [(a, [1.0])])  # type: ignore[arg-type]
        assert caught.value.field == "space"
    with pytest.raises(InvalidInput, match="digests"):
        store.put_vectors(G, S, [(a, [1.0])], digests={a: 5})  # type: ignore[dict-item]
    assert store.vector_spaces(G) == {}
    store.put_vectors(G, S, [(a, [1.0])])
    with pytest.raises(InvalidInput) as caught:
        store.nearest(G, S, [1.0], -1)
    assert caught.value.field == "k"
    with pytest.raises(InvalidInput, match="k"):
        store.nearest(G, S, [1.0], None)  # type: ignore[arg-type]
    # past 64 bits is as many as there are (PostgreSQL could not bind it as a LIMIT)
    assert [h.id for h in store.nearest(G, S, [1.0], 2**70)] == [a]
    with pytest.raises(InvalidInput):
        store.nearest(G, S, [float("nan")])
    with pytest.raises(InvalidInput):
        store.nearest(G, S, [1.0], ids=a)
    with pytest.raises(InvalidInput):
        store.get_vectors(G, S, a)
    assert store.put_vectors(G, S, []) == 0
