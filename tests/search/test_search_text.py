from __future__ import annotations

import pytest

from decisis.search.fusion import fuse
from decisis.search.terms import TermIndex
from decisis.search.text import as_written, stem, terms, words


def test_terms_drop_stop_words_dates_and_urls() -> None:
    got = terms("Should we use the pipelines? See https://x.org/a on 2020-01-02 for gov.uk")
    assert got == ["pipelin", "see", "gov.uk", "gov", "uk"]


def test_index_ranks_rare_words_and_reports_coverage() -> None:
    index = TermIndex.build(
        [("a", {"title": "Use Kafka", "body": "queues"}), ("b", {"title": "Use Postgres"})]
    )
    hits = index.search("Do we use Kafka queues?")
    assert hits[0].doc == "a" and hits[0].coverage == 1.0


def test_fusion_adds_weighted_reciprocal_ranks() -> None:
    fused = fuse({"x": ["a", "b"], "y": ["b"]}, {"x": 1.0, "y": 1.0})
    assert fused[0].doc == "b" and fused[0].votes == {"x": 2, "y": 1}


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [("amis", "ami"), ("apis", "api"), ("kpis", "kpi"), ("basis", "basis"), ("status", "status")],
)
def test_plural_acronyms_lose_their_s_but_words_ending_in_is_keep_it(
    word: str, stemmed: str
) -> None:
    assert stem(word) == stemmed
    assert stem(word[:-1]) == stemmed or word in ("basis", "status")


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("logging", "log"),
        ("logged", "log"),
        ("logs", "log"),
        ("scanning", "scan"),
        ("scanned", "scan"),
        ("shipped", "ship"),
        ("planning", "plan"),
        ("installing", "install"),  # a double l the word has stays
        ("passed", "pass"),
        ("buzzing", "buzz"),
        ("added", "add"),  # the stem keeps three letters
    ],
)
def test_a_consonant_doubled_before_ing_or_ed_is_undoubled(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_a_question_meets_a_title_in_another_form_of_its_verb() -> None:
    index = TermIndex.build(
        [
            ("scanning", {"title": "Repo vulnerability scanning"}),
            ("images", {"title": "Use ECR for images", "body": "ECR can scan for vulnerabilities"}),
        ]
    )
    assert index.search("What do we use to scan for vulnerabilities?")[0].doc == "scanning"


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("replacement", "replac"),
        ("replacements", "replac"),
        ("replaced", "replac"),
        ("deployment", "deploy"),
        ("deploy", "deploy"),
        ("requirement", "requir"),
        ("document", "document"),  # too short a stem to lose "ment"
        ("comment", "comment"),
    ],
)
def test_a_noun_in_ment_meets_its_verb(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_a_question_in_verbs_meets_a_title_in_nouns() -> None:
    index = TermIndex.build(
        [
            ("combine", {"title": "Combine Mongo clusters"}),
            ("replacement", {"title": "Mongo replacement by DocumentDB, a managed database"}),
            ("other", {"title": "Queues", "body": "We replaced RabbitMQ with SQS."}),
        ]
    )
    assert index.search("What replaced Mongo?")[0].doc == "replacement"


def test_a_compound_counts_once_however_it_is_written() -> None:
    """The question's "cross-account" is the record's "cross account": the words count,
    and written joined they only add a bonus, so the idea does not count twice."""
    index = TermIndex.build(
        [
            ("split", {"title": "Cross account encryption with KMS"}),
            ("joined", {"title": "Cross-account network access", "body": "Routing tables."}),
            ("other", {"title": "Backups", "body": "Nightly snapshots of every account."}),
        ]
    )
    hits = index.search("Where is cross-account encryption?")
    assert hits[0].doc == "split" and hits[0].coverage == 1.0
    weights, origin = index.expanded_weights("cross-account encryption")
    assert origin == {"cross-account": "cross"}
    assert weights["cross-account"] == index.idf("cross-account") * 0.5


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("centralise", "centralize"),
        ("centralised", "centralized"),
        ("organisation", "organization"),
        ("analyse", "analyze"),
        ("behaviour", "behavior"),
        ("favours", "favors"),
    ],
)
def test_british_and_american_spellings_meet(british: str, american: str) -> None:
    assert stem(british) == stem(american)


