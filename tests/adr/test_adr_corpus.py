"""The 132 real records of ``data/adr-corpus``, checked against what the files say."""

from __future__ import annotations

import hashlib
import re
from datetime import date
from pathlib import Path

import pytest

from decisis.adr import AdrRecord, AdrStatus, ReadResult, read_folder, read_record


@pytest.fixture(scope="module")
def result(corpus: Path) -> ReadResult:
    return read_folder(corpus)


@pytest.fixture(scope="module")
def records(result: ReadResult) -> dict[str, AdrRecord]:
    return result.by_key()


def test_all_132_records_load_without_problems(result: ReadResult) -> None:
    assert len(result.records) == 132
    assert result.problems == []
    assert result.skipped == []  # SOURCES.md and LICENSE are not even candidates


def test_keys_are_folder_and_number_as_written(result: ReadResult, corpus: Path) -> None:
    expected = {
        f"{folder.name}:{m.group(1)}"
        for folder in corpus.iterdir()
        if folder.is_dir()
        for file in folder.iterdir()
        if (m := re.match(r"^(\d+)-.*\.md$", file.name))
    }
    assert len(expected) == 132
    assert {r.key for r in result.records} == expected
    folders = [r.folder for r in result.records]
    assert folders.count("cloud-platform") == 49
    assert folders.count("govuk-aws") == 38
    assert folders.count("modernisation-platform") == 45


def test_zero_padding_is_kept_in_keys_and_dropped_in_numbers(records: dict[str, AdrRecord]) -> None:
    assert records["cloud-platform:012"].number == 12
    assert records["govuk-aws:0038"].number == 38
    assert records["cloud-platform:000"].number == 0
    assert "govuk-aws:38" not in records and "cloud-platform:12" not in records


def test_every_record_has_title_date_summary_and_hash(result: ReadResult) -> None:
    for record in result.records:
        assert record.title and record.summary and record.date is not None, record.key
        assert (
            record.content_hash == "sha256:" + hashlib.sha256(record.path.read_bytes()).hexdigest()
        )
        assert "](" not in record.summary and "**" not in record.summary, record.key


def test_superseded_by_in_status_line(records: dict[str, AdrRecord]) -> None:
    """021: ``⌛️ Superseded by [036. Multi-cluster](036-multi-cluster.md)``."""
    record = records["cloud-platform:021"]
    assert record.title == "Multi-cluster"
    assert record.status is AdrStatus.SUPERSEDED
    assert record.status_text.startswith("\u231b")
    assert record.date == date(2021, 5, 11)
    (link,) = [link for link in record.links if link.kind == "status"]
    assert link.target_key == "cloud-platform:036"
    assert link.role == "successor"
    assert "supersede" in link.verbs


def test_move_on_note_in_status_section_is_a_body_link(records: dict[str, AdrRecord]) -> None:
    """012's "May 2021 Update … move on from this ADR … see [021-Multi-cluster](https://…)"."""
    record = records["cloud-platform:012"]
    assert record.status is AdrStatus.ACCEPTED
    assert record.date == date(2019, 6, 1)  # written 01/06/2019, UK day first
    (link,) = record.links
    assert link.target_key == "cloud-platform:021"
    assert link.target.startswith("https://github.com/")
    assert (link.kind, link.section) == ("body", "Status")
    assert "move on" in link.verbs
    assert "move on from this ADR" in link.context
    assert record.summary.startswith("After consideration of the pros and cons")


def test_partly_superseded_and_the_record_that_says_so(records: dict[str, AdrRecord]) -> None:
    old, new = records["govuk-aws:0003"], records["govuk-aws:0033"]
    assert old.status is AdrStatus.AMENDED and old.status_text == "Partly superseded"
    (to_new,) = old.links
    assert (to_new.target_key, to_new.kind, to_new.role) == ("govuk-aws:0033", "body", "successor")
    assert "supersede" in to_new.verbs
    assert new.title == "Networking Outline"  # the file says "# 3. Networking Outline"
    assert new.status is AdrStatus.PROPOSED  # "Pending"
    roles = {(link.target_key, link.role) for link in new.links}
    assert ("govuk-aws:0003", "predecessor") in roles  # "This ADR in part supersedes [0003]"


