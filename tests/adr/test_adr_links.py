"""References between records in every form teams write them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr import Link, read_folder, read_record

WriteFn = Callable[[str, str | bytes], Path]

OLD = (
    "# 21. Keep one cluster\n\nDate: 2021-05-11\n\n"
    "## Status\n\nAccepted\n\n## Decision\n\nOne cluster.\n"
)


def _new(body: str, status: str = "Accepted") -> str:
    return (
        f"# 30. Split clusters\n\nDate: 2022-09-16\n\n"
        f"## Status\n\n{status}\n\n## Decision\n\n{body}\n"
    )


def _links(write: WriteFn, body: str, status: str = "Accepted") -> list[Link]:
    write("021-keep-one-cluster.md", OLD)
    return list(read_record(write("030-split-clusters.md", _new(body, status))).links)


@pytest.mark.parametrize(
    "reference",
    [
        "[ADR-021](021-keep-one-cluster.md)",
        "[the old one](./021-keep-one-cluster.md)",
        "[the old one](021-renamed-since.md)",  # missing file: resolved by its number
        "[the old one](https://github.com/acme/infra/blob/main/docs/adr/021-keep-one-cluster.md)",
        "<https://github.com/acme/infra/blob/main/docs/adr/021-keep-one-cluster.md>",
        "https://github.com/acme/infra/blob/main/docs/adr/021-keep-one-cluster.md#decision",
        "021-keep-one-cluster.md",
        "ADR-021",
        "ADR 21",
        "ADR021",
        "adr-0021",
        "ADR #21",
        "Decision 021",
    ],
)
def test_each_reference_form_resolves_to_the_key(write: WriteFn, reference: str) -> None:
    (link,) = _links(write, f"This replaces {reference} for new apps.")
    assert link.target_key == "team:021"
    assert link.target_number == 21
    assert (link.kind, link.section) == ("body", "Decision")
    assert link.verbs == ("replace",)
    assert link.role == "predecessor"
    assert link.context.startswith("This replaces ") and "](" not in link.context


def test_reference_style_link(write: WriteFn) -> None:
    (link,) = _links(
        write, "We move on from [the old decision][old].\n\n[old]: 021-keep-one-cluster.md"
    )
    assert (link.target, link.target_key, link.verbs) == (
        "021-keep-one-cluster.md",
        "team:021",
        ("move on",),
    )


def test_link_to_a_record_of_another_repository_stays_unresolved(write: WriteFn) -> None:
    url = "https://github.com/other/repo/blob/main/adr/0007-use-kafka.md"
    (link,) = _links(write, f"We follow [their choice]({url}).")
    assert (link.target, link.target_key, link.target_number) == (url, None, 7)


def test_written_number_with_no_record_stays_unresolved(write: WriteFn) -> None:
    (link,) = _links(write, "As ADR 99 said.")
    assert (link.target_key, link.target_number) == (None, 99)


@pytest.mark.parametrize(
    "body",
    [
        "See [CPT-282](https://jira.example.org/browse/CPT-282) and [docs](https://docs.example.org/).",
        "![diagram](021-diagram.png)",
        "Run `adr new ADR-021` to start.",
        "```\nSee ADR-021 and 021-keep-one-cluster.md\n```",
        "<!-- ADR-021 -->",
        "There are 21 ADRs and ADRs matter.",
        "[In page](#decision) and [readme](../README.md).",
    ],
)
def test_things_that_are_not_record_references(write: WriteFn, body: str) -> None:
    assert _links(write, body) == []


def test_a_record_does_not_link_to_itself(write: WriteFn) -> None:
    assert _links(write, "ADR-030 (this one) keeps ADR 30 short.") == []


def test_status_line_and_body_kinds_and_roles(write: WriteFn) -> None:
    write("021-keep-one-cluster.md", OLD)
    write("040-per-team.md", "# 40. Per team clusters\n")
    text = _new(
        "We now run many clusters. The approach in ADR-021 was superseded by this work.",
        status=(
            "Accepted\n\nSuperseded by [40. Per team clusters](040-per-team.md)\n\n"
            "**2023 update** We are moving on from this to [ADR 40](040-per-team.md)."
        ),
    )
    links = read_record(write("030-split-clusters.md", text)).links
    summary = [(link.target_key, link.kind, link.role, link.verbs) for link in links]
    assert summary == [
        ("team:040", "status", "successor", ("supersede",)),
        ("team:040", "body", None, ("move on",)),
        ("team:021", "body", "predecessor", ("supersede",)),  # "… was superseded by this work"
    ]
    assert links[1].section == "Status"


def test_is_superseded_by_this_marks_the_older_record(write: WriteFn) -> None:
    (link,) = _links(write, "[ADR 21](021-keep-one-cluster.md) is now superseded by this record.")
    assert (link.role, link.verbs) == ("predecessor", ("supersede",))


@pytest.mark.parametrize(
    ("sentence", "verbs"),
    [
        ("We are migrating away from ADR-021.", ("migrate",)),
        ("We are moving away from ADR-021.", ("move away",)),
        ("Use managed clusters instead of ADR-021.", ("instead of",)),
        ("ADR-021 is deprecated in favour of this.", ("deprecate", "in favour of")),
        ("This amends ADR-021.", ("amend",)),
        ("ADR-021 was rejected and the cluster decommissioned.", ("reject", "decommission")),
        ("ADR-021 no longer applies; we switched.", ("switch", "no longer")),
    ],
)
def test_replacement_verbs_near_a_reference(
    write: WriteFn, sentence: str, verbs: tuple[str, ...]
) -> None:
    (link,) = _links(write, f"Some context first. {sentence} Then something else.")
    assert link.verbs == verbs
    assert link.context == sentence


def test_same_target_twice_in_one_sentence_is_one_link(write: WriteFn) -> None:
    links = _links(write, "ADR-021 and [ADR 21](021-keep-one-cluster.md) say the same.")
    assert len(links) == 1


def test_numbers_match_across_zero_padding_in_a_folder_of_folders(tmp_path: Path) -> None:
    (tmp_path / "alpha").mkdir()
    (tmp_path / "beta").mkdir()
    (tmp_path / "alpha" / "0003-use-queues.md").write_text(OLD.replace("21.", "3."))
    (tmp_path / "alpha" / "0010-use-streams.md").write_text(_new("This replaces ADR 3."))
    (tmp_path / "beta" / "3-other.md").write_text(OLD.replace("21.", "3."))
    records = read_folder(tmp_path).by_key()
    (link,) = records["alpha:0010"].links
    assert link.target_key == "alpha:0003"  # its own folder, never beta:3


@pytest.mark.parametrize(
    "sentence",
    [
        "After the [migration to the new cluster](021-keep-one-cluster.md) we replace the logs.",
        "We are moving to [ADR-021](021-keep-one-cluster.md) and will replace the logs.",
        "Having switched over to ADR 21, we deprecate the old dashboards.",
    ],
)
def test_a_record_moved_to_is_a_destination_not_a_predecessor(
    write: WriteFn, sentence: str
) -> None:
    (link,) = _links(write, sentence)
    assert link.role == "destination"


def test_a_record_migrated_away_from_stays_a_predecessor(write: WriteFn) -> None:
    (link,) = _links(write, "We are migrating away from [ADR-021](021-keep-one-cluster.md).")
    assert link.role == "predecessor"


@pytest.mark.parametrize(
    "reference",
    [
        "[ADR 21](/adr/21)",  # Docusaurus: a site path ending in the number
        "[the old one](./021-keep-one-cluster)",  # the file's name without its suffix
        "021-keep-one-cluster",  # the file's stem written in the text
    ],
)
def test_references_without_a_markdown_suffix(write: WriteFn, reference: str) -> None:
    [link] = _links(write, f"This supersedes {reference}.")
    assert (link.target_key, link.role, link.stated) == ("team:021", "predecessor", True)


def test_a_padded_number_alone_is_a_reference_when_the_folder_pads_so(write: WriteFn) -> None:
    [link] = _links(write, "This ADR replaces our decision to use one cluster in 021.")
    assert (link.target_key, link.role, link.stated) == ("team:021", "predecessor", True)
    assert _links(write, "We waited 0.021 seconds and 21 days.") == []


@pytest.mark.parametrize(
    ("sentence", "role", "stated"),
    [
        ("This ADR overrides our previous decision from [ADR 21](/adr/21).", "predecessor", True),
        (
            "We supersede [ADR 10](/adr/10) and [ADR 21](/adr/21) with this ADR.",
            "predecessor",
            True,
        ),
        ("We are migrating away from [ADR 21](/adr/21).", "predecessor", False),
        ("This does not directly supersede [ADR 21](/adr/21).", None, False),
        ("See [ADR 21](/adr/21) for the background.", None, False),
    ],
)
def test_roles_and_replacements_said_outright(
    write: WriteFn, sentence: str, role: str | None, stated: bool
) -> None:
    write("010-other.md", OLD.replace("21. Keep one cluster", "10. Other"))
    links = {link.target_key: link for link in _links(write, sentence)}
    assert (links["team:021"].role, links["team:021"].stated) == (role, stated)
    assert "supersede" not in links["team:021"].verbs or stated


def test_a_status_line_naming_two_successors(write: WriteFn) -> None:
    write("010-other.md", OLD.replace("21. Keep one cluster", "10. Other"))
    links = _links(
        write, "One cluster.", status="Superseded by [ADR 10](/adr/10) and [ADR 21](/adr/21)"
    )
    assert [(x.target_key, x.role) for x in links] == [
        ("team:010", "successor"),
        ("team:021", "successor"),
    ]
