"""Reading: ADR files and folders of any team into ``AdrRecord`` values, with no store and no
graph. ``read_folder(path)`` gives a ``ReadResult`` of records and the files it skipped;
``read_record(path, folder_key)`` reads one file. Formats (Nygard/adr-tools, MADR,
log4brains, Docusaurus, and a team's own through ``decisis.adr.read.formats.register``) live
in ``formats``; keys in ``keys``; references between records in ``references``."""

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
