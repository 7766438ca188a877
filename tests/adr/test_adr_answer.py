"""Answering on the real corpus and on records written here, and learning from corrections."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

import decisis
from decisis.adr.answer import DEFAULT_SETTINGS, Answer, ask, prepare
from decisis.adr.answer.features import Candidates
from decisis.adr.answer.settings import FEATURES
from decisis.adr.learn.corrections import correct, undo
from decisis.adr.learn.learned import learned
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from tests.adr.conftest import best_start

WriteFn = Callable[[str, str | bytes], Path]


@pytest.fixture(scope="module")
def graph(corpus_graph: decisis.Graph) -> decisis.Graph:
    return corpus_graph


def test_stated_supersession_is_walked_to_what_stands(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-use-jenkins.md").write_text(
        "# 1. Use Jenkins for builds\n\nDate: 2019-01-01\n\n## Status\n\n"
        "Superseded by [2](002-use-github-actions.md)\n\n## Decision\n\n"
        "We run every build on a Jenkins server that we host.\n",
        encoding="utf-8",
    )
    (team / "002-use-github-actions.md").write_text(
        "# 2. Use GitHub Actions\n\nDate: 2023-05-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nWorkflows run on hosted runners.\n",
        encoding="utf-8",
    )
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        answer = ask(g, "Do we run our builds on a Jenkins server?")
    assert answer.answer == "team:002" and answer.chain == ["team:001", "team:002"]
    assert "team:001" in answer.text and "2019-01-01" in answer.text and answer.tokens <= 150
    assert {"answer", "chain", "text", "tokens", "confidence"} <= set(answer.to_dict())


def test_nothing_on_record_abstains(graph: decisis.Graph) -> None:
    answer = ask(graph, "What is the dress code for the summer party?")
    assert answer.answer is None and answer.chain == []


def test_correction_is_remembered_and_undone(tmp_path: Path, corpus: Path) -> None:
    with decisis.open(f"sqlite:///{tmp_path / 'c.db'}") as g:
        ingest(g, corpus)
        question = "What is the dress code for the summer party?"
        before = g.store.head(g.name)[0]
        correct(g, question, "cloud-platform:013")
        assert ask(g, question).answer == "cloud-platform:013"
        assert g.store.head(g.name)[0] > before
        undo(g, question)
        assert ask(g, question).answer is None
        assert g.verify().ok
        assert "rules" in learned(g)


def test_correction_to_none_makes_the_question_abstain(tmp_path: Path, corpus: Path) -> None:
    with decisis.open("memory://") as g:
        ingest(g, corpus)
        question = "Which AWS region should new GOV.UK infrastructure go in?"
        correct(g, question, None)
        assert ask(g, question).answer is None


def test_a_question_in_words_only_a_corrected_question_used_is_answered_by_it(
    corpus: Path,
) -> None:
    """Those words rank no record (``FIELD_WEIGHTS``): the remembered question answers."""
    with decisis.open("memory://") as g:
        ingest(g, corpus)
        correct(g, "Where do zorblaxes and quuxifiers get stored?", "cloud-platform:023")
        answer = ask(g, "zorblaxes and quuxifiers?")
        assert answer.answer == "cloud-platform:023"
        assert answer.evidence["votes"] == {"questions": 1}


def test_a_record_corrected_as_standing_rejects_candidates_replacing_it(corpus: Path) -> None:
    from decisis.adr.link.view import view_of
    from decisis.model import LinkState

    with decisis.open("memory://") as g:
        ingest(g, corpus)
        view = view_of(g)
        key = "govuk-aws:0008"
        candidates = {
            view.key_of[e.source]: e.id
            for e in view.successors[key]
            if e.state is LinkState.CANDIDATE and not e.metadata.get("partial")
        }
        assert candidates  # the same-question rule proposes later database records
        question = "Does the Puppetmaster use a local PostgreSQL database or an RDS instance?"
        done = correct(g, question, key)
        assert done.rejected and set(done.rejected) <= set(candidates.values())
        undo(g, question)
        states = {e.id: e.state for e in view_of(g).successors[key]}
        assert all(states[i] is LinkState.CANDIDATE for i in candidates.values())


RETIRED_UNCHECKED = replace(
    DEFAULT_SETTINGS, checks=tuple(c for c in DEFAULT_SETTINGS.checks if c != "retired")
)


@pytest.mark.parametrize(
    ("status", "answered", "says", "never"),
    [
        # the ``retired`` check: nobody should follow it today, and no record says what did
        ("Superseded", None, "is marked superseded and no record says what replaced it", "Stands:"),
        ("Deprecated", None, "is marked deprecated and no record says what replaced it", "Stands:"),
        ("Rejected", "team:001", "the proposal was turned down", "Latest on record"),
        ("Accepted", "team:001", "Stands: team:001", "turned down"),
    ],
)
def test_the_answer_says_what_the_last_records_status_means(
    tmp_path: Path, status: str, answered: str | None, says: str, never: str
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-use-memcached.md").write_text(
        f"# 1. Use Memcached for caching\n\nDate: 2020-03-01\n\n## Status\n\n{status}\n\n"
        "## Decision\n\nWe cache rendered pages in a Memcached cluster.\n",
        encoding="utf-8",
    )
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        answer = ask(g, "Do we cache rendered pages in Memcached?")
        kept = ask(g, "Do we cache rendered pages in Memcached?", RETIRED_UNCHECKED)
    assert answer.answer == answered
    assert says in answer.text and never not in answer.text
    # without the check, the retired record is the answer, said to be retired
    assert kept.answer == "team:001"
    if answered is None:
        assert f"marked {status.lower()} with no later record" in kept.text


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("", "is empty"),
        ("   ", "is empty"),
        (None, "is empty"),
        ("why? " * 1000, "at most 4,000"),
        # ask took it, and correct failed storing it as a label: both refuse it alike
        ("Jenkins?\x00", "NUL"),
    ],
)
def test_ask_and_correct_refuse_what_is_not_a_question(
    graph: decisis.Graph, question: object, says: str
) -> None:
    head = graph.store.head(graph.name)
    for call in (lambda: ask(graph, question), lambda: correct(graph, question, None)):  # type: ignore[arg-type]
        with pytest.raises(decisis.InvalidInput, match=says):
            call()
    assert graph.store.head(graph.name) == head


def _found(values: dict[str, dict[str, float]], cosines: dict[str, float]) -> Candidates:
    """Candidates with the given feature values (others 0), for the gate's tests."""
    from decisis.adr.answer.features import Candidates
    from decisis.adr.answer.question import Question

    question = Question("q?", None, "q?", "q?", frozenset(), (), (), None, ())
    rows = [tuple(v.get(name, 0.0) for name in FEATURES) for v in values.values()]
    return Candidates(question, list(values), rows, {}, cosines)


