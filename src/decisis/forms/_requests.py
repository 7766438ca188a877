"""The JSON the API takes (a question to answer, a correction to make) and the one body
every refusal has (``decisis.errors.error_body``'s), as the OpenAPI document names them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from decisis.adr import MAX_QUESTION_CHARS

__all__ = ["TEXT_PATTERN", "AskBody", "CorrectionBody", "ErrorBody", "ErrorDetail"]

# What ``str.isspace`` calls white space, spelt out: regular expression dialects disagree
# on ``\s`` (Python's has U+001C-U+001F, ECMA's, which JSON Schema uses, lacks U+0085).
_ASCII_SPACE = r"\u0009-\u000d\u001c-\u0020"
_SPACE = _ASCII_SPACE + r"\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# Text without NUL that holds something besides white space (what ``str.strip`` leaves
# something of), as a pattern Python, pydantic (Rust) and JSON Schema read alike.
TEXT_PATTERN = rf"^[^\u0000]*[^\u0000{_SPACE}][^\u0000]*$"


class AskBody(BaseModel):
    model_config = ConfigDict(extra="forbid")  # "qestion" is a mistake to name, not to drop

    question: str = Field(
        description="The question, in words.", max_length=MAX_QUESTION_CHARS, pattern=TEXT_PATTERN
    )


class CorrectionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        description="The question as it was asked.",
        max_length=MAX_QUESTION_CHARS,
        pattern=TEXT_PATTERN,
    )
    key: str | None = Field(None, description="The record that answers it; null for none.")
    undo: bool = Field(False, description="Reverse the latest correction of the question.")


class ErrorDetail(BaseModel):
    type: str = Field(description="The kind of error: InvalidInput, NotFound, Conflict, …")
    message: str = Field(description="What was wrong, in a sentence.")
    field: str | None = Field(None, description="The field that was wrong, where one was.")
    allowed: str | None = Field(None, description="What that field allows.")


class ErrorBody(BaseModel):
    """Every refusal of the API, whatever refused it."""

    error: ErrorDetail
