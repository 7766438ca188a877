"""Link rules on records written for the purpose."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr import read_folder
from decisis.adr.link.rules import propose_links
from decisis.model import LinkState
from tests.adr.rule_records import record

WriteFn = Callable[[str, str | bytes], Path]


def _proposals(team: Path, rule: str) -> list[tuple[str, str]]:
    records = read_folder(team).records
    return sorted((p.old, p.new) for p in propose_links(records) if p.rule == rule)


def _filler(write: WriteFn) -> None:
    """Unrelated records, so that the names below are rare words of the folder."""
    topics = ("Queues", "Logging", "Backups", "Secrets", "Alerts", "DNS", "Email", "Search")
    for n, topic in enumerate((*topics, "Caching", "Tracing", "Billing", "Storage"), 1):
        write(
            f"1{n:02}-{topic.lower()}.md",
            record(
                n,
                f"Use a tool for {topic}",
                f"2019-01-{n:02}",
                f"We pick a tool for {topic.lower()}.",
            ),
        )


def _notes(write: WriteFn, count: int) -> None:
    """``count`` records of nothing, so that a word a few records use stays rare."""
    for n in range(count):
        write(f"3{n:02}-note.md", record(30 + n, f"Note {n}", "2019-02-01", f"Note {n}."))


def _jenkins_and_notes(write: WriteFn, notes: int) -> None:
    """Record 020 "Use Jenkins", which names Jenkins three times, among enough other records
    (``notes`` of them) that "jenkins" stays a rare word when a few later records use it."""
    _filler(write)
    _notes(write, notes)
    old = "Jenkins runs our builds. Jenkins jobs live in the repo. Jenkins agents are ours."
    write("020-use-jenkins.md", record(20, "Use Jenkins", "2019-06-01", old))


def test_a_later_record_titled_after_what_an_earlier_one_turned_down(
    write: WriteFn, team: Path
) -> None:
    _filler(write)
    write(
        "010-run-our-own-cluster.md",
        record(
            10,
            "Run our own cluster",
            "2019-06-01",
            "We run it ourselves rather than using Nomad, for now.",
        ),
    )
    write("011-use-nomad.md", record(11, "Use Nomad", "2021-03-01", "Nomad runs our jobs."))
    write("012-nomad-upgrades.md", record(12, "Nomad upgrades", "2022-03-01", "Upgrade monthly."))
    # only the first record to choose it reverses the old decision; the next builds on it
    assert _proposals(team, "chooses-turned-down") == [("team:010", "team:011")]
    found = [p for p in propose_links(read_folder(team).records) if p.rule == "chooses-turned-down"]
    assert [p.named for p in found] == [("nomad",)]


def test_lowercase_common_words_after_rather_than_are_not_names(write: WriteFn, team: Path) -> None:
    _filler(write)
    write(
        "010-run-our-own-cluster.md",
        record(10, "Run our own cluster", "2019-06-01", "We do it rather than paying overhead."),
    )
    write("011-overhead.md", record(11, "Overhead budget", "2021-03-01", "Budget it."))
    assert _proposals(team, "chooses-turned-down") == []


@pytest.mark.parametrize(
    "deferral",
    [
        "Manual cluster scaling for now, with future consideration of autoscaling.",
        "Cluster autoscaling should be considered soon though.",
        "_how we do autoscaling_ - to be investigated",
    ],
    ids=["future-consideration-of", "should-be-considered-soon", "to-be-investigated"],
)
def test_a_later_record_titled_after_what_an_earlier_one_left_open(
    write: WriteFn, team: Path, deferral: str
) -> None:
    _filler(write)
    write("010-cluster.md", record(10, "Run our cluster", "2019-06-01", f"We run it. {deferral}"))
    write("011-autoscaling.md", record(11, "Use Karpenter for autoscaling", "2021-03-01", "Yes."))
    write("012-autoscaling-limits.md", record(12, "Autoscaling limits", "2022-03-01", "Ten."))
    # the first record to decide it takes that part over, and only that part
    proposals = [
        p for p in propose_links(read_folder(team).records) if p.rule == "decides-deferred"
    ]
    assert [(p.old, p.new, p.partial) for p in proposals] == [("team:010", "team:011", True)]


def test_a_decided_subject_is_not_left_open(write: WriteFn, team: Path) -> None:
    _filler(write)
    decided = "We scale by hand. Autoscaling was considered and turned down."
    write("010-cluster.md", record(10, "Run our cluster", "2019-06-01", decided))
    write("011-autoscaling.md", record(11, "Use Karpenter for autoscaling", "2021-03-01", "Yes."))
    assert _proposals(team, "decides-deferred") == []


@pytest.mark.parametrize(
    ("passed_over", "named"),
    [
        (  # a sentence that only weighs a switch names nothing replaced
            "There's a case for switching away from Jenkins, if the teams adopt something else. "
            "Moving off Jenkins could be possible later.",
            "We are replacing Jenkins with hosted runners.",
        ),
        (  # only what a replacement word is next to is named replaced
            "By adding Jenkins plugins to the platform, we need to understand how we can keep "
            "the underlying build machines for them standard and replaceable.",
            "We will decommission our Jenkins servers once the move has been completed.",
        ),
        (  # "X rather than Y", "X instead of Y": Y gives way, not X
            "Jenkins agents stay rather than a hosted service, as they are cheaper.",
            "Teams mostly read logs in the terminal rather than open Jenkins to look at them.",
        ),
        (  # a sentence denying a replacement names nothing replaced
            "Build caching is complementary, not a replacement for Jenkins. It doesn't "
            "replace Jenkins agents either.",
            "Jenkins will be replaced by hosted runners.",
        ),
        (  # "X docs no longer recommend Y": the docs act, X is not what gives way ...
            "We noticed the Jenkins docs no longer recommend the old plugins.",
            "The reasons for running Jenkins are no longer relevant.",  # ... after a verb it is
        ),
        (  # ... nor a word before the noun that acts; the noun itself gives way
            "Our Jenkins plugin team no longer reviews build scripts.",
            "Jenkins no longer fits our needs.",
        ),
    ],
    ids=["only-weighs", "too-far", "rather-than", "denied", "docs-act", "noun-acts"],
)
def test_names_replaced_reads_sentences_that_replace_what_they_name(
    write: WriteFn, team: Path, passed_over: str, named: str
) -> None:
    _jenkins_and_notes(write, notes=30)
    write("021-build-plugins.md", record(21, "Build plugins", "2020-01-01", passed_over))
    write("022-hosted-runners.md", record(22, "Hosted runners", "2021-01-01", named))
    assert _proposals(team, "names-replaced") == [("team:020", "team:022")]
    # the link says what it replaced, so a question naming it walks there (decisis.adr.answer.walk)
    found = [p for p in propose_links(read_folder(team).records) if p.rule == "names-replaced"]
    assert {p.named for p in found} == {("jenkin",)}


def test_what_takes_over_is_not_named_replaced(write: WriteFn, team: Path) -> None:
    _jenkins_and_notes(write, notes=60)
    takes_over = "We remove the build proxy and accept the Jenkins agents as its replacement."
    write("021-remove-build-proxy.md", record(21, "Remove build proxy", "2020-01-01", takes_over))
    moving = "We are migrating to Jenkins pipelines for every team."
    write("022-more-pipelines.md", record(22, "More pipelines", "2020-06-01", moving))
    replaced = "Jenkins is being replaced by hosted runners."
    write("023-hosted-runners.md", record(23, "Hosted runners", "2021-01-01", replaced))
    assert _proposals(team, "names-replaced") == [("team:020", "team:023")]


def test_a_run_on_sentence_of_replacement_words_is_read_in_linear_time(
    write: WriteFn, team: Path
) -> None:
    """One sentence of 60,000 words, a third of them replacement words: finding the words
    near each one scanned the whole sentence per word (two minutes), now a bisection."""
    _jenkins_and_notes(write, notes=30)
    run_on = "replace jenkins now " * 20_000
    write("021-run-on.md", record(21, "Run on", "2020-01-01", run_on))
    start = time.perf_counter()
    assert _proposals(team, "names-replaced") == [("team:020", "team:021")]
    assert time.perf_counter() - start < 60


def _manager_cluster_and_notes(write: WriteFn) -> None:
    """Record 020 "Manager cluster", whose two title words are each in many records (a
    secrets manager, clusters) but are written together only in it, three times."""
    _filler(write)
    for n in range(12):
        write(
            f"3{n:02}-note.md",
            record(
                30 + n,
                f"Note {n}",
                "2019-02-01",
                f"The secrets manager holds key {n}; each cluster reads it.",
            ),
        )
    old = (
        "The manager cluster runs our pipelines. Nothing else runs on the manager cluster. "
        "We upgrade the manager cluster first."
    )
    write("020-manager-cluster.md", record(20, "Manager cluster", "2019-06-01", old))


@pytest.mark.parametrize(
    ("sentence", "linked"),
    [
        ("We will decommission our management cluster once the move is complete.", True),
        ("We will decommission the manager cluster.", True),
        # the pair is not next to the replacement word, or not written together
        (
            "The management cluster stays as it is for now, and later this year we will "
            "decommission the old runners.",
            False,
        ),
        ("We will decommission the manager of the build cluster.", False),
    ],
)
def test_names_replaced_reads_a_two_word_title_as_one_subject(
    write: WriteFn, team: Path, sentence: str, linked: bool
) -> None:
    _manager_cluster_and_notes(write)
    write("022-use-hosted-ci.md", record(22, "Use hosted CI", "2021-01-01", sentence))
    expected = [("team:020", "team:022")] if linked else []
    assert _proposals(team, "names-replaced") == expected


def test_a_title_naming_what_it_replaces_links_from_the_record_titled_so(
    write: WriteFn, team: Path
) -> None:
    """A title "Replace Kafka with SQS" replaces "Use Kafka for order events", though that record
    names Kafka once and the new one says so only in its title and one sentence:
    ``names-replaced`` asks the old record to repeat its subject and leaves the new
    record's own title words out, so it proposes nothing here."""
    _filler(write)
    write(
        "001-use-kafka.md",
        record(1, "Use Kafka for order events", "2020-01-15", 'Chosen option: "Kafka".'),
    )
    write("002-use-sqs-for-mail.md", record(2, "Use SQS for mail", "2020-02-01", "SQS."))
    write(
        "003-replace-kafka.md",
        record(3, "Replace Kafka with SQS", "2023-03-01", "We will move order events to SQS."),
    )
    # the old side only: the earlier SQS record is what the new one adopts, not replaces
    assert _proposals(team, "title-replaces") == [("team:001", "team:003")]
    assert _proposals(team, "names-replaced") == []


