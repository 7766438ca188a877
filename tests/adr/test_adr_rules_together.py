"""``replaced-together``: two records that went together, each replaced by one of two that
go together (``decisis.adr.link.rules.together``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adr.rule_records import WriteFn, proposed, record


@pytest.mark.parametrize(
    ("builds_on", "new_cites", "expected"),
    [
        (True, True, [("team:001", "team:004", True), ("team:002", "team:003", True)]),
        (True, False, []),  # the newer two do not go together: each replaced its own
        (False, True, []),  # the older two did not go together
    ],
    ids=["pairs", "newer-apart", "older-apart"],
)
def test_a_pair_replaced_by_a_pair_takes_over_part_of_the_other(
    write: WriteFn, team: Path, builds_on: bool, new_cites: bool, expected: list[object]
) -> None:
    write("001-form-data.md", record(1, "Serialize form data", "2021-01-01", "One blob a form."))
    basis = "The background is in [ADR 1](001-form-data.md). " if builds_on else ""
    write("002-protobufs.md", record(2, "Use protobufs", "2021-02-01", f"{basis}Use protobufs."))
    write(
        "003-tables.md",
        record(
            3, "Separate tables", "2023-05-01", "This ADR supersedes [ADR 1](001-form-data.md)."
        ),
    )
    see = " We keep the tables of [ADR 3](003-tables.md)." if new_cites else ""
    write(
        "004-no-protobufs.md",
        record(
            4,
            "Remove protobufs",
            "2023-05-02",
            f"This ADR supersedes [ADR 2](002-protobufs.md).{see}",
        ),
    )
    assert proposed(team, "replaced-together") == expected
