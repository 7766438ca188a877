"""Architecture decision records: "what do we do about X today?".

Four stages, imports one way: ``read`` (files into records) -> ``link`` (which record replaced
which, into the graph) -> ``answer`` (the record that stands for a question) -> ``learn``
(corrections); beside them ``write`` (new records and status lines, as adr-tools writes them),
which reads with ``read`` and is imported by none of the four. This module is their face, and
all that the front doors, ``agent`` and ``evaluation`` import::

    from decisis.adr import ingest, ask, correct, undo, learned, prepare, AnswerSettings

Names are loaded on first use, so importing the face costs nothing until a stage is needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decisis.adr.answer import (
        DEFAULT_SETTINGS,
        MAX_QUESTION_CHARS,
        Answer,
        AnswerSettings,
        ask,
        check_question,
        prepare,
    )
    from decisis.adr.answer.believed import BelievedLink, believed_links
    from decisis.adr.answer.fit import FitCase, Labelled, fit_case, held_out_right, leave_one_out
    from decisis.adr.answer.fit import fit as fit_settings
    from decisis.adr.answer.rerank import forget_reranker, use_reranker
    from decisis.adr.answer.tokens import count_tokens
    from decisis.adr.answer.vectors import closest_records
    from decisis.adr.answer.why import why_lines
    from decisis.adr.learn.corrections import Correction, correct, undo
    from decisis.adr.learn.learned import learned
    from decisis.adr.link.ingest import IngestReport, ingest
    from decisis.adr.link.rules.model import forget_model, use_model
    from decisis.adr.link.view import AdrView, view_of
    from decisis.adr.read import (
        MAX_RECORD_BYTES,
        AdrRecord,
        AdrStatus,
        Link,
        NotARecord,
        ReadProblem,
        ReadResult,
        read_folder,
        read_record,
    )
    from decisis.adr.write import (
        Listed,
        Written,
        folder_to_read,
        link_records,
        list_records,
        new_record,
    )

_WHERE = {
    "Listed": "decisis.adr.write",
    "Written": "decisis.adr.write",
    "folder_to_read": "decisis.adr.write",
    "link_records": "decisis.adr.write",
    "list_records": "decisis.adr.write",
    "new_record": "decisis.adr.write",
    "DEFAULT_SETTINGS": "decisis.adr.answer",
    "MAX_QUESTION_CHARS": "decisis.adr.answer.limits",
    "Answer": "decisis.adr.answer",
    "AnswerSettings": "decisis.adr.answer",
    "ask": "decisis.adr.answer",
    "check_question": "decisis.adr.answer",
    "prepare": "decisis.adr.answer",
    "Correction": "decisis.adr.learn.corrections",
    "correct": "decisis.adr.learn.corrections",
    "undo": "decisis.adr.learn.corrections",
    "learned": "decisis.adr.learn.learned",
    "BelievedLink": "decisis.adr.answer.believed",
    "FitCase": "decisis.adr.answer.fit",
    "Labelled": "decisis.adr.answer.fit",
    "fit_case": "decisis.adr.answer.fit",
    "fit_settings": "decisis.adr.answer.fit:fit",
    "held_out_right": "decisis.adr.answer.fit",
    "leave_one_out": "decisis.adr.answer.fit",
    "count_tokens": "decisis.adr.answer.tokens",
    "use_reranker": "decisis.adr.answer.rerank",
    "forget_reranker": "decisis.adr.answer.rerank",
    "closest_records": "decisis.adr.answer.vectors",
    "why_lines": "decisis.adr.answer.why",
    "AdrView": "decisis.adr.link.view",
    "view_of": "decisis.adr.link.view",
    "believed_links": "decisis.adr.answer.believed",
    "IngestReport": "decisis.adr.link.ingest",
    "use_model": "decisis.adr.link.rules.model",
    "forget_model": "decisis.adr.link.rules.model",
    "ingest": "decisis.adr.link.ingest",
    "MAX_RECORD_BYTES": "decisis.adr.read",
    "AdrRecord": "decisis.adr.read",
    "AdrStatus": "decisis.adr.read",
    "Link": "decisis.adr.read",
    "NotARecord": "decisis.adr.read",
    "ReadProblem": "decisis.adr.read",
    "ReadResult": "decisis.adr.read",
    "read_folder": "decisis.adr.read",
    "read_record": "decisis.adr.read",
}

__all__ = [
    "DEFAULT_SETTINGS",
    "MAX_QUESTION_CHARS",
    "MAX_RECORD_BYTES",
    "AdrRecord",
    "AdrStatus",
    "AdrView",
    "Answer",
    "AnswerSettings",
    "BelievedLink",
    "Correction",
    "FitCase",
    "IngestReport",
    "Labelled",
    "Link",
    "Listed",
    "NotARecord",
    "ReadProblem",
    "ReadResult",
    "Written",
    "ask",
    "believed_links",
    "check_question",
    "closest_records",
    "correct",
    "count_tokens",
    "fit_case",
    "fit_settings",
    "folder_to_read",
    "forget_model",
    "forget_reranker",
    "held_out_right",
    "ingest",
    "learned",
    "leave_one_out",
    "link_records",
    "list_records",
    "new_record",
    "prepare",
    "read_folder",
    "read_record",
    "undo",
    "use_model",
    "use_reranker",
    "view_of",
    "why_lines",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'decisis.adr' has no attribute {name!r}")
    module, _, attribute = where.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value