def test_a_title_replaces_only_what_was_written_before_it_in_its_folder(
    write: WriteFn, team: Path
) -> None:
    _filler(write)  # a folder of their own, the records of ``team``
    _notes(write, 40)  # so that "kafka", in four records, is a rare word
    write("one/001-use-kafka.md", record(1, "Use Kafka", "2022-01-01", "Kafka."))
    write("two/001-use-kafka.md", record(1, "Use Kafka", "2019-01-01", "Kafka."))
    write("two/002-drop-kafka.md", record(2, "Drop Kafka", "2021-01-01", "No more."))
    write("two/003-kafka-again.md", record(3, "Use Kafka again", "2023-01-01", "Kafka."))
    records = read_folder(team).records
    found = sorted((p.old, p.new) for p in propose_links(records) if p.rule == "title-replaces")
    assert found == [("two:001", "two:002")]


def test_a_title_saying_what_the_replacement_is_for_replaces_only_that(
    write: WriteFn, team: Path
) -> None:
    _filler(write)
    _notes(write, 30)  # so that "kafka", in three records, is a rare word
    write("001-kafka-events.md", record(1, "Use Kafka for order events", "2020-01-01", "K."))
    write("002-kafka-audit.md", record(2, "Use Kafka for the audit log", "2020-02-01", "K."))
    write(
        "003-sqs-events.md",
        record(3, "Replace Kafka with SQS for order events", "2023-01-01", "SQS."),
    )
    assert _proposals(team, "title-replaces") == [("team:001", "team:003")]


