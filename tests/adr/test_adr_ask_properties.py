"""Any question text, however odd (markup, abbreviations, record numbers, "A or B", control
characters, contractions), gets an answer or an abstention, or is refused as input: never a
Python error from inside. Asking writes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import decisis
from decisis.adr.answer import ask
from decisis.adr.link.ingest import ingest
from decisis.errors import InvalidInput

PIECES = st.sampled_from(
    [
        "CI",
        "Concourse",
        "GOV.UK",
        "MP",
        "or",
        "how long",
        "which version",
        "ADR-2",
        "ADR 0002",
        "team:002",
        "we've",
        "don't",
        "k8s",
        "`",
        "**",
        "[x](y)",
        "#",
        "\u2019",
        "?",
        "10.0.0.0/16",
        "2019-01-01",
        "still",
        "now",
        "Jenkins",
        "builds",
        "A or B, or C",
    ]
)
QUESTIONS = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=25).map(" ".join),
)


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[decisis.Graph]:
    from tests.agent.conftest import write_adrs

    folder: Path = tmp_path_factory.mktemp("ask")
    with decisis.open(f"sqlite:///{folder / 'ask.db'}") as g:
        ingest(g, write_adrs(folder))
        yield g


def test_any_question_is_answered_abstained_on_or_refused(graph: decisis.Graph) -> None:
    keys = {"team:001", "team:002"}
    head = graph.store.head(graph.name)

    @settings(
        max_examples=300,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(QUESTIONS)
    def asked(question: str) -> None:
        try:
            answer = ask(graph, question)
        except InvalidInput:
            assert not question.strip() or len(question) > 4000 or "\x00" in question
            return
        assert answer.answer is None or answer.answer in keys
        assert set(answer.chain) <= keys
        json.dumps(answer.to_dict())

    asked()
    assert graph.store.head(graph.name) == head  # asking wrote nothing
