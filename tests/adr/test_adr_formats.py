"""Each ADR format teams use, written here from scratch, and the format registry."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from decisis.adr import AdrStatus, read_folder, read_record
from decisis.adr.read.formats import AdrFormat, Fields, formats, register, unregister
from decisis.adr.read.markdown import MarkdownDoc
from decisis.errors import InvalidInput

WriteFn = Callable[[str, str | bytes], Path]

NYGARD = """\
# 7. Use PostgreSQL for the order service

Date: 2019-06-01

## Status

Accepted

Supersedes [3. Use MySQL](0003-use-mysql.md)

## Context

The order service needs transactions across several tables.

## Decision

We will use **PostgreSQL** (see [the docs](https://postgresql.org/)) for the `orders` schema.

## Consequences

Everyone learns `psql`.
"""

MADR = """\
---
status: "superseded by [ADR-0005](0005-use-postgres.md)"
date: 2023-01-15
deciders: [alice, bob]
consulted:
  - carol
---
# Use MySQL for orders

## Context and Problem Statement

Which database should the order service use?

## Decision Drivers

* Familiarity

## Considered Options

* MySQL
* PostgreSQL

## Decision Outcome

Chosen option: "MySQL", because the team knows it best.

### Consequences

* Good, because nothing new to learn.
* Bad, because we may outgrow it.
"""

LOG4BRAINS = """\
# Use Markdown Architectural Decision Records

- Status: accepted
- Deciders: Alice, Bob
- Date: 2020-09-26
- Tags: doc

Technical Story: how we record decisions.

## Context and Problem Statement

We want to record architectural decisions made in this project.

## Decision Outcome

Chosen option: "MADR 2.1.2", because it is lean and fits our habits.
"""


def test_nygard_adr_tools(write: WriteFn) -> None:
    record = read_record(write("0007-use-postgresql.md", NYGARD))
    assert record.format == "nygard"
    assert (record.key, record.number) == ("team:0007", 7)
    assert record.title == "Use PostgreSQL for the order service"
    assert (record.status, record.status_text) == (
        AdrStatus.ACCEPTED,
        "Accepted\nSupersedes [3. Use MySQL](0003-use-mysql.md)",
    )
    assert record.date == date(2019, 6, 1)
    assert record.context == "The order service needs transactions across several tables."
    assert record.decision.startswith("We will use **PostgreSQL**")
    assert "Consequences" not in record.decision and "psql" not in record.decision
    assert record.summary == "We will use PostgreSQL (see the docs) for the orders schema."
    (link,) = record.links
    assert (link.target, link.target_key, link.kind, link.role) == (
        "0003-use-mysql.md",
        None,  # no 0003 file in the folder: the reference is kept, unresolved
        "status",
        "predecessor",
    )
    assert link.target_number == 3 and link.verbs == ("supersede",)


def test_madr_front_matter(write: WriteFn) -> None:
    write("0005-use-postgres.md", NYGARD)
    record = read_record(write("0004-use-mysql.md", MADR))
    assert record.format == "madr"
    assert record.title == "Use MySQL for orders"
    assert record.status is AdrStatus.SUPERSEDED
    assert record.status_text == "superseded by [ADR-0005](0005-use-postgres.md)"
    assert record.date == date(2023, 1, 15)
    assert record.context == "Which database should the order service use?"
    assert record.summary == 'Chosen option: "MySQL", because the team knows it best.'
    assert "outgrow" not in record.decision  # MADR's Consequences subsection is not the decision
    (link,) = record.links
    assert (link.target_key, link.kind, link.section, link.role) == (
        "team:0005",
        "status",
        "Status",
        "successor",
    )


DOCUSAURUS = """---
slug: 23
title: |
  23. Local chain state in chain layer
authors: [ana, ben]
tags: [Accepted]
---

## Status
Accepted

## Context

We kept one state for everything.

# Decision

Each layer keeps its own state.
"""


def test_docusaurus_block_scalar_title_and_a_level_one_section(write: WriteFn) -> None:
    record = read_record(write("2023-04-26_023-local-chain-state.md", DOCUSAURUS))
    assert (record.key, record.number, record.date) == ("team:023", 23, date(2023, 4, 26))
    assert record.title == "Local chain state in chain layer"
    assert record.status is AdrStatus.ACCEPTED
    assert record.decision == "Each layer keeps its own state."


def test_front_matter_yaml_refuses_is_read_line_by_line(write: WriteFn) -> None:
    text = "---\ntitle: Use: colons: everywhere\nstatus: accepted\n---\n\n## Decision\n\nX.\n"
    record = read_record(write("0003-x.md", text))
    assert record.title == "Use: colons: everywhere"
    assert record.status is AdrStatus.ACCEPTED


def test_log4brains_bullets_and_date_named_file(write: WriteFn) -> None:
    record = read_record(write("20200926-use-markdown-adrs.md", LOG4BRAINS))
    assert record.format == "log4brains"
    assert (record.key, record.number) == ("team:20200926-use-markdown-adrs", None)
    assert record.status is AdrStatus.ACCEPTED and record.status_text == "accepted"
    assert record.date == date(2020, 9, 26)
    assert record.summary == 'Chosen option: "MADR 2.1.2", because it is lean and fits our habits.'


def test_log4brains_date_from_file_name_when_no_date_field(write: WriteFn) -> None:
    text = LOG4BRAINS.replace("- Date: 2020-09-26\n", "")
    record = read_record(write("20210317-use-log4brains.md", text))
    assert record.date == date(2021, 3, 17)


def test_madr2_star_bullets_with_bold_labels(write: WriteFn) -> None:
    text = (
        "# Use Kafka\n\n* **Status:** proposed\n* **Date:** 1st June 2019\n\n"
        "## Decision Outcome\n\nChosen option: Kafka.\n"
    )
    record = read_record(write("0002-use-kafka.md", text))
    assert (record.status, record.date) == (AdrStatus.PROPOSED, date(2019, 6, 1))


@pytest.mark.parametrize(
    ("status_line", "status"),
    [
        ("\u2705 Accepted", AdrStatus.ACCEPTED),
        ("\u274c Rejected", AdrStatus.REJECTED),
        ("\u231b\ufe0f Superseded by [ADR-021](021-foo.md)", AdrStatus.SUPERSEDED),
        ("\U0001f914 Proposed", AdrStatus.PROPOSED),
        ("\u26a0\ufe0f Deprecated", AdrStatus.DEPRECATED),
        ("\u2705", AdrStatus.ACCEPTED),
        ("\U0001f914", AdrStatus.PROPOSED),
        ("**Accepted** on 3rd March 2021", AdrStatus.ACCEPTED),
        ("Approved", AdrStatus.ACCEPTED),
        ("Pending", AdrStatus.PROPOSED),
        ("Partly superseded", AdrStatus.AMENDED),
        ("Accepted\n\nAmended by [ADR 9](009-bar.md)", AdrStatus.AMENDED),
        ("Accepted\n\nAmends [ADR 9](009-bar.md)", AdrStatus.ACCEPTED),
        ("Something nobody uses", AdrStatus.UNKNOWN),
    ],
)
def test_status_lines(write: WriteFn, status_line: str, status: AdrStatus) -> None:
    text = (
        f"# 30. New thing\n\nDate: 2021-01-01\n\n## Status\n\n{status_line}\n\n"
        "## Decision\n\nWe do it.\n"
    )
    record = read_record(write("030-new-thing.md", text))
    assert record.status is status
    assert record.status_text == status_line.replace("\n\n", "\n")


def test_status_heading_with_value_and_date_in_status_line(write: WriteFn) -> None:
    text = (
        "# Use Redis\n\n## Status: Superseded on 1st June 2020 by ADR 12\n\n## Decision\n\nRedis.\n"
    )
    write("012-use-valkey.md", "# Use Valkey\n")
    record = read_record(write("004-use-redis.md", text))
    assert record.status is AdrStatus.SUPERSEDED
    assert record.date == record.status_date == date(2020, 6, 1)
    assert [(link.target_key, link.kind, link.role) for link in record.links] == [
        ("team:012", "status", "successor")
    ]


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("# 7. Use PostgreSQL", "Use PostgreSQL"),
        ("# ADR-007: Use PostgreSQL", "Use PostgreSQL"),
        ("# 7 Use PostgreSQL", "Use PostgreSQL"),  # the file's own number
        ("# 2020 Roadmap", "2020 Roadmap"),  # a year, not the number
        ("# 12 factor apps", "12 factor apps"),
        ("Use PostgreSQL\n==============", "Use PostgreSQL"),
        ("---\ntitle: Use PostgreSQL\nstatus: accepted\n---", "Use PostgreSQL"),
    ],
)
def test_titles(write: WriteFn, heading: str, title: str) -> None:
    record = read_record(write("007-x.md", f"{heading}\n\n## Decision\n\nWe do it.\n"))
    assert record.title == title


def test_numbered_record_without_title_takes_it_from_the_file_name(write: WriteFn) -> None:
    record = read_record(write("0009-use-feature-flags.md", "## Status\n\nAccepted\n"))
    assert record.title == "Use feature flags"


def test_crlf_and_bom_read_like_plain_text(write: WriteFn) -> None:
    plain = read_record(write("0007-a.md", NYGARD))
    windows = read_record(
        write("0008-b.md", b"\xef\xbb\xbf" + NYGARD.replace("\n", "\r\n").encode())
    )
    assert (windows.title, windows.status, windows.date, windows.summary) == (
        plain.title,
        plain.status,
        plain.date,
        plain.summary,
    )
    assert windows.content_hash != plain.content_hash


@pytest.mark.parametrize(
    ("decision", "summary"),
    [
        (
            "We will:\n\n* adopt trunk-based development\n* drop release branches\n",
            "We will: adopt trunk-based development",
        ),
        ("| a | b |\n|---|---|\n| 1 | 2 |\n\nWe keep the table. And more.\n", "We keep the table."),
        (
            "```\ncode first\n```\n\nThen, e.g. this sentence wins. Not this.\n",
            "Then, e.g. this sentence wins.",
        ),
        (
            "We use **bold**, _italics_, `code` and ![img](x.png) [links][ref].\n\n[ref]: https://x.org\n",
            "We use bold, italics, code and img links.",
        ),
        (
            "Link to it: https://docs.example.org/decision\n\nThe real decision.\n",
            "The real decision.",
        ),
    ],
)
def test_summary_is_one_plain_sentence(write: WriteFn, decision: str, summary: str) -> None:
    record = read_record(write("003-x.md", f"# 3. X\n\n## Decision\n\n{decision}"))
    assert record.summary == summary


def test_decision_falls_back_to_best_available(write: WriteFn) -> None:
    inline = (
        "# 5. Domains\n\n## Status\n\nAccepted\n\n## Apps\n\n**Decision:** use apps.example.org\n"
    )
    assert read_record(write("005-domains.md", inline)).decision == "use apps.example.org"
    other = (
        "# 6. Logs\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n"
        "## Design discussion\n\nWe evaluate Loki first.\n"
    )
    assert read_record(write("006-logs.md", other)).summary == "We evaluate Loki first."
    bare = (
        "# 8. Secrets\n\nDate: 2021-11-05\n\n"
        "**Link: https://docs.example.org/x**\n\nKept private for now.\n"
    )
    record = read_record(write("008-secrets.md", bare))
    assert record.status is AdrStatus.UNKNOWN and record.summary == "Kept private for now."


# --- the registry ------------------------------------------------------------------------------


@pytest.fixture
def custom_format() -> Iterator[AdrFormat]:
    """A team format: ``Title:``/``State:``/``Decided:`` fields instead of headings."""

    def detect(doc: MarkdownDoc) -> bool:
        return doc.text.startswith("Title:")

    def parse(doc: MarkdownDoc) -> Fields:
        values = dict(
            line.split(":", 1)
            for line in doc.text.splitlines()
            if ":" in line and line[0].isupper()
        )
        return Fields(
            title=values["Title"].strip(),
            status_text=values.get("State", "").strip(),
            decision=values.get("Decided", "").strip(),
        )

    fmt = register(AdrFormat("team-fields", detect, parse))
    yield fmt
    unregister("team-fields")


def test_builtins_are_registered_like_any_format() -> None:
    assert [f.name for f in formats()] == ["log4brains", "madr", "nygard", "generic"]


def test_a_registered_format_is_tried_first(write: WriteFn, custom_format: AdrFormat) -> None:
    assert formats()[0] is custom_format
    text = "Title: Use tabs\nState: rejected\nDecided: We keep spaces.\n"
    record = read_record(write("011-use-tabs.md", text))
    assert (record.format, record.title, record.status, record.summary) == (
        "team-fields",
        "Use tabs",
        AdrStatus.REJECTED,
        "We keep spaces.",
    )
    assert read_record(write("012-nygard.md", NYGARD)).format == "nygard"


def test_registering_a_name_twice_needs_replace(custom_format: AdrFormat) -> None:
    with pytest.raises(InvalidInput, match="already registered"):
        register(AdrFormat("team-fields", custom_format.detect, custom_format.parse))
    again = register(
        AdrFormat("team-fields", custom_format.detect, custom_format.parse), replace=True
    )
    assert [f.name for f in formats()].count("team-fields") == 1 and formats()[0] is again


def test_a_failing_format_is_a_problem_not_a_crash(write: WriteFn, team: Path) -> None:
    def boom(doc: MarkdownDoc) -> Fields:
        raise RuntimeError("parser bug")

    register(AdrFormat("broken", lambda doc: "BOOM" in doc.text, boom))
    try:
        write("001-ok.md", NYGARD)
        write("002-bad.md", "# 2. BOOM\n")
        result = read_folder(team)
    finally:
        unregister("broken")
    assert [r.key for r in result.records] == ["team:001"]
    (problem,) = result.problems
    assert problem.path.name == "002-bad.md" and "RuntimeError: parser bug" in problem.reason