def test_the_gate_weighs_every_feature_as_evidence_for_the_start() -> None:
    """Each gate weight is at least zero: more of any feature never lowers the probability."""
    from decisis.adr.answer.gate import gate_values, probability

    assert all(w >= 0 for w in DEFAULT_SETTINGS.abstain_weights)
    base = {"lexical": 1.0, "coverage": 0.5, "subject": 0.5, "cosine": 0.4, "sentence": 0.4}
    found = _found({"t:1": base, "t:2": {"lexical": 0.5}}, {"t:1": 0.4})
    ranked = found.ranked(DEFAULT_SETTINGS)
    before = probability(gate_values(found, ranked, DEFAULT_SETTINGS), DEFAULT_SETTINGS)
    for feature in ("coverage", "sentence"):
        more = _found({"t:1": {**base, feature: 0.9}, "t:2": {"lexical": 0.5}}, {"t:1": 0.4})
        ranked = more.ranked(DEFAULT_SETTINGS)
        assert probability(gate_values(more, ranked, DEFAULT_SETTINGS), DEFAULT_SETTINGS) >= before


def test_a_start_far_in_meaning_does_not_veto_a_close_record_it_walks_to() -> None:
    """The gate reads the start's cosine or, when closer, that of where its walk ends: a
    record deciding many things is far from a question about one of them, while the later
    record that took that part over is close."""
    from decisis.adr.answer.gate import gate_readings

    found = _found({"t:1": {"lexical": 1.0}}, {"t:1": 0.3, "t:2": 0.7, "t:3": 0.2})
    ranked = found.ranked(DEFAULT_SETTINGS)
    assert gate_readings(found, ranked, DEFAULT_SETTINGS)["cosine"] == 0.3
    assert gate_readings(found, ranked, DEFAULT_SETTINGS, "t:3")["cosine"] == 0.3
    assert gate_readings(found, ranked, DEFAULT_SETTINGS, "t:2")["cosine"] == 0.7