def test_amended_by_and_amends_in_status_lines(records: dict[str, AdrRecord]) -> None:
    amended, amending = records["govuk-aws:0010"], records["govuk-aws:0017"]
    assert amended.status is AdrStatus.AMENDED
    assert amended.status_text.splitlines()[0] == "Accepted"
    assert [(link.target_key, link.kind, link.role) for link in amended.links] == [
        ("govuk-aws:0017", "status", "successor")
    ]
    assert amending.status is AdrStatus.ACCEPTED
    status_links = [link for link in amending.links if link.kind == "status"]
    assert [(link.target_key, link.role) for link in status_links] == [
        ("govuk-aws:0010", "predecessor")
    ]
    assert {link.target for link in amending.links if link.kind == "body"} >= {"ADR 0010"}


def test_superseded_without_by_and_without_target(records: dict[str, AdrRecord]) -> None:
    languages = records["modernisation-platform:0004"]
    assert languages.status is AdrStatus.SUPERSEDED  # "⌛️ Superseded [0019](0019-….md)"
    assert [(link.target_key, link.kind, link.role) for link in languages.links] == [
        ("modernisation-platform:0019", "status", "successor")
    ]
    orphan = records["modernisation-platform:0025"]
    assert orphan.status is AdrStatus.SUPERSEDED and orphan.links == ()


@pytest.mark.parametrize(
    ("key", "status", "title", "day"),
    [
        (
            "cloud-platform:000",
            AdrStatus.ACCEPTED,
            "Record Architecture Decisions",
            date(2019, 5, 1),
        ),
        (
            "cloud-platform:004",
            AdrStatus.ACCEPTED,
            "Use kubernetes for running containerised applications",
            date(2018, 4, 10),
        ),
        (
            "cloud-platform:006",
            AdrStatus.ACCEPTED,
            "Use GitHub as our identity provider",
            date(2018, 4, 9),
        ),
        (
            "cloud-platform:017",
            AdrStatus.PROPOSED,
            "Variable names in YAML & Terraform files are in snake case",
            date(2020, 8, 17),
        ),
        (
            "cloud-platform:018",
            AdrStatus.REJECTED,
            "Dedicated Ingress Controllers for teams",
            date(2020, 9, 2),
        ),
        ("cloud-platform:022", AdrStatus.ACCEPTED, "EKS", date(2024, 11, 11)),
        ("cloud-platform:023", AdrStatus.ACCEPTED, "Logging", date(2024, 11, 11)),
        ("cloud-platform:028", AdrStatus.UNKNOWN, "Repo vulnerability scanning", date(2021, 11, 5)),
        ("cloud-platform:034", AdrStatus.PROPOSED, "EKS Fargate", date(2022, 1, 21)),
        (
            "cloud-platform:037",
            AdrStatus.REJECTED,
            "Serverless (Lambda/Functions-as-a-Service)",
            date(2022, 9, 22),
        ),
        (
            "govuk-aws:0004",
            AdrStatus.SUPERSEDED,
            "DNS definitions for hosts and services",
            date(2017, 7, 14),
        ),
        (
            "govuk-aws:0038",
            AdrStatus.ACCEPTED,
            "Mongo Replacement by DocumentDB",
            date(2019, 10, 17),
        ),
        (
            "modernisation-platform:0002",
            AdrStatus.REJECTED,
            "Use IAM Federated Access",
            date(2020, 9, 15),
        ),
        (
            "modernisation-platform:0004",
            AdrStatus.SUPERSEDED,
            "Use bash, nodejs, and python as core languages",
            date(2020, 11, 19),
        ),
        (
            "modernisation-platform:0045",
            AdrStatus.PROPOSED,
            "Centralise VPC endpoints in core-network-services with Route53 Profiles",
            date(2026, 6, 19),
        ),
    ],
)
def test_spot_checked_titles_statuses_and_dates(
    records: dict[str, AdrRecord], key: str, status: AdrStatus, title: str, day: date
) -> None:
    record = records[key]
    assert (record.status, record.title, record.date) == (status, title, day)