@pytest.mark.parametrize(("old_words", "linked"), [(20, True), (250, False)])
def test_a_short_record_names_its_subject_fewer_times(
    write: WriteFn, team: Path, old_words: int, linked: bool
) -> None:
    """A record of a few lines names its subject in its title and once more; a longer one
    that names it no more than that is about something else, and a later sentence
    replacing that word does not replace it."""
    _filler(write)
    _notes(write, 30)
    padding = " ".join(["Events flow to billing and shipping."] * (old_words // 6))
    old = f'Chosen option: "Kafka", because it keeps events. {padding}'
    write("001-order-events.md", record(1, "Use Kafka for order events", "2020-01-15", old))
    new = "We will replace Kafka with Amazon SQS for order events."
    write("002-use-sqs.md", record(2, "Use SQS for order events", "2023-03-01", new))
    expected = [("team:001", "team:002")] if linked else []
    assert _proposals(team, "names-replaced") == expected


def _small_folder_naming(write: WriteFn, word: str) -> None:
    """A folder of eighteen records, six of which use ``word``: too many for the folder's
    own counts to call it rare (at most two here)."""
    _filler(write)
    for n in range(4):
        aside = f"Note {n}: the {word} team reviewed this."
        write(f"2{n:02}-aside.md", record(20 + n, f"Aside {n}", "2019-03-01", aside))


@pytest.mark.parametrize(("word", "linked"), [("Concourse", True), ("Platform", False)])
def test_in_a_small_folder_a_name_may_be_a_subject_that_an_everyday_word_may_not(
    write: WriteFn, team: Path, word: str, linked: bool
) -> None:
    """A team's own tool is in many of its few records; a name that English seldom uses
    ("Concourse") is still what a record decided about, an everyday word used as often
    ("platform") is not."""
    _small_folder_naming(write, word)
    old = f"{word} runs our builds. {word} jobs live in the repo. {word} agents are ours."
    write("030-builds.md", record(30, f"Use {word}", "2019-06-01", old))
    new = f"We will decommission our {word} pipelines once the move is done."
    write("031-hosted-actions.md", record(31, "Use hosted actions", "2022-01-01", new))
    expected = [("team:030", "team:031")] if linked else []
    assert _proposals(team, "names-replaced") == expected


def test_in_a_small_folder_a_turned_down_name_is_still_rare(write: WriteFn, team: Path) -> None:
    _small_folder_naming(write, "Nomad")
    own = "We run it ourselves rather than using Nomad, for now."
    write("030-own-cluster.md", record(30, "Run our own cluster", "2019-06-01", own))
    write("031-use-nomad.md", record(31, "Use Nomad", "2021-03-01", "Nomad runs our jobs."))
    assert _proposals(team, "chooses-turned-down") == [("team:030", "team:031")]


@pytest.mark.parametrize(
    ("sentence", "partial"),
    [
        ("This ADR in part supersedes [ADR 1](001-network.md).", True),
        ("This partly replaces [ADR 1](001-network.md): the address ranges.", True),
        ("It replaces [ADR 1](001-network.md) in part.", True),
        ("This ADR supersedes [ADR 1](001-network.md).", False),
        ("This replaces [ADR 1](001-network.md). The rest is in part new.", False),
    ],
)
def test_a_record_citing_one_it_replaces_in_part_links_to_that_part(
    write: WriteFn, team: Path, sentence: str, partial: bool
) -> None:
    """ "In part supersedes 0003": the older record's other decisions still stand, so the
    link speaks only for questions about the part (``decisis.adr.answer.walk``). Said outright, the
    replacement is stated, not a candidate."""
    write("001-network.md", record(1, "Network layout", "2019-01-01", "Subnets and ranges."))
    write("002-ranges.md", record(2, "New ranges", "2020-01-01", sentence))
    proposals = [p for p in propose_links(read_folder(team).records) if p.rule != "same-question"]
    assert [(p.old, p.new, p.partial, p.rule, p.state) for p in proposals] == [
        ("team:001", "team:002", partial, "stated-in-text", LinkState.STATED)
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "While this does not directly supersede [ADR 1](001-network.md), it prepares for it.",
        "This is not a replacement for [ADR 1](001-network.md).",
    ],
)
def test_a_denied_replacement_proposes_nothing(write: WriteFn, team: Path, sentence: str) -> None:
    write("001-network.md", record(1, "Network layout", "2019-01-01", "Subnets and ranges."))
    write("002-ranges.md", record(2, "New ranges", "2020-01-01", sentence))
    proposals = [p for p in propose_links(read_folder(team).records) if p.rule != "same-question"]
    assert proposals == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (  # the cited decision leaves a problem, and this record takes that part over
            "[ADR 1](001-network.md) splits the subnets, but this still leaves the noisy "
            "neighbour problem. We give each team its own range.",
            [("team:001", "team:002", True)],
        ),
        (  # the new record is what leaves it unsolved: nothing of ADR 1 is taken over
            "Shared ranges are an inherited limitation of [ADR 1](001-network.md) that this "
            "change does not resolve.",
            [],
        ),
        (  # another aspect of the same subject: ADR 1 left it out, this decides it
            "[ADR 1](001-network.md) does not cover the address ranges. We give each team "
            "its own range.",
            [],
        ),
    ],
    ids=["still-leaves", "new-does-not-resolve", "not-covered"],
)
def test_a_record_citing_one_that_falls_short_replaces_that_part(
    write: WriteFn, team: Path, sentence: str, expected: list[tuple[str, str, bool]]
) -> None:
    write("001-network.md", record(1, "Network layout", "2019-01-01", "Subnets and ranges."))
    write("002-ranges.md", record(2, "Team ranges", "2020-01-01", sentence))
    proposals = [p for p in propose_links(read_folder(team).records) if p.rule != "same-question"]
    assert [(p.old, p.new, p.partial) for p in proposals] == expected
    assert all(p.rule == "cites-replaced" for p in proposals)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [  # a part of what the older record decided moves away: the rest of it still stands
        ("The Jenkins jobs will be split out into their own repository.", [True]),
        ("We split out the Jenkins jobs into a repository of their own.", [True]),
        ("The build jobs will be split out into Jenkins.", []),  # where a part goes
        ("Jenkins will be replaced by hosted runners.", [False]),  # the whole gives way
    ],
    ids=["split-out-before", "split-out-after", "split-out-into", "whole"],
)
def test_what_is_split_out_is_replaced_in_part(
    write: WriteFn, team: Path, sentence: str, expected: list[bool]
) -> None:
    _jenkins_and_notes(write, notes=30)
    write("022-job-repository.md", record(22, "Job repository", "2021-01-01", sentence))
    found = [p for p in propose_links(read_folder(team).records) if p.rule == "names-replaced"]
    assert [(p.old, p.new) for p in found] == [("team:020", "team:022")] * len(expected)
    assert [p.partial for p in found] == expected


@pytest.mark.parametrize(
    ("old", "new", "linked"),
    [
        (  # "persistence" is the noun of "persist", which the stemmer keeps apart
            (
                "Persist sessions",
                "We persist sessions. Persistence is on disk. Persistence is fast.",
            ),
            "We drop the session persistence from the gateway.",
            True,
        ),
        (  # "functionality" is not the noun of "function": its meaning moves
            ("Function triggers", "A function per queue. Function names. Function logs."),
            "We will build new functionality to replace the old gateway.",
            False,
        ),
    ],
    ids=["noun-of-verb", "other-meaning"],
)
def test_names_replaced_reads_the_noun_of_a_title_verb(
    write: WriteFn, team: Path, old: tuple[str, str], new: str, linked: bool
) -> None:
    _filler(write)
    _notes(write, 30)
    write("020-old.md", record(20, old[0], "2019-06-01", old[1]))
    write("022-new.md", record(22, "Gateway changes", "2021-01-01", new))
    expected = [("team:020", "team:022")] if linked else []
    assert _proposals(team, "names-replaced") == expected
