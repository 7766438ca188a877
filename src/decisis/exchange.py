"""Export and import: a graph's ledger as JSON (re-importable), a picture as DOT / Mermaid,
or its provenance as W3C PROV-O (Turtle or JSON-LD: ``decisis.provo``, the ``prov`` extra).

A JSON export carries every event with its checksums; import checks that chain
before it appends anything, then replays the events into the target graph in
one transaction, so a malformed or tampered file changes nothing. A file nested
deeper than Python's JSON reader goes, or an event payload nested deeper than
records can be (``MAX_PAYLOAD_DEPTH``), is refused as malformed before anything
else reads it, so no check deeper in runs out of stack.

The import is one append whatever its size: ``MAX_BATCH_CHANGES`` bounds the
batches the ``Graph`` verbs make, not an import, which lands a whole graph (``decisis
copy``) or nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from decisis.errors import IntegrityError, InvalidInput, MalformedImport
from decisis.ledger import check_chain
from decisis.model import Event, EventDraft, EventKind, format_time, parse_time, utc_now
from decisis.model.validation import MAX_METADATA_DEPTH, check_enum, check_storable, loads_json

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = ["EXPORT_FORMAT", "FORMATS", "MAX_PAYLOAD_DEPTH", "export_graph", "import_graph"]

EXPORT_FORMAT = "decisis-export"
EXPORT_VERSION = 1
FORMATS = ("json", "dot", "mermaid", "prov-turtle", "prov-jsonld")
# Levels of objects and arrays in one event's payload: metadata (at most
# ``MAX_METADATA_DEPTH``) sits two levels in (``{"node": {"metadata": …}}``,
# ``{"changes": {"metadata": …}}``); two more to spare.
MAX_PAYLOAD_DEPTH = MAX_METADATA_DEPTH + 4
_EVENT_FIELDS = {
    "seq": int,
    "kind": str,
    "entity": str,
    "payload": dict,
    "at": str,
    "prev_checksum": str,
    "checksum": str,
}


def export_graph(graph: Graph, format: str = "json") -> str:
    if format == "json":
        return _export_json(graph)
    if format == "dot":
        return _export_dot(graph)
    if format == "mermaid":
        return _export_mermaid(graph)
    if format in ("prov-turtle", "prov-jsonld"):
        from decisis.provo import export_prov

        return export_prov(graph, format)
    raise InvalidInput("format", f"unknown export format {format!r}", FORMATS)


def _export_json(graph: Graph) -> str:
    events = [
        {
            "seq": e.seq,
            "kind": e.kind.value,
            "entity": e.entity,
            "payload": e.payload,
            "at": format_time(e.at),
            "prev_checksum": e.prev_checksum,
            "checksum": e.checksum,
        }
        for e in graph.events()
    ]
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "graph": graph.name,
        "exported_at": format_time(utc_now()),
        "events": events,
    }
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _node_caption(type_: str, label: str, status: str) -> str:
    text = label if len(label) <= 60 else label[:57] + "..."
    return f"{type_}: {text} ({status})"


def _export_dot(graph: Graph) -> str:
    def quote(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    lines = ["digraph decisis {", "  rankdir=LR;", "  node [shape=box, style=rounded];"]
    for node in graph.nodes():
        caption = _node_caption(node.type.value, node.label, node.status.value)
        lines.append(f"  {quote(node.id)} [label={quote(caption)}];")
    for edge in graph.edges():
        lines.append(f"  {quote(edge.source)} -> {quote(edge.target)} [label={quote(edge.type)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _export_mermaid(graph: Graph) -> str:
    def quote(text: str) -> str:
        escaped = text.replace("&", "#amp;").replace('"', "#quot;")
        escaped = escaped.replace("<", "#lt;").replace(">", "#gt;").replace("\n", " ")
        return f'"{escaped}"'

    lines = ["flowchart LR"]
    for node in graph.nodes():
        caption = _node_caption(node.type.value, node.label, node.status.value)
        lines.append(f"  n{node.id}[{quote(caption)}]")
    for edge in graph.edges():
        lines.append(f"  n{edge.source} -->|{edge.type.value}| n{edge.target}")
    return "\n".join(lines) + "\n"


def _no_constant(name: str) -> Any:
    """Python's JSON reader takes NaN and Infinity, which JSON (and a ledger event) has not."""
    raise MalformedImport("file", f"holds {name}", "finite numbers (JSON has no NaN or Infinity)")


def _parse_document(text: str) -> dict[str, Any]:
    allowed = f"a {EXPORT_FORMAT} JSON file from 'decisis export'"
    try:
        document = loads_json(
            text, "file", allowed, error=MalformedImport, parse_constant=_no_constant
        )
    except (json.JSONDecodeError, TypeError) as exc:
        raise MalformedImport("file", f"is not JSON ({exc})", allowed) from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise MalformedImport(
            "format",
            "the file is not a decisis export",
            f'an object with "format": "{EXPORT_FORMAT}"',
        )
    if document.get("version") != EXPORT_VERSION:
        raise MalformedImport(
            "version",
            f"unsupported export version {document.get('version')!r}",
            [str(EXPORT_VERSION)],
        )
    if not isinstance(document.get("graph"), str) or not isinstance(document.get("events"), list):
        raise MalformedImport(
            "events", "missing graph name or event list", "graph: text, events: list"
        )
    return document


def _parse_event(source_graph: str, index: int, raw: object) -> Event:
    where = f"events[{index}]"
    if not isinstance(raw, dict):
        raise MalformedImport(where, "is not an object", "an event object")
    for name, kind in _EVENT_FIELDS.items():
        value = raw.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise MalformedImport(
                f"{where}.{name}", f"missing or not {kind.__name__}", sorted(_EVENT_FIELDS)
            )
    if _deeper_than(raw["payload"], MAX_PAYLOAD_DEPTH):
        raise MalformedImport(
            f"{where}.payload",
            f"is nested more than {MAX_PAYLOAD_DEPTH} levels deep",
            f"at most {MAX_PAYLOAD_DEPTH} levels; metadata at most {MAX_METADATA_DEPTH}",
        )
    event_kind = check_enum(EventKind, raw["kind"], f"{where}.kind")
    reason = raw["payload"].get("reason")
    if event_kind is EventKind.TOMBSTONED and isinstance(reason, str):
        check_storable(reason, f"{where}.payload.reason")  # as Graph.tombstone refuses it
    return Event(
        graph=source_graph,
        seq=raw["seq"],
        kind=event_kind,
        entity=raw["entity"],
        payload=raw["payload"],
        at=parse_time(raw["at"], f"{where}.at"),
        prev_checksum=raw["prev_checksum"],
        checksum=raw["checksum"],
    )


def _deeper_than(value: object, limit: int) -> bool:
    """Whether ``value`` nests objects or arrays more than ``limit`` levels deep; walked
    with a list, not recursion, so any depth the reader took is measured."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level > limit:
            return True
        stack.extend((child, level + 1) for child in children)
    return False


def import_graph(graph: Graph, text: str) -> int:
    """Check the file's chain, then replay its events into ``graph``; all or nothing."""
    document = _parse_document(text)
    source_graph = document["graph"]
    events = [_parse_event(source_graph, i, raw) for i, raw in enumerate(document["events"])]
    _, problem = check_chain(events)
    if problem is not None:
        raise IntegrityError(
            f"the export's ledger is broken at seq {problem.seq}: {problem.reason}; "
            "nothing imported",
            problem.seq,
        )
    changes = [EventDraft(e.kind, e.entity, e.payload, e.at) for e in events]
    if changes:
        graph._append(*changes)
    return len(changes)