@pytest.mark.parametrize(
    ("key", "summary"),
    [
        (
            "cloud-platform:048",
            "We will give a non-live and a live cluster for each business unit.",
        ),
        (
            "cloud-platform:022",
            "Use Amazon EKS for running the main cluster,"
            " which hosts MOJ service teams' applications.",
        ),
        ("cloud-platform:025", "deprecate *.apps.live-1.cloud-platform.service.justice.gov.uk"),
        (
            "cloud-platform:039",
            "We will deploy AWS Network Firewall inside the Cloud Platform VPC.",
        ),
        (
            "modernisation-platform:0019",
            "We have decided to use bash and go as our core languages.",
        ),
        # a lead-in takes the item after it, lettered items too; before a code block, an
        # ellipsis
        (
            "govuk-aws:0011",
            "The second option - all in one go - was decided because: The change is atomic.",
        ),
        ("govuk-aws:0017", "The data portion of ADR 0010 will now be: \u2026"),
        # the section opens with what was weighed; a later sentence says what was chosen
        (
            "modernisation-platform:0003",
            "We decided to use AWS SSO in favour of IAM Federated Access to allow us to centrally"
            " manage identities across the Ministry of Justice at the organisational level"
            " rather than at a team level.",
        ),
        (
            "cloud-platform:014",
            "We decided to host our cluster on AWS because our service team has good development"
            " experience working with AWS services.",
        ),
    ],
)
def test_summaries_are_the_first_decided_sentence(
    records: dict[str, AdrRecord], key: str, summary: str
) -> None:
    assert records[key].summary == summary


@pytest.mark.parametrize(
    ("source", "target", "written"),
    [
        ("cloud-platform:048", "cloud-platform:036", "Decision 036"),
        ("cloud-platform:042", "cloud-platform:036", "ADR 36"),
        ("modernisation-platform:0044", "modernisation-platform:0043", "ADR-43"),
        ("cloud-platform:036", "cloud-platform:021", "021-Multi-cluster.md"),
        ("cloud-platform:008", "cloud-platform:003", "003-Use-Concourse-CI.md"),
    ],
)
def test_written_references_resolve_within_the_folder(
    records: dict[str, AdrRecord], source: str, target: str, written: str
) -> None:
    assert (target, written) in {(link.target_key, link.target) for link in records[source].links}


def test_github_url_to_a_record_of_the_same_folder(records: dict[str, AdrRecord]) -> None:
    (link,) = records["modernisation-platform:0021"].links
    assert link.target_key == "modernisation-platform:0019"
    assert link.target.startswith("https://github.com/ministryofjustice/modernisation-platform/")


def test_body_links_carry_replacement_verbs(records: dict[str, AdrRecord]) -> None:
    eks = [
        link
        for link in records["cloud-platform:036"].links
        if link.target_key == "cloud-platform:022"
    ]
    assert eks and {"in favour of", "decommission"} <= set(eks[0].verbs)
    sso = [link for link in records["modernisation-platform:0003"].links if link.verbs]
    assert [(link.target_key, link.verbs) for link in sso] == [
        ("modernisation-platform:0002", ("in favour of",))
    ]


def test_status_line_links_are_exactly_the_stated_ones(result: ReadResult) -> None:
    stated = {
        (record.key, link.target_key)
        for record in result.records
        for link in record.links
        if link.kind == "status"
    }
    assert stated == {
        ("cloud-platform:018", "cloud-platform:019"),
        ("cloud-platform:021", "cloud-platform:036"),
        ("govuk-aws:0004", "govuk-aws:0015"),
        ("govuk-aws:0010", "govuk-aws:0017"),
        ("govuk-aws:0017", "govuk-aws:0010"),
        ("modernisation-platform:0004", "modernisation-platform:0019"),
    }


def test_links_resolve_to_loaded_records_and_never_to_themselves(result: ReadResult) -> None:
    keys = {r.key for r in result.records}
    for record in result.records:
        for link in record.links:
            assert link.target_key != record.key
            assert link.target_key is None or link.target_key in keys
            assert link.target_key is None or link.target_key.split(":")[0] == record.folder


def test_read_record_matches_read_folder(records: dict[str, AdrRecord], corpus: Path) -> None:
    path = corpus / "cloud-platform" / "021-Multi-cluster.md"
    assert read_record(path, "cloud-platform") == records["cloud-platform:021"]
    assert read_record(path) == records["cloud-platform:021"]  # folder name by default
