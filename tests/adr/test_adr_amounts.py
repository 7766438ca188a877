"""Questions asking how long, and records that do or do not say."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import decisis
from decisis.adr.amounts import asks_duration, states_duration
from decisis.adr.answer import ask
from decisis.adr.ingest import ingest

WriteFn = Callable[[str, str | bytes], Path]

DATABASES = (
    "# 4. Use managed databases\n\nDate: 2021-03-01\n\n## Status\n\nAccepted\n\n## Context\n\n"
    "Teams run Postgres on their own EC2 instances and patch it by hand.\n\n## Decision\n\n"
    "We will use RDS for every Postgres database, with automated backups turned on.\n"
)
LOGS = (
    "# 5. Central logging\n\nDate: 2021-04-01\n\n## Status\n\nAccepted\n\n## Context\n\n"
    "Application logs are scattered over hosts.\n\n## Decision\n\n"
    "Ship all application logs to OpenSearch, where they are kept for 30 days.\n"
)


@pytest.mark.parametrize(
    "question",
    [
        "How long are RDS backups retained?",
        "For how long do we keep application logs?",
        "How many days are audit logs kept?",
        "HOW   LONG is a session token valid?",
    ],
)
def test_questions_asking_for_a_length_of_time(question: str) -> None:
    assert asks_duration(question)


@pytest.mark.parametrize(
    "question",
    [
        "How many clusters do we run?",  # a count, not a length of time
        "Which database do we use for long-running jobs?",
        "How do we keep logs?",
    ],
)
def test_other_questions_do_not_ask_for_a_length_of_time(question: str) -> None:
    assert not asks_duration(question)


@pytest.mark.parametrize(
    "text",
    [
        "logs are kept for 30 days",
        "Prometheus stores 24h of data",
        "retained for a year",
        "a 13-month retention",
        "kept indefinitely",
        "snapshots are taken nightly",
    ],
)
def test_stated_lengths_of_time(text: str) -> None:
    assert states_duration(text)


@pytest.mark.parametrize(
    "text",
    [
        "We will use RDS with automated backups.",
        "MFA is needed when permanently deleting a version.",  # an adverb, not a length
        "Day-to-day operations stay with the team.",
    ],
)
def test_text_without_a_length_of_time(text: str) -> None:
    assert not states_duration(text)


def test_how_long_is_answered_only_by_a_record_that_says(
    tmp_path: Path, team: Path, write: WriteFn
) -> None:
    write("004-use-managed-databases.md", DATABASES)
    write("005-central-logging.md", LOGS)
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        chosen = ask(g, "Do we run Postgres on RDS for automated backups?")
        retention = ask(g, "How long are the automated RDS backups retained?")
        logs = ask(g, "How long are application logs kept in OpenSearch?")
    assert chosen.answer == "team:004"  # the record is found for what it decides ...
    assert retention.answer is None  # ... but says nothing of how long backups are kept
    assert "team:004" in retention.text and "how long" in retention.text
    assert logs.answer == "team:005"
