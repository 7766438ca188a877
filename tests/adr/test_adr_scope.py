"""What a record says it leaves out, and questions about it that must not start there."""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.adr.answer import ask
from decisis.adr.answer.scope import excluded_terms, sentence_exclusions
from decisis.adr.link.ingest import ingest

NETWORK = (
    "# 3. Network layout\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n"
    "We need IP ranges for every environment. This record does not cover the "
    "disaster recovery environments.\n\n## Decision\n\n"
    "Each environment gets one VPC with a /16 IP range: staging 10.2.0.0/16, "
    "production 10.3.0.0/16.\n\n## Consequences\n\n"
    "Backups for the archive will be addressed in a future ADR.\n"
)


@pytest.mark.parametrize(
    ("sentence", "left_out"),
    [
        ("This record does not cover the billing service.", {"bill"}),
        ("The decision does not currently apply to batch jobs.", {"batch", "job"}),
        ("Tracing will be decided in a separate ADR.", {"trac"}),
        ("Mobile apps are out of scope for now.", {"mobil", "app"}),
        ("Search is outside the scope of this ADR.", {"search"}),
    ],
)
def test_exclusion_sentences_name_what_is_left_out(sentence: str, left_out: set[str]) -> None:
    found = excluded_terms("Use Postgres", f"We use Postgres for the orders. {sentence}")
    assert left_out <= found
    assert "postgr" not in found and "order" not in found


def test_words_used_elsewhere_in_the_record_are_not_excluded() -> None:
    found = excluded_terms("Network layout", NETWORK)
    assert {"disaster", "recovery", "backup", "archiv"} <= found
    assert not {"environment", "ip", "rang", "network", "layout"} & found


@pytest.mark.parametrize(
    "sentence",
    [
        "Interfaces not covered by Shield Standard are protected by Shield Advanced.",
        "We will document the runbook in the wiki.",
        "The scope of this change is the staging cluster.",
    ],
)
def test_ordinary_sentences_exclude_nothing(sentence: str) -> None:
    assert excluded_terms("Shield", sentence) == frozenset()


def test_a_question_about_what_the_record_leaves_out_abstains(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "003-network-layout.md").write_text(NETWORK, encoding="utf-8")
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, team)
        covered = ask(g, "Which IP range does the staging environment get?")
        left_out = ask(g, "What IP ranges should the disaster recovery environments use?")
    assert covered.answer == "team:003"
    assert left_out.answer is None
    assert "does not cover" in left_out.text and "disaster" in left_out.text


def test_a_hostile_run_on_record_is_read_in_linear_time() -> None:
    # Quadratic matching would take minutes here; the exclusion at the end is still found.
    run_on = " ".join(["the record does not"] * 30_000)
    found = excluded_terms("Logs", f"{run_on}\n\nThis record does not cover billing.")
    assert "bill" in found


@pytest.mark.parametrize(
    "sentence",
    [
        "This decision does not preclude applying MFA Delete in future if a framework asks.",
        "The extraction of the CI environments will be addressed in a future ADR once they "
        "have been confirmed to work.",
    ],
)
def test_only_what_is_left_out_counts(sentence: str) -> None:
    found = excluded_terms("Buckets", sentence)
    assert not {"preclud", "mfa", "confirm", "work", "futur"} & found


CORPUS = Path(__file__).resolve().parents[2] / "data" / "adr-corpus"


@pytest.mark.parametrize(
    "text",
    [
        NETWORK,
        "We use Postgres.\nThis record does\nnot cover\n  the billing service.",
        "- Tracing will be\n  decided in a separate ADR\n- Metrics are out of\nscope",
        "1. Search is outside the\n   scope of this ADR.\n2. The scope is small.",
        "## Notes\nThe decision does not currently apply to batch jobs",
        "Nothing here is left out; the scope of this change is the staging cluster.",
    ],
)
def test_the_shortcut_for_records_that_leave_nothing_out_changes_nothing(text: str) -> None:
    assert excluded_terms("Notes", text) == sentence_exclusions("Notes", text)


def test_the_shortcut_changes_nothing_on_the_corpus() -> None:
    files = sorted(CORPUS.glob("*/*.md"))
    assert len(files) > 100
    with_exclusions = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = excluded_terms(path.stem, text)
        assert found == sentence_exclusions(path.stem, text), path
        with_exclusions += bool(found)
    assert with_exclusions  # the corpus has records that leave something out
