"""What a title says gives way (``decisis.adr.read.titles``)."""

from __future__ import annotations

import pytest

from decisis.adr.read.titles import replaced_in_title


@pytest.mark.parametrize(
    ("title", "old"),
    [
        ("Replace Kafka with SQS", "Kafka"),
        ("Replacing the build cluster by hosted runners", "the build cluster"),
        ("Mongo Replacement by DocumentDB", "Mongo"),
        ("Jenkins replaced by GitHub Actions.", "Jenkins"),
        ("Use RDS instead of provisioned EC2 databases", "provisioned EC2 databases"),
        ("Hosted runners rather than Jenkins", "Jenkins"),
        ("Migrate from Jenkins to GitHub Actions", "Jenkins"),
        ("Move PublicAPI away from frontend-lb", "frontend-lb"),
        ("Switch off Travis", "Travis"),
        ("Retire Elasticsearch in favour of OpenSearch", "Elasticsearch"),
        ("Decommission the Cloud Platform CLI tool", "the Cloud Platform CLI tool"),
        ("Remove load balancer tier", "load balancer tier"),
        ("Phase out   Heroku", "Heroku"),
        ("Replacement of Kafka by SQS", "Kafka"),
        ("Retirement of the old VPN", "the old VPN"),
        ("A replacement for Concourse", "Concourse"),
        ("Decommissioning Jenkins", "Jenkins"),
        ("Stop using 'Heroku' for previews", "Heroku"),
    ],
)
def test_the_old_side_of_a_title_that_replaces(title: str, old: str) -> None:
    found = replaced_in_title(title)
    assert found is not None and found.old == old


@pytest.mark.parametrize(
    ("title", "scope"),
    [
        ("Replace Kafka with SQS for order events", "order events"),
        ("Migrate from Jenkins to GitHub Actions as the CI system", "CI system"),
        ("Replace Kafka with SQS", None),
        ("Replace Kafka for SQS", None),  # "for" is the new side here, not what it is for
        ("Use a tool for billing instead of Kafka", None),
    ],
)
def test_what_a_replacement_is_for(title: str, scope: str | None) -> None:
    found = replaced_in_title(title)
    assert found is not None and found.scope == scope


@pytest.mark.parametrize(
    "title",
    [
        "Use Kafka for order events",
        "Migration strategy",  # about migrating, names nothing that gives way
        "Migrate the orders database to Aurora",  # moves a thing, does not replace it
        "Replacement",
        "Multi-cluster",
        "Dropdown component library",  # whole verbs only
        "Removable media policy",
        "Portal access from the office",
        "Movement of data from S3",
        "",
    ],
)
def test_a_title_that_replaces_nothing(title: str) -> None:
    assert replaced_in_title(title) is None
