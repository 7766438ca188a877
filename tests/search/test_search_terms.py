"""Query expansion from the indexed text itself: abbreviations, completions, compounds."""

from __future__ import annotations

from decisis.search.terms import TermIndex, defined_aliases, title_aliases


def _index() -> TermIndex:
    return TermIndex.build(
        [
            (
                "certs",
                {
                    "title": "Use the Hosting Platform (HP) certificate service",
                    "body": "Certificates renew by themselves; nobody buys one by hand.",
                },
            ),
            ("queues", {"title": "Use a message queue", "body": "Workers read the queue."}),
            ("caches", {"title": "Use a shared cache", "body": "Apps read through the cache."}),
        ]
    )


def test_defined_aliases_need_matching_initials() -> None:
    got = defined_aliases("We run on the Hosting Platform (HP), not the Old Thing (XYZ).")
    assert got == {"hp": ("host", "platform")}


def test_a_word_the_index_lacks_is_completed_from_its_words() -> None:
    _weights, origin = _index().expanded_weights("Who renews our certs?")
    assert origin.get("certificat") == "cert"
    hits = _index().search("Who renews our certs?")
    assert hits[0].doc == "certs"


def test_an_abbreviation_brings_the_words_it_stands_for() -> None:
    weights, origin = _index().expanded_weights("What runs on HP?")
    assert origin.get("platform") == "hp" and weights["platform"] < weights["hp"]


def test_an_unknown_compound_counts_by_its_parts_only() -> None:
    weights, _ = _index().expanded_weights("a shared-cache layer")
    assert "shared-cache" not in weights and {"shar", "cach"} <= set(weights)


def test_a_word_written_joined_finds_the_compound_written_apart() -> None:
    """ "multicluster" and "non-prod" are how people type "multi-cluster" and "non-prod"."""
    index = TermIndex.build(
        [
            (
                "clusters",
                {"title": "Go multi-cluster", "body": "Non-prod moves to its own cluster."},
            ),
            ("queues", {"title": "Use a message queue", "body": "Workers read the queue."}),
        ]
    )
    _weights, origin = index.expanded_weights("Are we multicluster for nonprod?")
    assert origin == {"multi-cluster": "multicluster", "non-prod": "nonprod"}
    hit = index.search("Are we multicluster for nonprod?")[0]
    assert hit.doc == "clusters" and hit.coverage == 1.0
    assert index.expanded_weights("Are we multiclusters?")[1] == {"multi-cluster": "multicluster"}


def test_coverage_counts_an_expanded_word_once() -> None:
    hit = _index().search("Who renews certs?")[0]
    assert hit.doc == "certs" and hit.coverage == 1.0
    assert _index().search("Who renews certs?", expand=False)[0].coverage < 1.0


def test_coverage_of_a_document_is_the_coverage_search_gives_it() -> None:
    index = TermIndex.build(
        [
            ("a", {"title": "Use Postgres", "body": "Postgres on RDS for every app."}),
            ("b", {"title": "Use Redis", "body": "Redis on ElastiCache, with backups."}),
            ("c", {"title": "Backups", "body": "Nightly backups of every database."}),
        ]
    )
    question = "Do we keep nightly backups of Postgres on RDS?"
    for hit in index.search(question):
        assert index.coverage(question, hit.doc) == hit.coverage
    assert index.coverage(question, "b") > 0.0
    assert index.coverage(question, "missing") == 0.0


def test_words_of_questions_count_for_coverage_but_not_for_rank() -> None:
    """A corrected question's words are the document's when measuring how much of a
    question it holds, but rank nothing: alone they make no hit at all."""
    buckets = {"title": "Buckets", "body": "S3 buckets go in the cluster's account."}
    index = TermIndex.build(
        [
            ("limits", {"title": "One AWS account", "body": "We ask AWS for higher limits."}),
            ("buckets", {**buckets, "questions": "Which AWS account do zorblaxes go in?"}),
        ]
    )
    hits = index.search("Which AWS account do zorblaxes go in?")
    assert [h.doc for h in hits] == ["limits", "buckets"]
    assert hits[1].coverage == 1.0 > hits[0].coverage
    assert index.coverage("zorblaxes?", "buckets") == 1.0
    assert index.search("zorblaxes?") == []


def test_subject_coverage_counts_only_the_rarest_known_words() -> None:
    index = TermIndex.build(
        [
            ("review", {"title": "Pull requests need two approvals before a merge"}),
            ("hosting", {"title": "Host the platform infrastructure on AWS"}),
            ("network", {"title": "Network the platform infrastructure"}),
            ("region", {"title": "Pick one AWS region for the platform infrastructure"}),
        ]
    )
    question = "How many approvals does a platform infrastructure pull request need?"
    assert index.subject_coverage(question, "review") == 1.0
    # "platform infrastructure" is everybody's: the hosting record misses the subject.
    assert index.subject_coverage(question, "hosting") == 0.0
    assert 0.0 < index.subject_coverage("approvals on AWS hosting", "hosting") < 1.0
    assert index.subject_coverage("zebra?", "hosting") == 1.0  # no known word to miss
    assert index.subject_coverage(question, "nope") == 0.0


def test_held_only_by_names_the_subject_words_one_document_alone_uses() -> None:
    index = TermIndex.build(
        [
            ("logs", {"title": "Ship container stdout to a hosted log search"}),
            ("metrics", {"title": "Ship container metrics to Prometheus"}),
            ("alerts", {"title": "Page the team from Prometheus alerts"}),
        ]
    )
    question = "Where can I search the stdout my containers print?"
    assert set(index.held_only_by(question, "logs")) == {"stdout", "search"}
    assert index.held_only_by(question, "metrics") == []  # it holds none of them
    # "prometheus" is in two documents: no one document alone answers for it
    assert index.held_only_by("Which Prometheus do we run?", "metrics") == []
    assert index.held_only_by(question, "missing") == []


def test_a_title_spells_out_an_abbreviation_other_documents_use() -> None:
    """ "Introduce Open Policy Agent" spells out "OPA", which another record uses; the last
    words of a run of capitals only (a name ends a title), never a stop word, a word the
    glossary spells both ways or an everyday English one."""
    known = {"opa", "iop", "ecr", "tcp", "use", "kms"}
    titles = [
        "Introduce Open Policy Agent",  # opa, not iop
        "Use Elastic Container Registry",  # ecr: the glossary's
        "The Cloud Platform",  # "The" starts no run
        "Use Simple Ephemeral Storage",  # "use": everyday English (and "ses" unknown)
        "Keep Metrics, Store Logs",  # the comma ends a run
    ]
    assert title_aliases(titles, known) == {"opa": ("open", "policy", "agent")}


def test_only_an_index_of_named_titles_takes_them_as_aliases() -> None:
    docs = [
        ("a", {"title": "Introduce Open Policy Agent", "body": "Policies are checked."}),
        ("b", {"title": "Multi-cluster", "body": "OPA is a single point of failure."}),
    ]
    assert TermIndex.build(docs, spell_out_titles=True).aliases == {
        "opa": ("open", "policy", "agent")
    }
    assert TermIndex.build(docs).aliases == {}  # questions' titles name nothing
    rebuilt = TermIndex.build(docs, spell_out_titles=True).rebuilt(docs[:1] + docs[1:])
    assert rebuilt.aliases == {"opa": ("open", "policy", "agent")}
