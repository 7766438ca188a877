"""Questions that name a record by key or number (``decisis.adr.answer.named``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import decisis
from decisis.adr.answer import Answer, ask
from decisis.adr.answer.named import named_records
from decisis.adr.link.view import view_of
from tests.adr.conftest import WriteFn


@pytest.mark.parametrize(
    "question",
    ["Is cloud-platform:022 still in force?", "Is ADR 22 of the Cloud Platform still valid?"],
)
def test_a_record_named_is_where_the_question_starts_and_is_asked_about_whole(
    corpus_graph: decisis.Graph, question: str
) -> None:
    answer = ask(corpus_graph, question)
    # Karpenter took over only its scaling: the EKS record stands, and the answer says so
    assert answer.answer == "cloud-platform:022" and answer.chain == ["cloud-platform:022"]
    assert 'Part of it was taken over by cloud-platform:047 "Use Karpenter For Scaling"' in (
        answer.text
    )


def test_a_record_named_that_was_replaced_walks_to_what_stands(corpus_graph: decisis.Graph) -> None:
    answer = ask(corpus_graph, "What replaced modernisation-platform:0004?")
    assert answer.chain == ["modernisation-platform:0004", "modernisation-platform:0019"]


def test_a_number_several_teams_have_is_asked_back(corpus_graph: decisis.Graph) -> None:
    answer = ask(corpus_graph, "Is ADR-22 still valid?")
    assert answer.answer is None and answer.chain == []
    for key in ("cloud-platform:022", "govuk-aws:0022", "modernisation-platform:0022"):
        assert key in answer.text
    assert "Name the team" in answer.text


@pytest.mark.parametrize(
    "question",
    [
        "Do we keep audit records 7 years?",  # an amount, not a record
        "Is cloud-platform:022 or cloud-platform:047 the one for scaling?",  # a comparison
        "How do we scale the cluster?",
    ],
)
def test_questions_that_name_no_one_record(corpus_graph: decisis.Graph, question: str) -> None:
    assert len(named_records(view_of(corpus_graph), question, None)) != 1


def test_a_record_named_by_number_answers_whatever_its_words(
    write: WriteFn, ask_team: Callable[..., list[Answer]]
) -> None:
    write(
        "0007-use-nomad.md",
        "# 7. Use Nomad\n\nDate: 2021-03-01\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        "Nomad schedules our jobs.\n",
    )
    named, searched = ask_team("Does ADR 7 still stand?", "Does the dress code still stand?")
    assert named.answer == "team:0007" and named.confidence > 0
    assert searched.answer is None