@pytest.mark.parametrize(("below", "answered"), [(0.0, True), (1.0, False)])
def test_the_threshold_decides_alone_where_nothing_vouches(
    graph: decisis.Graph, below: float, answered: bool
) -> None:
    settings = replace(DEFAULT_SETTINGS, abstain_below=below)
    question = "Which CI system do we use for the Cloud Platform's own pipelines?"
    answer = ask(graph, question, settings)
    assert (answer.answer is not None) is answered
    if not answered:
        assert "about something else" in answer.text and "probability" in answer.evidence


def test_a_question_close_to_one_sentence_of_a_record_far_from_it_is_answered(
    graph: decisis.Graph,
) -> None:
    """The policy-agent record as a whole is far from a question about hostnames in
    ingresses; its sentence on what was needed first is not."""
    from decisis.adr.answer.why import SENTENCE_SHOWN, why_lines

    question = "What stops two teams from using one hostname in their ingresses?"
    answer = ask(graph, question)
    assert answer.answer == "cloud-platform:011"
    said = "Our immediate need was to prevent users from reusing hostnames in Ingresses."
    assert answer.evidence["sentence"] == said
    assert answer.evidence["sentence_cosine"] >= SENTENCE_SHOWN > answer.evidence["cosine"]
    assert f'"{said}"' in why_lines(answer)[1]


def _others(write: WriteFn, last: tuple[int, str, str]) -> None:
    """Records 0002-0004 of a small team beside the one a test is about: pod limits, DNS, and
    ``last`` (number, title, decision)."""
    for number, title, decision in [
        (2, "Pod limits", "Every pod declares memory requests and limits."),
        (3, "DNS", "Each service gets a DNS name under the platform's zone."),
        last,
    ]:
        write(
            f"000{number}-{title.lower().replace(' ', '-')}.md",
            f"# {number}. {title}\n\nDate: 2020-0{number}-01\n\n## Status\n\nAccepted\n\n"
            f"## Decision\n\n{decision}\n",
        )


def _started(team: Path, tmp_path: Path, question: str) -> tuple[str | None, Answer]:
    """``team`` ingested into a new SQLite graph: where ``question`` starts, and its answer."""
    with decisis.open(f"sqlite:///{tmp_path / 'started.db'}") as graph:
        ingest(graph, team)
        return best_start(graph, question), ask(graph, question)


