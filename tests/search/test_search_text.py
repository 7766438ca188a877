from __future__ import annotations

import pytest

from decisis.search.fusion import fuse
from decisis.search.terms import TermIndex
from decisis.search.text import stem, terms


def test_terms_drop_stop_words_dates_and_urls() -> None:
    got = terms("Should we use the pipelines? See https://x.org/a on 2020-01-02 for gov.uk")
    assert got == ["pipelin", "see", "gov.uk", "gov", "uk"]


def test_index_ranks_rare_words_and_reports_coverage() -> None:
    index = TermIndex.build(
        [("a", {"title": "Use Kafka", "body": "queues"}), ("b", {"title": "Use Postgres"})]
    )
    hits = index.search("Do we use Kafka queues?")
    assert hits[0].doc == "a" and hits[0].coverage == 1.0


def test_fusion_adds_weighted_reciprocal_ranks() -> None:
    fused = fuse({"x": ["a", "b"], "y": ["b"]}, {"x": 1.0, "y": 1.0})
    assert fused[0].doc == "b" and fused[0].votes == {"x": 2, "y": 1}


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [("amis", "ami"), ("apis", "api"), ("kpis", "kpi"), ("basis", "basis"), ("status", "status")],
)
def test_plural_acronyms_lose_their_s_but_words_ending_in_is_keep_it(
    word: str, stemmed: str
) -> None:
    assert stem(word) == stemmed
    assert stem(word[:-1]) == stemmed or word in ("basis", "status")
