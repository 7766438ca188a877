"""What every JSON form shares: fields it does not name are refused, and one way out.

A form is built from a decisis value (``NodeOut.of(node)``) by validating the plain data
the value gives: a form that gains a field without its model, or loses one, fails there,
in every front door alike, instead of the field silently missing from a document.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Form", "Metadata", "Time", "dump_all"]

Time = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Metadata = Annotated[dict[str, Any], Field(description="JSON the writer chose; kept as data.")]


class Form(BaseModel):
    """A JSON form: closed (``extra="forbid"``), dumped as JSON data by its aliases."""

    model_config = ConfigDict(extra="forbid")

    def dump(self) -> dict[str, Any]:
        """The form as JSON data, with the optional fields the value had and no others
        (what the CLI prints; the API sends the model's defaults as well)."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


def dump_all(forms: Iterable[Form]) -> list[dict[str, Any]]:
    return [form.dump() for form in forms]
