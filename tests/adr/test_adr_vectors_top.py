"""The vector vote's top records: the highest cosines, highest first, ties by record
position, whatever the partition picks at a tie on the edge; cosines as the plain
matrix-vector product gives them."""

from __future__ import annotations

import numpy as np

from decisis.adr.answer.vectors import _cosines, _top


def _sorted_top(scores: np.ndarray, limit: int) -> list[int]:
    return sorted(range(len(scores)), key=lambda i: (-float(scores[i]), i))[: max(limit, 0)]


def test_top_is_a_full_sort_by_score_then_position() -> None:
    rng = np.random.default_rng(3)
    for _ in range(500):
        size = int(rng.integers(0, 40))
        limit = int(rng.integers(-1, 50))
        scores = (rng.integers(0, 4, size) / 3).astype(np.float32)  # many ties
        assert _top(scores, limit) == _sorted_top(scores, limit)


def test_top_breaks_a_tie_on_the_edge_by_position() -> None:
    scores = np.array([0.1, 0.5, 0.9, 0.5, 0.5, 0.2], dtype=np.float32)
    assert _top(scores, 3) == [2, 1, 3]
    assert _top(scores, 1) == [2]
    assert _top(scores, 10) == [2, 1, 3, 4, 5, 0]


def test_cosines_match_the_matrix_vector_product() -> None:
    rng = np.random.default_rng(4)
    matrix = rng.standard_normal((300, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    query = matrix[7]
    got = _cosines(matrix, query)
    assert got.dtype == np.float32 and got.shape == (300,)
    assert np.allclose(got, matrix @ query, atol=1e-6)
    assert int(np.argmax(got)) == 7
