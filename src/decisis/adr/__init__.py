"""Architecture decision records: reading ADR folders (this part), and later the links between
records, answers that stand and learning from corrections.

The reading layer needs the standard library only and knows nothing of stores or the graph:
``read_folder(path)`` gives a :class:`ReadResult` of :class:`AdrRecord` values and the
:class:`ReadProblem` files it skipped; ``read_record(path, folder_key)`` reads one file.
Formats (Nygard/adr-tools, MADR, log4brains, and a team's own through
:func:`decisis.adr.formats.register`) live in :mod:`decisis.adr.formats`.
"""

from __future__ import annotations

from decisis.adr.reader import NotARecord, read_folder, read_record
from decisis.adr.records import (
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
