"""Questions asking for a value of one kind (how long, which version, which region), and
records that do or do not state one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr.answer import Answer
from decisis.adr.answer.amounts import KINDS, asked_for

WriteFn = Callable[[str, str | bytes], Path]
AskFn = Callable[..., list[Answer]]
BY_NAME = {kind.name: kind for kind in KINDS}

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


def _record(number: int, title: str, decision: str) -> str:
    return (
        f"# {number}. {title}\n\nDate: 2022-01-01\n\n## Status\n\nAccepted\n\n"
        f"## Decision\n\n{decision}\n"
    )


TLS = _record(6, "TLS at the ingress", "The ingress accepts TLS 1.2 and 1.3.")
AUDIT = _record(
    7,
    "Audit trail for all regions",
    "Keep one multi-region audit trail that covers every enabled region.",
)
HOSTING = _record(8, "Hosting region", "We host everything in eu-west-2.")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How long are RDS backups retained?", "how long"),
        ("For how long do we keep application logs?", "how long"),
        ("How many days are audit logs kept?", "how long"),
        ("HOW   LONG is a session token valid?", "how long"),
        ("Which Elasticsearch version should the search cluster run?", "which version"),
        ("What TLS versions does the ingress accept?", "which version"),
        ("Which Kubernetes minor version is the next upgrade targeting?", "which version"),
        ("Which AWS region hosts the site?", "which region"),
        ("What availability SLA does the platform commit to?", "which service level"),
        ("Which uptime target do production namespaces get?", "which service level"),
        ("Is there an SLA for the platform?", None),  # whether one exists, not its level
        ("How many clusters do we run?", None),  # a count, not a length of time
        ("Which database do we use for long-running jobs?", None),
        ("Do we version our APIs?", None),
        ("Which release process do we follow?", None),
        ("Which Ubuntu release should machine images be based on?", "which version"),
        ("What Ubuntu LTS release do we run?", "which version"),
        ("What CI release pipeline do we use?", None),
        ("Do regions matter?", None),
    ],
)
def test_the_kind_of_value_a_question_asks_for(question: str, kind: str | None) -> None:
    found = asked_for(question)
    assert (found.name if found else None) == kind


@pytest.mark.parametrize(
    ("kind", "text", "states"),
    [
        ("how long", "logs are kept for 30 days", True),
        ("how long", "Prometheus stores 24h of data", True),
        ("how long", "retained for a year", True),
        ("how long", "a 13-month retention", True),
        ("how long", "kept indefinitely", True),
        ("how long", "snapshots are taken nightly", True),
        ("how long", "We will use RDS with automated backups.", False),
        ("how long", "MFA is needed when permanently deleting a version.", False),
        ("how long", "Day-to-day operations stay with the team.", False),
        ("which version", "Only TLS 1.2 and 1.3 are accepted.", True),
        ("which version", "We pin the v3 API.", True),
        ("which version", "Elasticsearch version 7 runs the search.", True),
        ("which version", "We always use the newest version of Ubuntu.", False),
        ("which service level", "We aim for 99.9% availability.", True),
        ("which service level", "Three nines, measured monthly.", True),
        ("which service level", "Support is given in office hours under the SLA.", False),
        ("which region", "We use the `eu-west-1` region, Ireland.", True),
        ("which region", "Workloads run in europe-west2 and us-central1.", True),
        ("which region", "GovCloud: us-gov-west-1.", True),
        ("which region", "A multi-region trail covers every enabled region.", False),
    ],
)
def test_what_a_record_states(kind: str, text: str, states: bool) -> None:
    assert BY_NAME[kind].stated_in(text) is states


def test_how_long_is_answered_only_by_a_record_that_says(write: WriteFn, ask_team: AskFn) -> None:
    write("004-use-managed-databases.md", DATABASES)
    write("005-central-logging.md", LOGS)
    chosen, retention, logs = ask_team(
        "Do we run Postgres on RDS for automated backups?",
        "How long are the automated RDS backups retained?",
        "How long are application logs kept in OpenSearch?",
    )
    assert chosen.answer == "team:004"  # the record is found for what it decides ...
    assert retention.answer is None  # ... but says nothing of how long backups are kept
    assert "team:004" in retention.text and "how long" in retention.text
    assert logs.answer == "team:005"


@pytest.mark.parametrize(
    ("records", "unanswered", "kind", "answered"),
    [
        (
            [("005-central-logging.md", LOGS), ("006-tls.md", TLS)],
            "Which OpenSearch version do application logs go to?",
            "which version",
            ("Which TLS versions does the ingress accept?", "team:006"),
        ),
        (
            [("007-audit.md", AUDIT), ("008-hosting.md", HOSTING)],
            "Which AWS region should audit trail workloads run in by default?",
            "which region",
            ("Which region do we host everything in?", "team:008"),
        ),
    ],
    ids=["version", "region"],
)
def test_which_value_is_answered_only_by_a_record_that_names_one(
    write: WriteFn,
    ask_team: AskFn,
    records: list[tuple[str, str]],
    unanswered: str,
    kind: str,
    answered: tuple[str, str],
) -> None:
    for name, text in records:
        write(name, text)
    missing, found = ask_team(unanswered, answered[0])
    assert missing.answer is None and kind in missing.text
    assert found.answer == answered[1]


OLD_RUNNER = (
    "# 9. Browser tests with Nightwatch\n\nDate: 2020-01-01\n\n## Status\n\n"
    "Superseded by [10. Browser tests with Cypress](010-cypress.md)\n\n## Decision\n\n"
    "End-to-end browser tests are written for Nightwatch and run against the review apps.\n"
)
NEW_RUNNER = (
    "# 10. Browser tests with Cypress\n\nDate: 2021-01-01\n\n## Status\n\nAccepted\n\n"
    "Supersedes [9. Browser tests with Nightwatch](009-nightwatch.md)\n\n## Decision\n\n"
    "End-to-end browser tests move to Cypress version 9.5, pinned in package.json.\n"
)


def test_the_form_is_met_by_the_record_the_walk_ends_at(write: WriteFn, ask_team: AskFn) -> None:
    """A question asking which version, whose best start names no version, is answered by
    the record that replaced it when that one states it (what is answered is the walk's
    end); with neither stating one, it is still not answered."""
    write("009-nightwatch.md", OLD_RUNNER)
    write("010-cypress.md", NEW_RUNNER)
    (versioned,) = ask_team("Which version of Nightwatch do the end-to-end browser tests run?")
    assert versioned.start == "team:009"
    assert versioned.answer == "team:010"
    write("010-cypress.md", NEW_RUNNER.replace(" version 9.5, pinned in package.json", ""))
    (unversioned,) = ask_team("Which version of Nightwatch do the end-to-end browser tests run?")
    assert unversioned.answer is None and "which version" in unversioned.text
