"""Questions asking how long, and records that do or do not say."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import decisis
from decisis.adr.amounts import (
    asks_duration,
    asks_region,
    asks_version,
    states_duration,
    states_region,
    states_version,
)
from decisis.adr.answer import ask
from decisis.adr.ingest import ingest

WriteFn = Callable[[str, str | bytes], Path]


def _record(number: int, title: str, decision: str) -> str:
    return (
        f"# {number}. {title}\n\nDate: 2022-01-01\n\n## Status\n\nAccepted\n\n"
        f"## Decision\n\n{decision}\n"
    )


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


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which Elasticsearch version should the search cluster run?", True),
        ("What TLS versions does the ingress accept?", True),
        ("Which Kubernetes minor version is the next upgrade targeting?", True),
        ("Do we version our APIs?", False),
        ("Which release process do we follow?", False),
    ],
)
def test_questions_asking_which_version(question: str, asks: bool) -> None:
    assert asks_version(question) is asks


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("Only TLS 1.2 and 1.3 are accepted.", True),
        ("We pin the v3 API.", True),
        ("Elasticsearch version 7 runs the search.", True),
        ("We always use the newest version of Ubuntu.", False),
    ],
)
def test_stated_versions(text: str, states: bool) -> None:
    assert states_version(text) is states


def test_which_version_is_answered_only_by_a_record_that_names_one(
    tmp_path: Path, team: Path, write: WriteFn
) -> None:
    write("005-central-logging.md", LOGS)
    write(
        "006-tls.md",
        "# 6. TLS at the ingress\n\nDate: 2022-01-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nThe ingress accepts TLS 1.2 and 1.3 only.\n",
    )
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        search = ask(g, "Which OpenSearch version do application logs go to?")
        tls = ask(g, "Which TLS versions does the ingress accept?")
    assert search.answer is None and "which version" in search.text
    assert tls.answer == "team:006"


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("We use the `eu-west-1` region, Ireland.", True),
        ("Workloads run in europe-west2 and us-central1.", True),
        ("GovCloud: us-gov-west-1.", True),
        ("A multi-region trail covers every enabled region.", False),
    ],
)
def test_stated_regions(text: str, states: bool) -> None:
    assert states_region(text) is states


def test_which_region_is_answered_only_by_a_record_that_names_one(
    tmp_path: Path, team: Path, write: WriteFn
) -> None:
    trail = "Keep one multi-region audit trail that covers every enabled region."
    write("007-audit.md", _record(7, "Audit trail for all regions", trail))
    hosting = "We host everything in the eu-west-2 region."
    write("008-hosting.md", _record(8, "Hosting region", hosting))
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        default = ask(g, "Which AWS region should audit trail workloads run in by default?")
        hosted = ask(g, "Which region do we host everything in?")
    assert default.answer is None and "which region" in default.text
    assert asks_region("Which region do we host everything in?")
    assert hosted.answer == "team:008"
