"""``uses-another``: "We will use the Modernisation Platform SSO" after "Use SSO for the
team" (``decisis.adr.link.rules.another``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr import read_folder
from decisis.adr.link.rules import propose_links

WriteFn = Callable[[str, str | bytes], Path]


def _record(number: int, title: str, date: str, decision: str) -> str:
    return (
        f"# {number}. {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n"
        f"## Decision\n\n{decision}\n"
    )


def _filler(write: WriteFn) -> None:
    """Unrelated records, so that "SSO" is a rare word of the folder."""
    for n, topic in enumerate(("Queues", "Logging", "Backups", "Secrets", "Alerts", "DNS"), 1):
        write(f"1{n:02}-{topic.lower()}.md", _record(10 + n, topic, "2019-01-01", f"Pick {topic}."))


def _found(team: Path) -> list[tuple[str, str, bool]]:
    records = read_folder(team).records
    return sorted(
        (p.old, p.new, p.partial) for p in propose_links(records) if p.rule == "uses-another"
    )


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
    _filler(write)
    chose = "We enable AWS SSO log-in. SSO roles are read-only by default. SSO times out."
    write("001-sso.md", _record(1, "Use SSO for the team", "2021-03-01", chose))
    write("002-accounts.md", _record(2, "Use new accounts", "2022-01-01", sentence))
    assert _found(team) == expected
