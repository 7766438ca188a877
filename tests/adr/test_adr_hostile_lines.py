"""Records at the size limit whose lines make a backtracking reader stall (issue #31, part 4).

Each record below is about 1 MiB of one adversarial line. The reader before took time
quadratic in such a line: 78 s for a heading of 48,000 ``#``, hours for one of a million. These
tests carry no timing; on a quadratic reader they fail by not finishing. Each checks what was
read, so a reader that finishes by reading less fails too. ``bench/reader_linear.py`` measures
how the time grows.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from decisis.adr import MAX_RECORD_BYTES, AdrRecord, AdrStatus, read_folder

N = MAX_RECORD_BYTES - 1024  # the adversarial line; the rest of the record fits beside it

Check = Callable[[AdrRecord], bool]
CASES: dict[str, tuple[str, Check]] = {
    # ATX headings: the lazy title before [ \t#]*$ tried each end of the line
    "a heading of a million #": (
        "# " + "#" * N + "x\n\n## Status\n\nAccepted\n",
        lambda r: r.title == "#" * N + "x" and r.status is AdrStatus.ACCEPTED,
    ),
    "a heading of spaced #": (
        "# " + " #" * (N // 2) + "x\n\n## Status\n\nAccepted\n",
        lambda r: r.title == "# " * (N // 2 - 2) + "#x",
    ),
    "a heading of tabbed #": (
        "# T\n\nStatus: accepted\n\n## a" + "\t#" * (N // 2) + "x\n\nWe use x.\n",
        lambda r: r.status is AdrStatus.ACCEPTED and r.decision == "We use x.",
    ),
    "a heading with spaces before its end": (
        "# Hostile" + " " * N + "x\n\nStatus: accepted\n",
        lambda r: r.title == "Hostile x",
    ),
    # setext titles: the leading spaces were given back one at a time
    "spaces before a line that is no title": (
        " " * N + "x\n\nStatus: accepted\n",
        lambda r: r.title == "Hostile" and r.status is AdrStatus.ACCEPTED,
    ),
    # Key: value fields: the lazy value before [ \t]*$
    "a status line with spaces inside": (
        "# T\n\nStatus: accepted" + " " * N + "x\n",
        lambda r: r.status is AdrStatus.ACCEPTED and r.status_text.endswith("x"),
    ),
    "a date line with spaces inside": (
        "# T\n\nDate: 2020-01-02" + " " * N + "x\n\nStatus: accepted\n",
        lambda r: r.date == date(2020, 1, 2),
    ),
    "a date field without a colon": (
        "# T\n\nDate 1" + " " * N + "x\n\nStatus: accepted\n",
        lambda r: r.status is AdrStatus.ACCEPTED,
    ),
    "front matter YAML refuses, with spaces inside a value": (
        "---\nk: a" + " " * N + "b\nx: [\n---\n# T\n\nStatus: accepted\n",
        lambda r: r.title == "T" and r.status is AdrStatus.ACCEPTED,
    ),
    # spans opened again and again and never closed
    "autolinks never closed": (
        "# T\n\nStatus: accepted\n\n## Decision\n\nWe use " + "<http://" * (N // 8) + "\n",
        lambda r: r.decision.startswith("We use <http://<http://") and r.summary == "We use",
    ),
    "tags never closed": (
        "# T\n\nStatus: accepted\n\n## Decision\n\nWe use " + "<a" * (N // 2) + "\n",
        lambda r: r.decision.startswith("We use <a<a") and r.summary == "We use\u2026",
    ),
    "a link target of spaces": (
        "# T\n\nStatus: accepted\n\n## Decision\n\nSee [a](" + " " * N + "x\n",
        lambda r: r.decision.startswith("See [a]("),
    ),
    "struck-through tags never closed": (
        "# T\n\n## Status\n\nAccepted " + "<s>" * (N // 3) + "\n",
        lambda r: r.status is AdrStatus.ACCEPTED,
    ),
    "struck-through tags never ending": (
        "# T\n\n## Status\n\nAccepted " + "<s " * (N // 3) + "\n",
        lambda r: r.status is AdrStatus.ACCEPTED,
    ),
    "a title of braces": (
        "# " + "{" * N + "\n\nStatus: accepted\n",
        lambda r: r.title == "{" * N,
    ),
    # a paragraph of Decision: lines was taken once for each line
    "inline decisions in one paragraph": (
        "# T\n\nStatus: accepted\n\n" + "Decision: x\n" * (N // 12),
        lambda r: r.decision.startswith("x\nDecision: x") and len(r.decision) < N,
    ),
    # two references of one list, far apart: the punctuation between was backtracked over
    "references with a long run of punctuation between": (
        "# T\n\nStatus: accepted\n\n## Decision\n\n"
        + ("- " * 400 + "superseded by ADR-2 ")
        + ("- " * (N // 2 - 1000) + "y ADR-3 ")
        + ("- " * 400 + "\n"),
        lambda r: [link.target for link in r.links] == ["ADR-2", "ADR-3"],
    ),
    # many status lines: every block was held against each
    "a status section of many lines": (
        "# T\n\n## Status\n\n" + "accepted\n\n" * (N // 10 - 100) + "## Context\n\nSee ADR-2.\n",
        lambda r: r.status is AdrStatus.ACCEPTED and r.links[0].section == "Context",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_record_of_one_hostile_line_is_read(tmp_path: Path, case: str) -> None:
    text, check = CASES[case]
    path = tmp_path / "0001-hostile.md"
    path.write_text(text, encoding="utf-8")
    assert path.stat().st_size <= MAX_RECORD_BYTES
    result = read_folder(tmp_path)
    assert not result.problems, result.problems
    [record] = result.records
    assert check(record), (record.title[:80], record.status, record.decision[:80])
