"""Writing records, as adr-tools does: ``new_record`` (the next numbered record of a team's
folder, in Nygard's or MADR's template, superseding one if asked), ``link_records`` (status
lines between two records) and ``list_records``. It reads with ``decisis.adr.read``, so a
record written here reads back as written; nothing in the four reading stages imports it.
Ingesting what was written is the caller's step (``decisis.adr.ingest``)."""

from decisis.adr.write.author import Written, link_records, new_record
from decisis.adr.write.folder import find_folder, folder_to_read
from decisis.adr.write.listing import Listed, list_records
from decisis.adr.write.templates import FORMATS

__all__ = [
    "FORMATS",
    "Listed",
    "Written",
    "find_folder",
    "folder_to_read",
    "link_records",
    "list_records",
    "new_record",
]
