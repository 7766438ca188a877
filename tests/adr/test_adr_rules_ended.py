"""``ended-by-cited``: "we no longer store form data as a blob (see [ADR 2])" ends what an
earlier record decided (``decisis.adr.link.rules.ended``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adr.rule_records import WriteFn, filler, proposed, record


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
    filler(write)
    if decided:
        first = record(1, "Move to Postgres", "2021-01-01", "Postgres; we keep form data as blobs.")
    else:
        first = record(
            1,
            "Move to Postgres",
            "2021-01-01",
            "Postgres it is.",
            "Dynamo keeps form data as blobs.",
        )
    write("001-postgres.md", first)
    write("002-tables.md", record(2, "Separate tables", "2023-05-01", "Contracts and rates."))
    write("003-cleanup.md", record(3, "Clean up", "2023-06-01", sentence))
    assert proposed(team, "ended-by-cited") == expected
