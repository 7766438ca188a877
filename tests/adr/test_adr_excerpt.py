"""The passage of the standing record quoted beside its decision sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.adr.answer import ask
from decisis.adr.answer.excerpt import excerpt, passages
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of

HOSTING = """# 1. AWS hosting region

Date: 2021-03-01

## Status

Accepted

## Context

Our servers sit in a data centre in the Slough region, and its lease ends next year.

## Options

1. Move every service to the Dublin region of another provider.

## Decision

We host every service on Amazon Web Services.

We will use the eu-west-2 region, London, for every environment.

## Consequences

- Engineers need AWS accounts before the move.
"""

OTHERS = {
    "002-logging.md": "# 2. Logging\n\nDate: 2021-04-01\n\n## Status\n\nAccepted\n\n"
    "## Decision\n\nServices write logs to stdout and a collector ships them.\n",
    "003-builds.md": "# 3. Builds\n\nDate: 2021-05-01\n\n## Status\n\nAccepted\n\n"
    "## Decision\n\nBuilds run on GitHub Actions with hosted runners.\n",
    "004-databases.md": "# 4. Databases\n\nDate: 2021-06-01\n\n## Status\n\nAccepted\n\n"
    "## Decision\n\nApplications use managed PostgreSQL databases on AWS with nightly backups.\n",
}


@pytest.fixture()
def team(tmp_path: Path) -> Path:
    folder = tmp_path / "team"
    folder.mkdir()
    (folder / "001-hosting.md").write_text(HOSTING, encoding="utf-8")
    for name, text in OTHERS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_passage_on_the_asked_detail_is_quoted(team: Path, tmp_path: Path) -> None:
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        answer = ask(g, "Which AWS region do our services run in?")
    assert answer.answer == "team:001"
    said = 'On "region" it says: "We will use the eu-west-2 region, London, for every environment."'
    assert said in answer.text
    assert answer.to_dict()["excerpt"] == {
        "text": "We will use the eu-west-2 region, London, for every environment.",
        "about": ["region"],
    }
    assert "Slough" not in answer.text and "Dublin" not in answer.text


def test_no_quote_when_the_decision_sentence_says_it(team: Path) -> None:
    with decisis.open("memory://") as g:
        ingest(g, team)
        answer = ask(g, "Where do our build pipelines run, GitHub Actions?")
    assert answer.answer == "team:003"
    assert answer.quote is None and answer.to_dict()["excerpt"] is None
    assert "it says" not in answer.text


def test_an_abstention_quotes_nothing(team: Path) -> None:
    with decisis.open("memory://") as g:
        ingest(g, team)
        answer = ask(g, "What is the dress code for the summer party?")
    assert answer.answer is None and answer.to_dict()["excerpt"] is None


def test_passages_are_what_was_decided() -> None:
    found = list(passages(HOSTING))
    assert "We will use the eu-west-2 region, London, for every environment." in found
    assert "Engineers need AWS accounts before the move." in found  # a list item
    # the context (the state the record changed), the options, the status and the date
    # line are not what was decided
    assert not [p for p in found if "Slough" in p or "Dublin" in p]
    assert not [p for p in found if p.startswith(("Date", "Accepted"))]


def test_table_rows_and_sentences_are_passages_of_their_own() -> None:
    text = (
        "# 5. Ranges\n\n## Decision\n\nThe networks get these ranges:\n\n"
        "|Environment|Range|\n|---|---|\n|Staging|10.12.0.0/16|\n\n"
        "Staging moves from 10.2.0.0/16. Production stays where it is.\n\n"
        "```\nnot a passage: code\n```\n"
    )
    found = list(passages(text))
    assert "Staging | 10.12.0.0/16" in found
    assert "Staging moves from 10.2.0.0/16." in found
    assert "Production stays where it is." in found
    assert not [p for p in found if "code" in p or "---" in p]


def test_a_record_without_sections_is_all_decision() -> None:
    assert list(passages("# 6. Queues\n\nWe use SQS. Kafka is gone.\n")) == [
        "We use SQS.",
        "Kafka is gone.",
    ]


def test_a_quote_without_an_end_mark_ends_its_sentence(corpus_graph: decisis.Graph) -> None:
    answer = ask(
        corpus_graph,
        "Will user workloads on the Container Platform run in EKS managed node groups like today?",
    )
    assert answer.quote is not None and not answer.quote.text.endswith(".")
    assert f'"{answer.quote.text}". It replaced' in answer.text


def test_on_the_corpus_a_range_question_gets_the_line_that_moves_it(
    corpus_graph: decisis.Graph,
) -> None:
    answer = ask(corpus_graph, "Is the production VPC's IP range 10.3.0.0/16?")
    assert answer.quote is not None and "10.13.0.0/16" in answer.quote.text
    assert answer.quote.about == ("10.3.0.0/16",)
    assert answer.tokens <= 150


def _small_team(tmp_path: Path, decision: str) -> Path:
    folder = tmp_path / "small"
    folder.mkdir()
    (folder / "001-hosting.md").write_text(
        "# 1. AWS hosting region\n\nDate: 2021-03-01\n\n## Status\n\nAccepted\n\n"
        f"## Decision\n\n{decision}\n",
        encoding="utf-8",
    )
    for name, text in OTHERS.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "005-offices.md").write_text(
        "# 5. Offices\n\nDate: 2021-07-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nTeams move to the new office in Leeds.\n",
        encoding="utf-8",
    )
    return folder


def test_a_passage_holding_one_question_word_must_hold_its_rarest(tmp_path: Path) -> None:
    decision = "We host every service on AWS.\n\nTeams move their services during the spring."
    with decisis.open("memory://") as g:
        ingest(g, _small_team(tmp_path, decision))
        view = view_of(g)
        question = "Which region do our services move to?"
        summary = "We host every service on AWS."
        # "move" is one of the question's two rarest words, but "region" is the rarest: a
        # passage that holds "move" alone is about moving, not about the region asked
        assert excerpt(view, "small:001", question, summary) is None
        said = excerpt(view, "small:001", "Where do teams move their services?", summary)
        assert said is not None and said.text == "Teams move their services during the spring."


def test_a_lead_in_to_a_list_is_not_quoted(tmp_path: Path) -> None:
    decision = "We host every service on AWS.\n\nThe region of each environment is:\n\n- eu-west-2"
    with decisis.open("memory://") as g:
        ingest(g, _small_team(tmp_path, decision))
        found = excerpt(view_of(g), "small:001", "Which region?", "We host every service on AWS.")
    assert found is None or not found.text.endswith(":")


def test_a_word_holding_two_question_terms_is_named_once(tmp_path: Path) -> None:
    decision = "We host every service on AWS.\n\nNo organisation-wide trail is enabled yet."
    with decisis.open("memory://") as g:
        ingest(g, _small_team(tmp_path, decision))
        found = excerpt(
            view_of(g),
            "small:001",
            "Is it organisation-wide?",
            "We host every service on AWS.",
        )
    assert found is not None and found.about.count("organisation-wide") == 1
