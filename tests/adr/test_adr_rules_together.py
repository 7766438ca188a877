"""``replaced-together``: two records that went together, each replaced by one of two that
go together (``decisis.adr.link.rules.together``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from decisis.adr import read_folder
from decisis.adr.link.rules import propose_links

WriteFn = Callable[[str, str | bytes], Path]


def _record(number: int, title: str, date: str, text: str) -> str:
    return (
        f"# {number}. {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n## Decision\n\n{text}\n"
    )


def _found(team: Path) -> list[tuple[str, str, bool]]:
    records = read_folder(team).records
    return sorted(
        (p.old, p.new, p.partial) for p in propose_links(records) if p.rule == "replaced-together"
    )


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
    write("001-form-data.md", _record(1, "Serialize form data", "2021-01-01", "One blob a form."))
    basis = "The background is in [ADR 1](001-form-data.md). " if builds_on else ""
    write("002-protobufs.md", _record(2, "Use protobufs", "2021-02-01", f"{basis}Use protobufs."))
    write(
        "003-tables.md",
        _record(
            3, "Separate tables", "2023-05-01", "This ADR supersedes [ADR 1](001-form-data.md)."
        ),
    )
    see = " We keep the tables of [ADR 3](003-tables.md)." if new_cites else ""
    write(
        "004-no-protobufs.md",
        _record(
            4,
            "Remove protobufs",
            "2023-05-02",
            f"This ADR supersedes [ADR 2](002-protobufs.md).{see}",
        ),
    )
    assert _found(team) == expected
