"""Questions offering a choice ("A or B"), and records that name one of the choices or neither."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr.answer import Answer
from decisis.adr.answer.choices import choices, names_a_choice
from decisis.search.terms import TermIndex

WriteFn = Callable[[str, str | bytes], Path]


@pytest.mark.parametrize(
    ("question", "found"),
    [
        (
            "Should my app keep its secrets in AWS Secrets Manager or in Kubernetes Secrets?",
            [("AWS Secrets Manager", "Kubernetes Secrets")],
        ),
        ("Which mesh do we run between services, Istio or Linkerd?", [("Istio", "Linkerd")]),
        ("Use React or Vue - or neither?", [("React", "Vue")]),
        # stop words at either end of a side name nothing
        ("Are IPv6 or dual-stack subnets supported?", [("IPv6", "dual-stack subnets")]),
        # the side after an "or" ends before what the question says of the sides
        ("Is Helm or raw YAML preferred here?", [("Helm", "raw YAML")]),
        ("Is Vault or SOPS okay for secrets?", [("Vault", "SOPS")]),
        ("Should we use RDS or self-managed Postgres?", [("RDS", "self-managed Postgres")]),
        # an "or" after a comma joins clauses; one between stop words offers nothing
        ("Is Go a core language, or do we only use it for tests?", []),
        ("Is it this or that?", []),
        ("What do we use for logs?", []),
    ],
)
def test_the_choices_a_question_offers(question: str, found: list[tuple[str, str]]) -> None:
    assert choices(question) == found


def test_a_record_names_a_choice_by_the_sides_rarest_known_word() -> None:
    index = TermIndex.build(
        [
            (
                "clusters",
                {"title": "Clusters", "body": "Clusters run on AWS; Kubernetes runs apps."},
            ),
            ("secrets", {"title": "Secrets", "body": "Secrets live in AWS Secrets Manager."}),
        ]
    )
    choice = ("AWS Secrets Manager", "in Kubernetes Secrets")
    assert names_a_choice(choice, index, "secrets")
    assert not names_a_choice(choice, index, "clusters")  # "secret" is the word that decides
    assert not names_a_choice(("Istio", "Linkerd"), index, "clusters")  # words no record uses
    assert not names_a_choice(choice, index, "no-such-record")


def test_a_choice_the_closest_record_does_not_name_abstains(
    write: WriteFn, ask_team: Callable[..., list[Answer]]
) -> None:
    write(
        "001-clusters.md",
        "# 1. One cluster per environment\n\nDate: 2021-01-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nEvery app runs on a Kubernetes cluster in AWS, one per environment; "
        "the cluster manager keeps apps apart.\n",
    )
    write(
        "002-databases.md",
        "# 2. Managed databases\n\nDate: 2021-02-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nApps use RDS for PostgreSQL rather than a database on their own hosts.\n",
    )
    write(  # so that "secrets" is a word the records know
        "003-ci-secrets.md",
        "# 3. CI secrets\n\nDate: 2021-03-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nPipeline secrets live in the CI tool's settings.\n",
    )
    secrets, database = ask_team(
        "Should my app keep secrets in AWS Secrets Manager or Kubernetes Secrets?",
        "Should apps use RDS or a database on their own hosts?",
    )
    assert secrets.answer is None
    assert "team:001" in secrets.text and "names neither" in secrets.text
    assert database.answer == "team:002"
