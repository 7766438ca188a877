"""``ended-by-cited``: "we no longer store form data as a blob (see [ADR 2])" ends what an
earlier record decided (``decisis.adr.link.rules.ended``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr import read_folder
from decisis.adr.link.rules import propose_links

WriteFn = Callable[[str, str | bytes], Path]


def _record(number: int, title: str, date: str, decision: str, context: str = "") -> str:
    about = f"## Context\n\n{context}\n\n" if context else ""
    return (
        f"# {number}. {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n{about}"
        f"## Decision\n\n{decision}\n"
    )


def _filler(write: WriteFn) -> None:
    """Unrelated records, so that the words below are rare words of the folder."""
    for n, topic in enumerate(("Queues", "Logging", "Backups", "Secrets", "Alerts", "DNS"), 1):
        write(f"1{n:02}-{topic.lower()}.md", _record(10 + n, topic, "2019-01-01", f"Pick {topic}."))


def _found(team: Path) -> list[tuple[str, str, bool]]:
    records = read_folder(team).records
    return sorted(
        (p.old, p.new, p.partial) for p in propose_links(records) if p.rule == "ended-by-cited"
    )


@pytest.mark.parametrize(
    ("sentence", "decided", "expected"),
    [
        (  # the cited record ended what the first one decided
            "We also no longer want to keep form data as a blob (see [ADR 2](002-tables.md)).",
            True,
            [("team:001", "team:002", True)],
        ),
        (  # weighing an end: nothing ended it
            "If we no longer keep form data as a blob (see [ADR 2](002-tables.md)), we save time.",
            True,
            [],
        ),
        (  # the end and the reference in different sentences
            "We no longer keep form data as a blob. [ADR 2](002-tables.md) has the tables.",
            True,
            [],
        ),
        (  # the first record only mentioned blobs; it decided something else
            "We also no longer want to keep form data as a blob (see [ADR 2](002-tables.md)).",
            False,
            [],
        ),
    ],
    ids=["ended", "hedged", "other-sentence", "not-decided"],
)
def test_a_cited_record_ends_what_an_earlier_one_decided(
    write: WriteFn, team: Path, sentence: str, decided: bool, expected: list[object]
) -> None:
    _filler(write)
    if decided:
        first = _record(
            1, "Move to Postgres", "2021-01-01", "Postgres; we keep form data as blobs."
        )
    else:
        first = _record(
            1,
            "Move to Postgres",
            "2021-01-01",
            "Postgres it is.",
            "Dynamo keeps form data as blobs.",
        )
    write("001-postgres.md", first)
    write("002-tables.md", _record(2, "Separate tables", "2023-05-01", "Contracts and rates."))
    write("003-cleanup.md", _record(3, "Clean up", "2023-06-01", sentence))
    assert _found(team) == expected
