"""The sentence of a record closest to a question in meaning (``closest_sentence``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import decisis
from decisis.adr.answer import vectors
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from decisis.search.embedding import get_embedder

RECORD = (
    "# 1. Use a policy agent\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n"
    "Clusters are shared. Our first need was to stop two teams claiming one hostname.\n\n"
    "## Decision\n\n- Rules are written in Rego and reviewed like code\n"
    "- See [the docs](https://example.org)\n\n"
    "| Check | When |\n| --- | --- |\n| unique hostnames in every ingress | admission |\n"
)


@pytest.fixture()
def graph(tmp_path: Path) -> decisis.Graph:
    team = tmp_path / "team"
    team.mkdir()
    (team / "0001-policy-agent.md").write_text(RECORD, encoding="utf-8")
    g = decisis.open(f"sqlite:///{tmp_path / 'g.db'}")
    ingest(g, team)
    return g


def test_a_record_is_split_into_its_title_and_the_sentences_of_its_prose(
    graph: decisis.Graph,
) -> None:
    found = vectors._record_sentences(view_of(graph), "team:0001")
    assert found[0] == "Use a policy agent"
    assert "Our first need was to stop two teams claiming one hostname." in found
    assert "Rules are written in Rego and reviewed like code" in found  # a list item, whole
    assert "Clusters are shared." not in found  # fewer than SENTENCE_WORDS words
    assert not any("Status" in s or "2020" in s or "|" in s for s in found)  # not prose


def test_it_is_the_sentence_of_the_highest_cosine(graph: decisis.Graph) -> None:
    view = view_of(graph)
    question = "Can two teams claim one hostname?"
    found = vectors._record_sentences(view, "team:0001")
    matrix = get_embedder().embed([*found, question])
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    cosines = matrix[:-1] @ matrix[-1]
    got = vectors.closest_sentence(view, question, "team:0001")
    assert got is not None
    assert got[0] == pytest.approx(float(cosines.max()), abs=1e-5)
    assert (
        got[1]
        == found[int(cosines.argmax())]
        == ("Our first need was to stop two teams claiming one hostname.")
    )
    again = vectors.closest_sentence(view_of(graph), question, "team:0001")  # kept across views
    assert again is not None and again[1] == got[1]


def test_no_embedder_or_no_record_gives_none(
    graph: decisis.Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = view_of(graph)
    assert vectors.closest_sentence(view, "hostnames?", "team:9999") is None
    monkeypatch.setattr(vectors, "_embedder", lambda: None)
    assert vectors.closest_sentence(view, "hostnames?", "team:0001") is None


def test_sentence_vectors_are_kept_in_the_store_and_read_back(graph: decisis.Graph) -> None:
    question = "Can two teams claim one hostname?"
    view = view_of(graph)
    first = vectors.closest_sentence(view, question, "team:0001")
    space = f"{get_embedder().name}:{vectors.SENTENCE_SPACE}"
    kept = graph.store.get_derived(graph.name, space)
    assert list(kept) == ["team:0001"]
    # Tamper with the kept sentence (its vector stays): a new process reads the store's.
    body = json.loads(kept["team:0001"])
    best = body[0].index(first[1]) if first else -1
    body[0][best] = "a sentence only the store holds"
    digest = vectors._digest(view, "team:0001")
    graph.store.put_derived(graph.name, space, {"team:0001": (digest, json.dumps(body))})
    vectors._SENTENCES.clear()  # as a new process
    again = vectors.closest_sentence(view, question, "team:0001")
    assert first is not None and again == (first[0], "a sentence only the store holds")


def test_a_past_view_keeps_no_sentence_vectors(graph: decisis.Graph) -> None:
    vectors._SENTENCES.clear()
    past = graph.at(graph.history(graph.nodes()[0].id)[-1].at)
    assert vectors.closest_sentence(view_of(past), "one hostname?", "team:0001") is not None
    assert past.store.derived_spaces(past.name) == {}  # its replayed store: nothing written
