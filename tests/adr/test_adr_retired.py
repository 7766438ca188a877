"""The ``retired`` check: a walk that ends at a record marked superseded or deprecated, with
no record replacing it, answers nothing (``decisis.adr.answer.checks``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import decisis
from decisis.adr import DEFAULT_SETTINGS, ingest
from decisis.adr.answer import Answer, ask
from tests.adr.conftest import WriteFn

PROTOBUFS = (
    "# 5. Keep old submissions readable with protobuf schemas\n\nDate: 2021-05-01\n\n"
    "## Status\n\nDeprecated: we removed protocol buffers, and no record replaces this one.\n\n"
    "## Decision\n\nOld form submissions stay readable because each is stored with the "
    "protobuf schema version it was submitted with.\n"
)
LOGS = (
    "# 6. Central logging\n\nDate: 2021-06-01\n\n## Status\n\nAccepted\n\n## Decision\n\n"
    "Ship all application logs to OpenSearch.\n"
)
QUESTION = "How do old form submissions stay readable when the protobuf schema changes?"


def _ask(team: Path, tmp_path: Path, question: str, **changes: object) -> Answer:
    settings = replace(DEFAULT_SETTINGS, **changes)  # type: ignore[arg-type]
    with decisis.open(f"sqlite:///{tmp_path / 'retired.db'}") as graph:
        ingest(graph, team)
        return ask(graph, question, settings)


def test_a_deprecated_record_with_no_successor_answers_nothing(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    write("005-protobufs.md", PROTOBUFS)
    write("006-logging.md", LOGS)
    answer = _ask(team, tmp_path, QUESTION)
    assert answer.answer is None
    assert "team:005" in answer.text and "deprecated" in answer.text
    assert answer.evidence["start"] == "team:005"


def test_without_the_check_the_deprecated_record_is_the_answer(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    write("005-protobufs.md", PROTOBUFS)
    write("006-logging.md", LOGS)
    checks = tuple(c for c in DEFAULT_SETTINGS.checks if c != "retired")
    answer = _ask(team, tmp_path, QUESTION, checks=checks)
    assert answer.answer == "team:005"
    assert "marked deprecated" in answer.text


def test_a_question_naming_the_retired_record_is_answered_with_it(
    write: WriteFn, team: Path, tmp_path: Path
) -> None:
    write("005-protobufs.md", PROTOBUFS)
    write("006-logging.md", LOGS)
    assert _ask(team, tmp_path, "Is ADR 5 still in force?").answer == "team:005"