def test_a_word_only_the_best_record_uses_finds_it(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    """The static embedder sees little in common between "the stdout my pods print" and a
    logging record; its words find it: it ranks first by the words (whether it is where the
    question starts is the fitted weights' call, the "Pod limits" title shares "pods")."""
    write(
        "0001-logging.md",
        "# 1. Logging\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        "Application logs go to a hosted Elasticsearch cluster. Fluent Bit reads each "
        "container's stdout and stderr and ships them to it; teams search them in Kibana.\n",
    )
    _others(write, (4, "Search", "The public site's search runs on a managed search service."))
    question = "Where can I search through the stdout my pods print?"
    with decisis.open(f"sqlite:///{tmp_path / 'words.db'}") as graph:
        ingest(graph, team)
        from decisis.adr.answer import consider

        found = consider(graph, view_of(graph), question, DEFAULT_SETTINGS)
        assert found.ranks["team:0001"]["terms"] == 1
        words_only = replace(DEFAULT_SETTINGS, weights=(1.0,) + (0.0,) * (len(FEATURES) - 1))
        assert best_start(graph, question, words_only) == "team:0001"


def test_an_everyday_word_only_one_record_uses_does_not_make_it_an_answer(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    """In a team's few records many everyday words are used once ("password" here); a
    question about something else that uses the word is not about that record."""
    write(
        "0001-cluster-upgrades.md",
        "# 1. Cluster upgrades\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nWe upgrade Kubernetes every quarter. The break-glass admin password "
        "is rotated after each upgrade.\n",
    )
    _others(write, (4, "Logging", "Fluent Bit ships every container's stdout to Elasticsearch."))
    start, answer = _started(team, tmp_path, "Which password manager should our engineers use?")
    _, about = _started(team, tmp_path, "How often do we upgrade Kubernetes?")
    assert start == "team:0001" and about.answer == "team:0001"
    assert answer.evidence["probability"] < about.evidence["probability"]


SCALING = "Are worker nodes on the new clusters still scaled by hand?"
CONTROL_PLANE = "Who looks after the master nodes of our EKS cluster, us or AWS?"


def test_a_record_that_took_over_part_of_another_answers_only_for_that_part(
    graph: decisis.Graph,
) -> None:
    """The EKS record left auto-scaling "for future consideration"; the Karpenter record
    decided it (rule ``decides-deferred``). A question on scaling walks there; one on the
    part that still stands (who runs the control plane) does not, though the Karpenter
    record names EKS and nodes too. (The walk is what is tested: the gate is off.)"""
    walked = replace(DEFAULT_SETTINGS, abstain_below=0.0)
    scaling = ask(
        graph, "Is the scaling of the EKS cluster's worker nodes still done by hand?", walked
    )
    assert scaling.chain == ["cloud-platform:022", "cloud-platform:047"]
    assert any("Part of an older record still stands" in n for n in scaling.notes)
    assert 'It replaced part of cloud-platform:022 "EKS"' in scaling.text
    assert ask(graph, SCALING, walked).answer == "cloud-platform:047"
    assert ask(graph, CONTROL_PLANE, walked).answer == "cloud-platform:022"
    as_whole = replace(walked, partial_relevance_min=DEFAULT_SETTINGS.relevance_min)
    assert ask(graph, CONTROL_PLANE, as_whole).answer == "cloud-platform:047"


def test_a_record_closer_in_meaning_answers_for_the_part_it_took_over(
    tmp_path: Path, corpus: Path
) -> None:
    """Ingested alone, the Cloud Platform's folder scores words by its own counts, and the
    Karpenter record matches a question on the Cluster Autoscaler below
    ``partial_relevance_min`` of the EKS record; it is closer to it in meaning, so the
    question is about the part it took over. The control-plane question still is not."""
    with decisis.open(f"sqlite:///{tmp_path / 'cp.db'}") as g:
        ingest(g, corpus / "cloud-platform")
        autoscaler = ask(g, "Will the Cluster Autoscaler run on our new clusters?")
        assert autoscaler.chain == ["cloud-platform:022", "cloud-platform:047"]
        assert ask(g, CONTROL_PLANE).answer == "cloud-platform:022"


@pytest.mark.parametrize(
    ("match", "meaning", "about"),
    [
        (0.7, {}, True),  # words alone, nearly as well as the best
        (0.6, {"old": 0.5, "new": 0.55}, True),
        (0.6, {"old": 0.5, "new": 0.45}, False),  # farther in meaning than the older record
        (0.6, {"old": 0.5}, False),  # no cosine for the newer record
        (0.3, {"old": 0.5, "new": 0.9}, False),  # below relevance_min whatever its meaning
    ],
)
def test_a_question_is_about_the_part_by_words_or_by_meaning(
    match: float, meaning: dict[str, float], about: bool
) -> None:
    from decisis.adr.answer.walk import _about_the_part

    assert _about_the_part(match, meaning, "old", "new") is about


def test_a_record_saying_it_replaced_part_of_another_answers_only_for_that_part(
    tmp_path: Path,
) -> None:
    """ "This ADR in part supersedes ADR 1": a stated link, and still one for a part. A
    question on what ADR 1 still decides (its DNS names) stays with ADR 1; one on the part
    ADR 2 took over (the address ranges) walks there."""
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-network-layout.md").write_text(
        "# 1. Network layout\n\nDate: 2019-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        "Team subnets take their address ranges from 10.0.0.0/8. Internal DNS names end in "
        "the suffix .internal and are served by Route 53 resolvers.\n",
        encoding="utf-8",
    )
    (team / "002-new-address-ranges.md").write_text(
        "# 2. New address ranges\n\nDate: 2021-01-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nThis ADR in part supersedes [ADR 1](001-network-layout.md): team "
        "subnets take their address ranges from 172.16.0.0/12 from now on.\n",
        encoding="utf-8",
    )
    walked = replace(DEFAULT_SETTINGS, abstain_below=0.0)
    with decisis.open(f"sqlite:///{tmp_path / 'n.db'}") as g:
        ingest(g, team)
        ranges = ask(g, "Which address ranges do team subnets take?", walked)
        dns = ask(g, "Which suffix do internal DNS names end in, and what serves them?", walked)
    assert ranges.answer == "team:002"
    assert dns.chain == ["team:001"]


def test_a_confirmed_partial_link_still_speaks_only_for_its_part(
    tmp_path: Path, corpus: Path
) -> None:
    with decisis.open(f"sqlite:///{tmp_path / 'p.db'}") as g:
        ingest(g, corpus)
        correct(g, SCALING, "cloud-platform:047")  # confirms 022 -> 047
        assert ask(g, CONTROL_PLANE).answer == "cloud-platform:022"


def test_a_correction_of_an_abstained_question_links_from_where_it_started(
    tmp_path: Path, corpus: Path
) -> None:
    """The dedicated-account record is where the question starts, and no link leads on from
    it (the gate may abstain or answer it). Corrected to the record that moved the platform
    into Modernisation Platform accounts, it proposes a link from there; one correction alone
    moves no other answer, a second one agreeing does: the next question starting there
    walks over. (The links alone: with what corrections lend weighed, the next question,
    sharing "moj-cp", starts at 042 itself, ``tests/adr/test_adr_learning.py``.)"""
    first = "Are we giving up the moj-cp account?"
    second = "Is the moj-cp account going away?"
    then = "Do we still run everything in the dedicated moj-cp account?"
    links = DEFAULT_SETTINGS.with_weights(learned_terms=0.0, learned_cosine=0.0)
    with decisis.open(f"sqlite:///{tmp_path / 'a.db'}") as g:
        ingest(g, corpus)
        assert ask(g, first, links).answer in (None, "cloud-platform:010")
        assert ask(g, then, links).chain == ["cloud-platform:010"]
        assert correct(g, first, "cloud-platform:042", links).proposed
        # one correction: not walked yet
        assert ask(g, then, links).chain == ["cloud-platform:010"]
        assert correct(g, second, "cloud-platform:042", links).confirmed
        assert ask(g, then, links).chain == ["cloud-platform:010", "cloud-platform:042"]
        assert ask(g, then).answer == "cloud-platform:042"  # and so it is, learning on


def test_a_correction_to_another_teams_record_proposes_no_link(
    tmp_path: Path, corpus: Path
) -> None:
    """The question starts at the Modernisation Platform's ECR record, which shares words
    with the Cloud Platform's: still, one team's record does not replace another's."""
    from decisis.adr.learn.corrections import related
    from decisis.adr.link.view import view_of

    question = (
        "Can the Modernisation Platform keep pushing our Docker images to Docker Hub from our"
        " own pipeline?"
    )
    with decisis.open(f"sqlite:///{tmp_path / 'b.db'}") as g:
        ingest(g, corpus)
        view = view_of(g)
        start = best_start(g, question)
        assert start is not None
        assert start == "modernisation-platform:0014"
        assert related(view, start, "cloud-platform:046")
        assert correct(g, question, "cloud-platform:046").proposed == []


def test_tokens_are_counted_only_when_asked_for(graph: decisis.Graph) -> None:
    """Loading the tokenizer's tables costs about half a second: a command that prints
    only the answer's text must not pay it."""
    from decisis.adr.answer.tokens import _encoder, count_tokens

    for question in ("Do we use Concourse for our pipelines?", "Who cleans the office fridge?"):
        _encoder.cache_clear()
        answer = ask(graph, question)
        assert _encoder.cache_info().currsize == 0
        assert answer.tokens == count_tokens(answer.text) > 5
        assert answer.to_dict()["tokens"] == answer.tokens
        assert _encoder.cache_info().currsize == 1


def test_a_corrected_questions_words_find_its_record_for_another_question(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    """A correction lends the question's words to its record: another question that shares
    them (not nearly the same question, so no remembered question vouches for it) finds the
    record it could not find before."""
    write(
        "001-use-vault.md",
        "# 1. Store credentials in Vault\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nApplications read database credentials and API keys from Vault.\n",
    )
    write(
        "002-nightly-builds.md",
        "# 2. Nightly builds\n\nDate: 2021-01-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nEvery repository is built nightly on the shared runners.\n",
    )
    corrected = "Where do the sensitive tokens our services use belong?"
    other = "Do our services keep sensitive tokens and API keys in one place?"
    with decisis.open(f"sqlite:///{tmp_path / 'lent.db'}") as g:
        ingest(g, team)
        held_before = ask(g, other).evidence["coverage"]
        correct(g, corrected, "team:001")
        answer = ask(g, other)
    assert answer.answer == "team:001" and answer.evidence["coverage"] > held_before
    assert "remembered" not in answer.evidence and "questions" not in answer.evidence["votes"]


def test_a_remembered_question_vouches_only_for_nearly_the_same_question(corpus: Path) -> None:
    """After the questions of ``bench/questions-fresh.jsonl`` (our own, not the development
    set) are corrected, "How are MP users given access to AWS accounts?" covers most of
    "Should a new MP application get its own AWS account?" in the words that are rare among
    remembered questions, but the new question covers little of it: they are different
    questions, and the account-strategy record still answers the second."""
    import json

    fresh = Path(__file__).resolve().parents[2] / "bench" / "questions-fresh.jsonl"
    asked = "Should a new MP application get its own AWS account?"
    rows = [json.loads(line) for line in fresh.read_text(encoding="utf-8").splitlines()]
    with decisis.open("memory://") as g:
        ingest(g, corpus)
        before = ask(g, asked)
        for row in rows:
            if row["question"] != asked:
                correct(g, row["question"], row["expected"])
        answer = ask(g, asked)
        again = ask(g, "How are MP users given access to their AWS accounts?")
    assert answer.answer == before.answer and "questions" not in answer.evidence["votes"]
    assert again.answer == "modernisation-platform:0003"  # nearly the same: remembered
    assert again.evidence["votes"]["questions"] == 1


def test_a_decision_taken_from_a_list_item_ends_as_a_sentence(
    write: WriteFn, ask_team: Callable[..., list[Answer]]
) -> None:
    write(
        "001-clusters.md",
        "# 1. Clusters\n\nDate: 2022-09-16\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        "We have decided to:\n\n* run one cluster per environment\n* keep the manager apart\n",
    )
    (answer,) = ask_team("Do we run one cluster per environment?")
    assert answer.answer == "team:001"
    decision = answer.text.split("Decision: ", 1)[1]
    assert decision.endswith((".", "\u2026")) and ":." not in decision, answer.text


def test_a_record_whose_title_replaces_an_earlier_ones_subject_stands_for_it(
    write: WriteFn, ask_team: Callable[..., list[Answer]]
) -> None:
    """A small team's records: nothing but the new record's title says Kafka was replaced
    (rule ``title-replaces``)."""
    write(
        "001-use-postgres.md",
        "# 1. Use PostgreSQL for orders\n\nDate: 2019-06-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nWe will use PostgreSQL for the orders service.\n",
    )
    write(
        "002-use-kafka.md",
        "---\nstatus: accepted\ndate: 2020-01-15\n---\n# Use Kafka for order events\n\n"
        "## Context and Problem Statement\n\nOrder events must reach billing and shipping.\n\n"
        '## Decision Outcome\n\nChosen option: "Kafka", because it keeps events for replay.\n',
    )
    write(
        "003-replace-kafka.md",
        "# 3. Replace Kafka with SQS\n\nDate: 01/03/2023\n\n## Status\n\nAccepted\n\n"
        "## Context\n\nThe broker (see ADR 2) costs more than it gives at our volume.\n\n"
        "## Decision\n\nWe will send order events to billing through Amazon SQS and SNS.\n",
    )
    (answer,) = ask_team("How do order events get to billing and shipping?")
    assert answer.chain == ["team:002", "team:003"], answer.text
    assert "team:002" in answer.text and "2020-01-15" in answer.text


def test_prepare_derives_what_the_first_question_would(tmp_path: Path, corpus: Path) -> None:
    from decisis.adr.answer.passages import passage_index

    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        assert prepare(g) == 0  # nothing ingested: nothing to derive
        ingest(g, corpus)
        assert prepare(g) == 132
        view = view_of(g)
        assert {"passages", "folder-words", "vectors"} <= view.cache.keys()
        passages = view.cache["passages"]
        answer = ask(g, "Do we still run Concourse for our pipelines?")
        assert view_of(g) is view and passage_index(view) is passages  # nothing built again
        assert answer.answer == "cloud-platform:040"


@pytest.mark.parametrize(
    "question",
    [
        "Is there still a standalone manager cluster for our CI tooling?",
        "Is the manager cluster still where our own CI runs?",
    ],
)
def test_a_question_naming_what_a_later_record_replaced_walks_to_it(
    graph: decisis.Graph, question: str
) -> None:
    """The GitHub Actions record says "we will decommission our management cluster"; a
    question about the manager cluster walks there even though the newer record matches
    few of its words (a candidate's successor otherwise has to match the question)."""
    link = next(
        e
        for e in view_of(graph).links
        if e.metadata.get("old") == "cloud-platform:033"
        and e.metadata.get("new") == "cloud-platform:040"
    )
    assert link.metadata["named"] == ["manager cluster"]
    answer = ask(graph, question)
    assert answer.chain == ["cloud-platform:033", "cloud-platform:040"]
    # the answer says why it walked: for --json readers and in --why's words
    assert answer.replaced[0]["named"] == ["manager cluster"]
    from decisis.adr.answer.why import why_lines

    assert why_lines(answer)[-1].endswith('(the question names "manager cluster")')


def test_learned_says_which_links_are_partial_and_what_they_name(graph: decisis.Graph) -> None:
    links = {(x["old"], x["new"], x["rule"]): x for x in learned(graph)["links"]}
    named = links[("cloud-platform:033", "cloud-platform:040", "names-replaced")]
    assert named["named"] == ["manager cluster"] and named["partial"] is False
    deferred = links[("cloud-platform:022", "cloud-platform:047", "decides-deferred")]
    assert deferred["partial"] is True and deferred["named"]
    stated = links[("cloud-platform:021", "cloud-platform:036", "status-line")]
    assert stated["named"] == [] and stated["partial"] is False


def test_named_subjects_stand_in_for_the_successors_match(graph: decisis.Graph) -> None:
    from decisis.adr.answer.walk import walk
    from decisis.search.text import terms

    view = view_of(graph)
    start, relevance = "cloud-platform:033", {"cloud-platform:033": 1.0}
    naming = frozenset(terms("the manager cluster"))
    assert walk(view, start, relevance, asked=naming).standing == "cloud-platform:040"
    # one word of a two-word subject is not the subject; no words, no walk
    assert walk(view, start, relevance, asked=frozenset(terms("cluster"))).standing == start
    assert walk(view, start, relevance).standing == start


@pytest.mark.parametrize(
    "named", ["manager cluster", {"x": 1}, [1, None, ""], None, ["manager cluster", 7]]
)
def test_named_metadata_of_any_shape_is_read_safely(named: object) -> None:
    """Edge metadata is anybody's JSON: only a list of strings names subjects."""
    from decisis.adr.answer.walk import named_subjects, names_asked
    from decisis.model import Edge, EdgeType, new_id

    edge = Edge(
        id=new_id(),
        type=EdgeType.SUPERSEDES,
        source=new_id(),
        target=new_id(),
        recorded_at=dt.datetime(2024, 1, 1, tzinfo=dt.UTC),
        updated_at=dt.datetime(2024, 1, 1, tzinfo=dt.UTC),
        valid_from=dt.datetime(2024, 1, 1, tzinfo=dt.UTC),
        metadata={"named": named},
    )
    subjects = named_subjects(edge)
    assert all(isinstance(s, str) and s for s in subjects)
    asked = frozenset({"manager", "cluster"})
    assert bool(names_asked([edge], asked)) == (subjects == ["manager cluster"])


def test_a_graph_with_no_records_says_to_ingest_some() -> None:
    """An empty graph abstains, saying why and what to run, not that no record shares the
    question's words."""
    with decisis.open("memory://") as graph:
        graph.add_goal("Ship the billing service")  # not a record
        answer = ask(graph, "Which CI system do we use?")
    assert answer.answer is None and answer.chain == []
    assert "no records are ingested in this graph yet" in answer.text
    assert "decisis ingest FOLDER" in answer.text


def test_a_correction_never_rejects_a_link_a_record_states(tmp_path: Path) -> None:
    """A question walked along a stated replacement to a record that was not its answer was
    about a part another record took over: the stated link stays stated."""
    from decisis.model import LinkState

    team = tmp_path / "team"
    team.mkdir()
    head = "# {n}. {t}\n\nDate: 202{n}-01-01\n\n## Status\n\n{s}\n\n## Decision\n\n{d}\n"
    (team / "001-package.md").write_text(
        head.format(
            n=1,
            t="One health plan package",
            s="Superseded by [2](002-tables.md)",
            d="Health plan data is one serialized package, sent through the API.",
        )
    )
    (team / "002-tables.md").write_text(
        head.format(
            n=2,
            t="Contract and rate tables",
            s="Accepted",
            d="Contract and rate data live in their own tables.",
        )
    )
    (team / "003-fields.md").write_text(
        head.format(
            n=3,
            t="API returns fields",
            s="Accepted",
            d="The API returns contract and rate fields directly.",
        )
    )
    with decisis.open("memory://") as g:
        ingest(g, team)
        question = "Does the API still send the serialized health plan package?"
        correct(g, question, "team:003")
        states = {e.metadata.get("rule"): e.state for e in view_of(g).links}
    assert states["status-line"] is LinkState.STATED


def test_a_corrected_question_lends_its_meaning_to_its_record(tmp_path: Path, corpus: Path) -> None:
    """The next question close in meaning to a corrected one (above ``recall_floor``) finds
    the record it was resolved to among its candidates, with ``recalled`` at that cosine."""
    from decisis.adr.answer import consider

    with decisis.open("memory://") as g:
        ingest(g, corpus)
        correct(
            g, "Which tool scans our container images for vulnerabilities?", "cloud-platform:031"
        )
        found = consider(
            g,
            view_of(g),
            "Which tool scans our Docker images for vulnerabilities?",
            DEFAULT_SETTINGS,
        )
        lent = found.value("cloud-platform:031", "recalled")
        off = replace(DEFAULT_SETTINGS, remember=False)
        alone = consider(
            g, view_of(g), "Which tool scans our Docker images for vulnerabilities?", off
        )
    assert lent >= DEFAULT_SETTINGS.recall_floor
    assert (
        "cloud-platform:031" not in alone.keys or alone.value("cloud-platform:031", "recalled") == 0
    )
