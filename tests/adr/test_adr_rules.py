"""Link rules on records written for the purpose."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from decisis.adr import read_folder
from decisis.adr.rules import propose_links

WriteFn = Callable[[str, str | bytes], Path]


def _record(number: int, title: str, date: str, decision: str) -> str:
    return (
        f"# {number}. {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n"
        f"## Decision\n\n{decision}\n"
    )


def _proposals(team: Path, rule: str) -> list[tuple[str, str]]:
    records = read_folder(team).records
    return sorted((p.old, p.new) for p in propose_links(records) if p.rule == rule)


def _filler(write: WriteFn) -> None:
    """Unrelated records, so that the names below are rare words of the folder."""
    topics = ("Queues", "Logging", "Backups", "Secrets", "Alerts", "DNS", "Email", "Search")
    for n, topic in enumerate((*topics, "Caching", "Tracing", "Billing", "Storage"), 1):
        write(
            f"1{n:02}-{topic.lower()}.md",
            _record(
                n,
                f"Use a tool for {topic}",
                f"2019-01-{n:02}",
                f"We pick a tool for {topic.lower()}.",
            ),
        )


def test_a_later_record_titled_after_what_an_earlier_one_turned_down(
    write: WriteFn, team: Path
) -> None:
    _filler(write)
    write(
        "010-run-our-own-cluster.md",
        _record(
            10,
            "Run our own cluster",
            "2019-06-01",
            "We run it ourselves rather than using Nomad, for now.",
        ),
    )
    write("011-use-nomad.md", _record(11, "Use Nomad", "2021-03-01", "Nomad runs our jobs."))
    write("012-nomad-upgrades.md", _record(12, "Nomad upgrades", "2022-03-01", "Upgrade monthly."))
    # only the first record to choose it reverses the old decision; the next builds on it
    assert _proposals(team, "chooses-turned-down") == [("team:010", "team:011")]


def test_lowercase_common_words_after_rather_than_are_not_names(write: WriteFn, team: Path) -> None:
    _filler(write)
    write(
        "010-run-our-own-cluster.md",
        _record(10, "Run our own cluster", "2019-06-01", "We do it rather than paying overhead."),
    )
    write("011-overhead.md", _record(11, "Overhead budget", "2021-03-01", "Budget it."))
    assert _proposals(team, "chooses-turned-down") == []


def test_a_sentence_that_only_weighs_a_switch_names_nothing_replaced(
    write: WriteFn, team: Path
) -> None:
    _filler(write)
    for n in range(30):  # enough records that a name in three of them is still rare
        write(f"3{n:02}-note.md", _record(30 + n, f"Note {n}", "2019-02-01", f"Note {n}."))
    old = "Jenkins runs our builds. Jenkins jobs live in the repo. Jenkins agents are ours."
    write("020-use-jenkins.md", _record(20, "Use Jenkins", "2019-06-01", old))
    weighs = (
        "There's a case for switching away from Jenkins, if the teams adopt something else. "
        "Moving off Jenkins could be possible later."
    )
    write("021-build-caches.md", _record(21, "Build caches", "2020-01-01", weighs))
    decides = "We are replacing Jenkins with hosted runners."
    write("022-hosted-runners.md", _record(22, "Hosted runners", "2021-01-01", decides))
    assert _proposals(team, "names-replaced") == [("team:020", "team:022")]


def test_only_what_a_replacement_word_is_next_to_is_named_replaced(
    write: WriteFn, team: Path
) -> None:
    _filler(write)
    for n in range(30):  # enough records that a name in three of them is still rare
        write(f"3{n:02}-note.md", _record(30 + n, f"Note {n}", "2019-02-01", f"Note {n}."))
    old = "Jenkins runs our builds. Jenkins jobs live in the repo. Jenkins agents are ours."
    write("020-use-jenkins.md", _record(20, "Use Jenkins", "2019-06-01", old))
    far = (
        "By adding Jenkins plugins to the platform, we need to understand how we can keep the "
        "underlying build machines for them standard and replaceable."
    )
    write("021-build-plugins.md", _record(21, "Build plugins", "2020-01-01", far))
    near = "We will decommission our Jenkins servers once the move has been completed."
    write("022-hosted-runners.md", _record(22, "Hosted runners", "2021-01-01", near))
    assert _proposals(team, "names-replaced") == [("team:020", "team:022")]


def test_what_takes_over_is_not_named_replaced(write: WriteFn, team: Path) -> None:
    _filler(write)
    for n in range(60):  # enough records that a name in four of them is still rare
        write(f"3{n:02}-note.md", _record(30 + n, f"Note {n}", "2019-02-01", f"Note {n}."))
    old = "Jenkins runs our builds. Jenkins jobs live in the repo. Jenkins agents are ours."
    write("020-use-jenkins.md", _record(20, "Use Jenkins", "2019-06-01", old))
    takes_over = "We remove the build proxy and accept the Jenkins agents as its replacement."
    write("021-remove-build-proxy.md", _record(21, "Remove build proxy", "2020-01-01", takes_over))
    moving = "We are migrating to Jenkins pipelines for every team."
    write("022-more-pipelines.md", _record(22, "More pipelines", "2020-06-01", moving))
    replaced = "Jenkins is being replaced by hosted runners."
    write("023-hosted-runners.md", _record(23, "Hosted runners", "2021-01-01", replaced))
    assert _proposals(team, "names-replaced") == [("team:020", "team:023")]
