"""Where a question starts: the folder it names, and abstaining when nothing is close."""

from __future__ import annotations

from pathlib import Path

import pytest

import decisis
from decisis.adr.answer import ask
from decisis.adr.answer.question import folder_words, parse_question
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import view_of
from tests.adr.conftest import best_start


def _record(folder: Path, name: str, title: str, decision: str, date: str = "2022-03-01") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(
        f"# {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n## Decision\n\n{decision}\n",
        encoding="utf-8",
    )


def _two_teams(root: Path) -> None:
    pay, search = root / "payments-hub", root / "search-team"
    _record(pay, "001-queues.md", "1. Use SQS queues", "Payments hub services use SQS queues.")
    _record(pay, "002-ledger.md", "2. Payments ledger", "The payments hub keeps one ledger.")
    _record(search, "001-queues.md", "1. Use Kafka queues", "Search services use Kafka queues.")
    _record(search, "002-index.md", "2. Index nightly", "The search index is rebuilt nightly.")


def test_a_question_naming_a_folder_starts_there(tmp_path: Path) -> None:
    _two_teams(tmp_path / "adrs")
    with decisis.open("memory://") as g:
        ingest(g, tmp_path / "adrs")
        view = view_of(g)
        assert "ph" in folder_words(view)["payments-hub"]
        assert parse_question(view, "Which queues does the Payments Hub use?").folder == (
            "payments-hub"
        )
        assert parse_question(view, "Which queues do we use?").folder is None
        assert best_start(g, "Which queues does the PH use for services?") == "payments-hub:001"


def test_out_of_scope_questions_abstain_on_the_corpus(corpus: Path) -> None:
    with decisis.open("memory://") as g:
        ingest(g, corpus)
        for question in (
            "What is the dress code for the summer party?",
            "How many days of annual leave does an engineer get?",
        ):
            assert ask(g, question).answer is None


def test_a_correction_credits_the_stated_link_not_rules_beside_it(tmp_path: Path) -> None:
    from decisis.adr.learn.corrections import correct
    from decisis.model import LinkState

    team = tmp_path / "team"
    team.mkdir()
    (team / "001-use-jenkins.md").write_text(
        "# 1. Build releases on Jenkins\n\nDate: 2019-01-01\n\n## Status\n\n"
        "Superseded by [2](002-build-releases-on-actions.md)\n\n## Decision\n\n"
        "Release builds run on a Jenkins server; release artefacts are signed there.\n",
        encoding="utf-8",
    )
    (team / "002-build-releases-on-actions.md").write_text(
        "# 2. Build releases on GitHub Actions\n\nDate: 2023-05-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nRelease builds run on GitHub Actions; release artefacts are signed "
        "there. We are migrating away from [the Jenkins server](001-use-jenkins.md).\n",
        encoding="utf-8",
    )
    with decisis.open("memory://") as g:
        ingest(g, team)
        rules = {e.metadata.get("rule"): e for e in view_of(g).links}
        assert {"status-line", "cites-replaced"} <= set(rules)
        correct(g, "Where are release builds signed?", "team:002")
        after = {e.metadata.get("rule"): e for e in view_of(g).links}
    assert after["status-line"].state is LinkState.CONFIRMED
    assert after["cites-replaced"].state is LinkState.CANDIDATE


def test_the_team_a_question_names_chooses_the_folder_not_the_record(tmp_path: Path) -> None:
    """A question "… for Acme" picks Acme's folder; as content it would pick the record that repeats
    "Acme" most, not the one about what was asked."""
    web, billing = tmp_path / "acme-web", tmp_path / "billing"
    brand = (
        "Acme pages follow the Acme brand guide; every Acme page and Acme email uses the Acme "
        "logo and the module of Acme styles."
    )
    _record(web, "001-acme-brand.md", "1. Acme brand pages", brand, "2020-01-01")
    location = "Terraform modules live in the infrastructure repository, one folder per module."
    _record(web, "002-terraform-modules.md", "2. Terraform module location", location, "2020-02-01")
    registry = "Billing publishes its Terraform modules to a private registry."
    _record(
        billing,
        "001-terraform-modules.md",
        "1. Terraform modules in a registry",
        registry,
        "2020-03-01",
    )
    with decisis.open(f"sqlite:///{tmp_path / 'g.db'}") as g:
        ingest(g, web, billing)
        answer = ask(g, "Where are Terraform modules for Acme kept?")
    assert answer.answer == "acme-web:002"


