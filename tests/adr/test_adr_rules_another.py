"""``uses-another``: "We will use the Modernisation Platform SSO" after "Use SSO for the
team" (``decisis.adr.link.rules.another``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adr.rule_records import WriteFn, filler, proposed, record


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (  # another's SSO takes the place of the one the team chose
            "We will use the Modernisation Platform SSO for engineer access.",
            [("team:001", "team:002", False)],
        ),
        (  # the SSO the first record chose already: nothing gives way
            "We will use the AWS SSO for engineer access.",
            [],
        ),
        (  # weighing it is not taking it
            "We could use the Modernisation Platform SSO for engineer access.",
            [],
        ),
        (  # named, not taken
            "The Modernisation Platform SSO is described elsewhere.",
            [],
        ),
    ],
    ids=["another", "same-one", "hedged", "not-taken"],
)
def test_taking_anothers_kind_of_what_an_earlier_record_chose(
    write: WriteFn, team: Path, sentence: str, expected: list[object]
) -> None:
    filler(write)
    chose = "We enable AWS SSO log-in. SSO roles are read-only by default. SSO times out."
    write("001-sso.md", record(1, "Use SSO for the team", "2021-03-01", chose))
    write("002-accounts.md", record(2, "Use new accounts", "2022-01-01", sentence))
    assert proposed(team, "uses-another") == expected
