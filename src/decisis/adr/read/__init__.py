"""Reading: ADR files and folders of any team into ``AdrRecord`` values, with no store and no
graph. ``read_folder(path)`` gives a ``ReadResult`` of records and the files it skipped;
``read_record(path, folder_key)`` reads one file. Formats (Nygard/adr-tools, MADR,
log4brains, Docusaurus, and a team's own through ``decisis.adr.read.formats.register``) live
in ``formats``; keys in ``keys``; references between records in ``references``.

Its names are imported when first used: answering a question imports ``chronology`` from
here but reads no file, and the reader with its formats costs a seventh of a second."""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decisis.adr.read.reader import NotARecord, read_folder, read_record
    from decisis.adr.read.records import (
        MAX_RECORD_BYTES,
        AdrRecord,
        AdrStatus,
        Link,
        ReadProblem,
        ReadResult,
    )

__all__ = [
    "MAX_RECORD_BYTES",
    "AdrRecord",
    "AdrStatus",
    "Link",
    "NotARecord",
    "ReadProblem",
    "ReadResult",
    "read_folder",
    "read_record",
]

_WHERE = {
    "NotARecord": "decisis.adr.read.reader",
    "read_folder": "decisis.adr.read.reader",
    "read_record": "decisis.adr.read.reader",
    "MAX_RECORD_BYTES": "decisis.adr.read.records",
    "AdrRecord": "decisis.adr.read.records",
    "AdrStatus": "decisis.adr.read.records",
    "Link": "decisis.adr.read.records",
    "ReadProblem": "decisis.adr.read.records",
    "ReadResult": "decisis.adr.read.records",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'decisis.adr.read' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