def test_only_whole_words_that_name_the_team_leave_the_question(tmp_path: Path) -> None:
    _two_teams(tmp_path / "adrs")
    with decisis.open("memory://") as g:
        ingest(g, tmp_path / "adrs")
        view = view_of(g)
        question = "Does the PH still run the ph-sync tool for the Payments ledger?"
        read = parse_question(view, question)
        assert read.folder == "payments-hub"
        assert read.asked == "Does the still run the ph-sync tool for the ledger?"


def test_the_date_line_of_a_record_is_not_its_content(tmp_path: Path) -> None:
    """Every record has a "Date:" line; indexed, it would make "date" a word of every record,
    and a question about keeping things up to date could not find the record about it."""
    team = tmp_path / "team"
    _record(team, "001-modules.md", "1. Keep Terraform modules up to date", "Renovate bumps them.")
    _record(team, "002-layout.md", "2. Terraform module layout", "One folder per Terraform module.")
    _record(team, "003-queues.md", "3. Use SQS queues", "Services use SQS queues.")
    with decisis.open("memory://") as g:
        ingest(g, team)
        view = view_of(g)
        assert view.index.idf("date") > view.index.idf("terraform")
        assert best_start(g, "How are our Terraform modules kept up to date?") == "team:001"


def test_a_question_naming_a_team_starts_among_its_records(tmp_path: Path) -> None:
    """A question "Does the Payments Hub use Kafka?" is about the hub's decisions: the search
    team's Kafka record matches its words better, but the hub's queue record answers it."""
    _two_teams(tmp_path / "adrs")
    with decisis.open("memory://") as g:
        ingest(g, tmp_path / "adrs")
        named = best_start(g, "Does the Payments Hub use Kafka queues?")
        unnamed = best_start(g, "Do we use Kafka queues?")
    assert named == "payments-hub:001"
    assert unnamed == "search-team:001"


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("Where do our Terraform modules live?", "Where do our Terraform modules  ?"),
        ("Which account will the buckets live in?", "Which account will the buckets   in?"),
        ("Do the secrets live alongside the code?", "Do the secrets   alongside the code?"),
        # "live" as production stays
        ("Do we share the live cluster?", "Do we share the live cluster?"),
        ("What do we test before going live on it?", "What do we test before going live on it?"),
        ("Which tool before go-live?", "Which tool before go-live?"),
    ],
)
def test_live_as_a_verb_is_not_a_word_of_the_subject(
    question: str, kept: str, tmp_path: Path
) -> None:
    _two_teams(tmp_path / "adrs")
    with decisis.open("memory://") as g:
        ingest(g, tmp_path / "adrs")
        assert parse_question(view_of(g), question).asked == kept


def _answer_among_notes(
    root: Path, team: str, records: list[tuple[str, str]], question: str
) -> str | None:
    """Ingest ``records`` (title, decision) of ``team`` beside six notes that decide nothing
    (so that the records' words are rare), and answer ``question``."""
    folder = root / "adrs" / team
    for n, (title, decision) in enumerate(records, start=1):
        _record(folder, f"00{n}-record.md", f"{n}. {title}", decision)
    for n in range(len(records) + 1, len(records) + 7):
        _record(
            folder, f"00{n}-note.md", f"{n}. Note {n}", f"Note {n} decides nothing of interest."
        )
    with decisis.open("memory://") as g:
        ingest(g, root / "adrs")
        return ask(g, question).answer


def test_where_things_live_is_not_about_the_live_environment(tmp_path: Path) -> None:
    """Asked where the Terraform modules live, the answer is the record saying where they are
    kept, not the one that talks of the live environment and modules."""
    records = [
        (
            "Terraform module location",
            "Terraform modules are kept in this repository, in the modules folder.",
        ),
        (
            "Userdata snippets",
            "Snippets for the live and staging stacks are shared by the Terraform modules.",
        ),
    ]
    answer = _answer_among_notes(tmp_path, "infra", records, "Where do our Terraform modules live?")
    assert answer == "infra:001"


def test_an_abbreviation_finds_the_record_whose_title_spells_it_out(tmp_path: Path) -> None:
    """Asked about OPA, the answer is the record introducing the Open Policy Agent, not the
    one that names OPA in passing, though only the latter writes the abbreviation."""
    records = [
        ("Introduce Open Policy Agent", "Every ingress is checked by policies before admission."),
        ("Multi-cluster", "Single points of failure such as ingress or OPA go to a test cluster."),
    ]
    _answer_among_notes(tmp_path, "platform", records, "Do we use OPA on the platform?")
    with decisis.open("memory://") as g:
        ingest(g, tmp_path / "adrs")
        assert best_start(g, "Do we use OPA on the platform?") == "platform:001"
