"""A record's decision in a sentence: the first one, unless it says nothing decided and a
later one says what was chosen."""

from __future__ import annotations

import pytest

from decisis.adr.read.summary import (
    says_what_was_chosen,
    states_a_decision,
    summarise,
    tells_the_situation,
)


@pytest.mark.parametrize(
    ("decision", "summary"),
    [
        # the first sentence weighs options; the one naming the choice comes later
        (
            "We discussed three options:\n\n1. one instance per database\n2. one shared"
            " instance\n\nThe first is costly. The final option, and the one we've chosen for"
            " now, is one shared instance.\n",
            "The final option, and the one we've chosen for now, is one shared instance.",
        ),
        (
            "There are several managed Kubernetes services.\n\n"
            "We decided to host our cluster on AWS. It is cheaper.\n",
            "We decided to host our cluster on AWS.",
        ),
        # a lead-in that says what was chosen takes the list item after it
        (
            "We looked at many tools.\n\nEventually we decided to introduce OPA:\n\n"
            "* it is a generic policy framework\n",
            "Eventually we decided to introduce OPA: it is a generic policy framework",
        ),
        # lettered items are list items too; a lead-in into anything else ends in an ellipsis
        (
            "We chose B because:\n\na) it is cheap\nb) it is fast\n",
            "We chose B because: it is cheap",
        ),
        (
            "The layout will now be:\n\n```\ndata/\n  common/\n```\n",
            "The layout will now be: \u2026",
        ),
        # a first sentence that decides stays, whatever follows
        (
            "We will use PostgreSQL. We decided to use it for everything.\n",
            "We will use PostgreSQL.",
        ),
        (
            "Replace Jenkins with Concourse.\n\nWe decided to run it ourselves.\n",
            "Replace Jenkins with Concourse.",
        ),
        (
            "We are using AWS as our hosting provider. We will use eu-west-1.\n",
            "We are using AWS as our hosting provider.",
        ),
        (
            "We host every service on AWS.\n\nWe will use eu-west-2 for every environment.\n",
            "We host every service on AWS.",
        ),
        # a present-tense decision stays: what the team will do next is not what it chose
        (
            "Builds run as GitHub Actions workflows. We will decommission our Jenkins server.\n",
            "Builds run as GitHub Actions workflows.",
        ),
        # ... but after a sentence telling what the team tried, what it will do is the decision
        (
            "We've tested the instances without the proxies. In light of this we will remove"
            " the proxies.\n",
            "In light of this we will remove the proxies.",
        ),
        # nothing later says what was chosen: the first sentence stays
        ("There are several options. Each has costs.\n", "There are several options."),
        # what will follow from a decision, or an example of it, is not what was chosen
        (
            "The bastions update when Terraform runs.\n\nWe will need to patch them. For instance"
            " we will patch monthly.\n",
            "The bastions update when Terraform runs.",
        ),
    ],
)
def test_the_summary_says_what_was_decided(decision: str, summary: str) -> None:
    assert summarise(decision) == summary


@pytest.mark.parametrize(
    "sentence",
    [
        "We decided to use Go.",
        "It was selected last year.",
        "The decision is to wait.",
    ],
)
def test_sentences_saying_what_was_chosen(sentence: str) -> None:
    assert says_what_was_chosen(sentence) and states_a_decision(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We will remove the proxy.",  # what the team will do: read after a situation only
        "For example, we decided to wait.",
        "We explored options.",
    ],
)
def test_sentences_not_saying_what_was_chosen(sentence: str) -> None:
    assert not says_what_was_chosen(sentence)


@pytest.mark.parametrize(
    ("sentence", "situation"),
    [
        ("We discussed three options.", True),
        ("We've tested the instances.", True),
        ("There are several providers.", True),
        ("The bastions currently update on apply.", True),
        ("Builds run as GitHub Actions workflows.", False),
        ("We will use Go.", False),
    ],
)
def test_sentences_telling_the_situation(sentence: str, situation: bool) -> None:
    assert tells_the_situation(sentence) is situation


def test_an_empty_section_has_no_summary() -> None:
    assert summarise("") == ""
    assert summarise("![diagram](x.png)\n") == ""