def test_an_american_question_finds_a_british_record() -> None:
    index = TermIndex.build(
        [
            ("mysql", {"title": "Centralise MySQL databases"}),
            ("postgres", {"title": "Postgres databases", "body": "Each app keeps its own."}),
        ]
    )
    assert index.search("Should we centralize our databases?")[0].doc == "mysql"
    assert stem("hours") == "hour" and stem("status") == "status"  # short and -is words stay


@pytest.mark.parametrize(("name", "short"), [("PostgreSQL", "Postgres"), ("MongoDB", "Mongo")])
def test_a_product_called_by_its_short_name_is_one_term(name: str, short: str) -> None:
    """A question saying "Postgres" finds the record writing "PostgreSQL" (the record that
    says "Postgres" in its title no longer wins on that word alone)."""
    assert terms(name) == terms(short)
    index = TermIndex.build(
        [
            ("rds", {"title": "Use RDS instead of EC2 databases", "body": f"We run {name}."}),
            ("mq", {"title": f"{short} on the message queue host", "body": "Kept local."}),
        ]
    )
    assert index.search(f"Do we run {short} on RDS or on EC2?")[0].doc == "rds"
    assert terms("mysql") == ["mysql"] and terms("documentdb") == ["documentdb"]


def test_auth_is_authentication() -> None:
    assert terms("IAM auth") == terms("IAM authentication")
    assert terms("Auth0") == ["auth0"] and terms("OAuth") == ["oauth"]  # names stay whole


def test_a_box_is_an_instance() -> None:
    """A question about "my test box" is about the record on instances."""
    assert terms("boxes") == terms("instances") and terms("an EC2 box") == terms("EC2 instance")


@pytest.mark.parametrize(
    ("noun", "verb"),
    [
        ("rotation", "rotated"),
        ("automation", "automated"),
        ("authentication", "authenticate"),
        ("propagation", "propagate"),
        ("allocation", "allocated"),
    ],
)
def test_a_noun_in_ation_meets_its_verb(noun: str, verb: str) -> None:
    assert stem(noun) == stem(verb)
    assert stem("station") == "station"  # too short a stem to lose "ation"


@pytest.mark.parametrize(
    ("text", "subject", "written"),
    [
        ("We will decommission our Concourse pipelines.", "concours", "Concourse"),
        ("with future consideration of auto-scaling.", "scal", "auto-scaling"),
        ("[Federated Access](0002-use-iam.md) was dropped", "federat", "Federated"),
        ("Move the Manager Cluster off", "manager cluster", "Manager Cluster"),
        ("our management cluster", "manager cluster", "manager cluster"),  # one term missing
        ("nothing here", "kafka", "kafka"),
    ],
)
def test_a_stemmed_subject_is_shown_as_the_text_writes_it(
    text: str, subject: str, written: str
) -> None:
    assert as_written(text, subject) == written


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We've moved", ["we", "moved"]),
        ("we\u2019ll see", ["we", "see"]),  # a typographic apostrophe too
        ("they're done", ["they", "done"]),
        ("it doesn't scale", ["it", "does", "scale"]),
        ("won't can't shan't", ["will", "can", "shall"]),
        ("the team's cluster", ["the", "team", "cluster"]),
        ("GOV.UK's apps", ["gov.uk", "apps"]),
    ],
)
def test_contractions_are_read_as_the_word_they_shorten(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_a_contraction_gives_no_term_that_a_record_saying_it_would_match() -> None:
    """Split at the apostrophe, "we've" left "ve": a rare and so weighty word that matched
    whichever record also said "we've"."""
    assert terms("We've built a stack, haven't we? It isn't live") == ["built", "stack", "live"]
    records = [("a", {"title": "Stacks", "body": "We've tested it and we're happy"})]
    index = TermIndex.build([*records, ("b", {"title": "Builds"})])
    assert index.search("We've got what?") == []
