"""Fitting the answer settings on question sets, one corpus held out at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decisis.adr import fit_settings as fit
from decisis.adr import held_out_right, leave_one_out
from decisis.adr.answer import DEFAULT_SETTINGS, AnswerSettings
from decisis.adr.answer.settings import FEATURES, GATE_FEATURES
from decisis.errors import InvalidInput
from decisis.evaluation.fit import cases_of
from decisis.evaluation.suite import load_suite

RECORD = "# {n}. {title}\n\nDate: 2021-0{n}-01\n\n## Status\n\n{status}\n\n## Decision\n\n{text}\n"
TEAMS = {
    "payments": [
        ("Use Jenkins for builds", "Superseded by [3](0003-x.md)", "Jenkins runs every build."),
        ("Keep secrets in Vault", "Accepted", "Services read their secrets from Vault."),
        ("Use GitHub Actions", "Accepted", "Builds run as GitHub Actions workflows."),
    ],
    "search": [
        ("Use Elasticsearch", "Accepted", "The search index lives in Elasticsearch."),
        ("Deploy with Helm", "Accepted", "Every service ships as a Helm chart."),
    ],
}
QUESTIONS = {
    "payments": [
        ("Do we still build on Jenkins?", "payments:0003"),
        ("Where do services read their secrets?", "payments:0002"),
        ("What is on the canteen menu?", None),
    ],
    "search": [
        ("Which engine holds the search index?", "search:0001"),
        ("How is a service shipped?", "search:0002"),
        ("Who cleans the office windows?", None),
    ],
}


def _suite(tmp_path: Path) -> Path:
    for team, records in TEAMS.items():
        folder = tmp_path / team
        folder.mkdir()
        for n, (title, status, text) in enumerate(records, start=1):
            name = "0003-x.md" if n == 3 else f"000{n}-r.md"
            (folder / name).write_text(RECORD.format(n=n, title=title, status=status, text=text))
        rows = [
            {"id": f"{team}-{i}", "question": q, "expected": k}
            for i, (q, k) in enumerate(QUESTIONS[team])
        ]
        (tmp_path / f"{team}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    suite = tmp_path / "suite.toml"
    suite.write_text(
        "".join(
            f'[[corpus]]\nname = "{team}"\nrecords = ["{team}"]\nquestions = ["{team}.jsonl"]\n'
            for team in TEAMS
        )
    )
    return suite


def test_leave_one_out_fits_each_group_on_the_others(tmp_path: Path) -> None:
    cases = cases_of(load_suite(_suite(tmp_path)))
    assert {c.group for c in cases} == {"payments", "search"}
    chosen = leave_one_out(cases)
    assert {g: s.fitted_on for g, s in chosen.items()} == {
        "payments": "all but payments",
        "search": "all but search",
    }
    for settings in chosen.values():
        assert settings.weight("lexical") == 1.0  # the scale is fixed: only ratios rank
        assert all(w >= 0 for w in settings.abstain_weights)  # evidence, never against
        assert 0.0 <= settings.abstain_below <= 1.0
    rates = held_out_right(cases, chosen)
    assert set(rates) == {"payments", "search"} and all(0.0 <= r <= 1.0 for r in rates.values())


def test_a_fit_never_does_worse_on_its_own_cases_than_where_it_started(tmp_path: Path) -> None:
    cases = cases_of(load_suite(_suite(tmp_path)))
    fitted = fit(cases)
    assert fitted.extra["questions"] == len(cases)
    from decisis.adr.answer.fit import _right_with_gate

    assert _right_with_gate(cases, fitted) >= _right_with_gate(cases, DEFAULT_SETTINGS)


def test_settings_refuse_what_they_cannot_use() -> None:
    with pytest.raises(InvalidInput, match="weights"):
        AnswerSettings(weights=(1.0,))
    with pytest.raises(InvalidInput, match="abstain_weights"):
        AnswerSettings(abstain_weights=(1.0,))
    with pytest.raises(InvalidInput, match="abstain_below"):
        AnswerSettings(abstain_below=2.0)
    with pytest.raises(InvalidInput, match="unknown"):
        DEFAULT_SETTINGS.with_weights(nonsense=1.0)
    changed = DEFAULT_SETTINGS.with_weights(title=3.0)
    assert changed.weight("title") == 3.0 and DEFAULT_SETTINGS.weight("title") != 3.0
    shown = DEFAULT_SETTINGS.to_dict()
    assert list(shown["weights"]) == list(FEATURES)
    assert list(shown["abstain_weights"]) == list(GATE_FEATURES)


def test_settings_round_trip_through_json_and_refuse_strays() -> None:
    import json

    again = AnswerSettings.from_dict(json.loads(json.dumps(DEFAULT_SETTINGS.to_dict())))
    assert again == DEFAULT_SETTINGS
    partial = AnswerSettings.from_dict({"weights": {"title": 2.0}, "abstain_below": 0.3})
    assert partial.weight("title") == 2.0 and partial.weight("lexical") == 1.0
    assert partial.abstain_below == 0.3
    with pytest.raises(InvalidInput, match="weigths"):
        AnswerSettings.from_dict({"weigths": {}})
    with pytest.raises(InvalidInput, match="titel"):
        AnswerSettings.from_dict({"weights": {"titel": 1.0}})
    with pytest.raises(InvalidInput, match="checks"):
        AnswerSettings.from_dict({"checks": ["named", "nmaed"]})


def test_eval_fit_writes_settings_that_ask_and_eval_take(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from decisis.cli.app import app

    suite = _suite(tmp_path)
    out = tmp_path / "fitted.json"
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "eval",
            "--suite",
            str(suite),
            "--fit",
            str(out),
            "--orders",
            "1",
            "--systems",
            "decisis-static",
        ],
    )
    assert result.exit_code == 0, result.output
    fitted = AnswerSettings.from_dict(json.loads(out.read_text()))
    assert fitted.fitted_on == "payments, search"
    store = f"sqlite:///{tmp_path / 'a.db'}"
    assert (
        runner.invoke(app, ["--store", store, "ingest", str(tmp_path / "payments")]).exit_code == 0
    )
    asked = runner.invoke(
        app,
        ["--store", store, "ask", "Where do services read their secrets?", "--settings", str(out)],
    )
    assert asked.exit_code == 0 and "payments:0002" in asked.stdout
    again = runner.invoke(
        app,
        [
            "eval",
            "--suite",
            str(suite),
            "--settings",
            str(out),
            "--orders",
            "1",
            "--systems",
            "decisis-static",
        ],
    )
    assert again.exit_code == 0, again.output
