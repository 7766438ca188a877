"""Records written for the link-rule tests, and what one rule proposes from a folder of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from decisis.adr import read_folder
from decisis.adr.link.rules import propose_links

WriteFn = Callable[[str, str | bytes], Path]


def record(number: int, title: str, date: str, decision: str, context: str = "") -> str:
    """An accepted Nygard record: its decision, and its context when one is given."""
    about = f"## Context\n\n{context}\n\n" if context else ""
    return (
        f"# {number}. {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n{about}"
        f"## Decision\n\n{decision}\n"
    )


def filler(write: WriteFn) -> None:
    """Six unrelated records, so that the words of a test's own records are rare in the folder."""
    for n, topic in enumerate(("Queues", "Logging", "Backups", "Secrets", "Alerts", "DNS"), 1):
        write(f"1{n:02}-{topic.lower()}.md", record(10 + n, topic, "2019-01-01", f"Pick {topic}."))


def proposed(team: Path, rule: str) -> list[tuple[str, str, bool]]:
    """The links ``rule`` proposes from the records of ``team``: (old, new, partial), sorted."""
    records = read_folder(team).records
    return sorted((p.old, p.new, p.partial) for p in propose_links(records) if p.rule == rule)
