"""Common abbreviations match their spelled-out form in either direction."""

from __future__ import annotations

import pytest

from decisis.errors import InvalidInput
from decisis.search import glossary
from decisis.search.glossary import add_abbreviation, spelled_both_ways


def test_long_form_in_a_question_adds_the_short_one() -> None:
    assert spelled_both_ways("Who gives us single sign-on across accounts?") == ["sso"]


def test_short_form_adds_the_long_one_only_when_the_records_lack_it() -> None:
    assert spelled_both_ways("Do we run k8s ourselves?") == ["kubernetes"]
    assert spelled_both_ways("Do we run k8s ourselves?", known={"k8s"}) == []


def test_text_with_both_spellings_adds_nothing() -> None:
    assert spelled_both_ways("Use SSO (single sign-on) for people") == []


def test_words_inside_other_words_do_not_count() -> None:
    assert spelled_both_ways("Discovered a circle of decisions") == []


def test_teams_add_their_own_and_bad_ones_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(glossary, "ABBREVIATIONS", dict(glossary.ABBREVIATIONS))
    add_abbreviation("PII", "Personally identifiable information")
    assert spelled_both_ways("Where does personally identifiable information live?") == ["pii"]
    with pytest.raises(InvalidInput, match="not one short word"):
        add_abbreviation("two words", "x")
    with pytest.raises(InvalidInput, match="has no words"):
        add_abbreviation("ok", "---")
    assert "two words" not in glossary.ABBREVIATIONS
