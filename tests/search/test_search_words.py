"""The word lists as data: every entry says where it comes from; only general usage is kept."""

from __future__ import annotations

import tomllib
from importlib.resources import files

import pytest

from decisis.search import words
from decisis.search.glossary import ABBREVIATIONS
from decisis.search.text import SAME_NAME, STOP_WORDS

FILES = {
    "stop_words.toml": "word",
    "abbreviations.toml": "abbreviation",
    "same_names.toml": "name",
}


@pytest.mark.parametrize(("name", "table"), FILES.items())
def test_every_entry_says_where_it_comes_from(name: str, table: str) -> None:
    data = tomllib.loads(files("decisis.search.words").joinpath(name).read_text(encoding="utf-8"))
    entries = data[table]
    assert entries and all(isinstance(e.get("origin"), str) and e["origin"] for e in entries)


def test_only_general_usage_is_kept() -> None:
    data = tomllib.loads(
        files("decisis.search.words").joinpath("abbreviations.toml").read_text(encoding="utf-8")
    )
    one_team = [e["short"] for e in data["abbreviation"] if e["origin"] not in words.KEPT_ORIGINS]
    assert one_team == ["jml"]  # joiners, movers and leavers: one team's usage
    assert "jml" not in words.abbreviations() and "sso" in words.abbreviations()
    assert words.stop_words() == STOP_WORDS and "decision" in STOP_WORDS
    assert words.same_names() == SAME_NAME and SAME_NAME["postgresql"] == "postgres"
    assert set(words.abbreviations()) <= set(ABBREVIATIONS)
