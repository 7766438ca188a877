"""Records into the graph: one decision node per record, one supersedes edge per proposed link.

Idempotent: a record whose file did not change (same content hash) and reads the same
adds no event; a changed one, or one a newer decisis reads differently (a better
summary), is one ``node.updated``, so record nodes keep matching their files. Links are
keyed by (rule, old, new) and added once. A link a rule no longer proposes, and nobody
has judged, is tombstoned. Links go in as plain ``edge.added`` events, never through
``Graph.supersede``: a rule's guess must not retire a record, and two records mentioning
each other may propose links both ways (the walk in ``decisis.adr.answer.walk`` copes with
cycles).

Each record added or changed gets a provenance entry in the same append (activity
``adr.ingest``, agent ``decisis`` as a ``software_agent`` in the role ``reader``, outcome
``added`` or ``updated``, the file as ``source`` and, inside a git work tree, its blob and
commit: ``decisis.adr.link.sources``); an unchanged record gets none, so re-ingesting a
folder piles nothing up.

Everything one ingest changes lands in one ``append``: one transaction, all or none.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decisis.adr.link.rules import Proposal, propose_links, rules
from decisis.adr.link.trust import trust_from
from decisis.adr.read.records import AdrRecord, AdrStatus, ReadProblem
from decisis.errors import Conflict, InvalidInput
from decisis.files.affects import AFFECTS_KEY, DATE_SOURCE_KEY
from decisis.graph import Graph, written_once
from decisis.model import (
    Edge,
    EdgeType,
    EventDraft,
    LinkState,
    Node,
    NodeStatus,
    NodeType,
    new_id,
    utc_now,
)
from decisis.model import events as drafts
from decisis.model.enums import AgentType
from decisis.model.provenance import MAX_SOURCE_LENGTH, provenance_payload
from decisis.stores.retire import RETIRED_KEY

__all__ = [
    "ADR_KIND",
    "IngestReport",
    "adr_links",
    "ingest",
    "ingest_records",
    "is_record_node",
    "is_rule_link",
    "link_key",
    "record_metadata",
    "record_nodes",
]

ADR_KIND = "adr"  # metadata["kind"] of a record node; questions are "adr-question"
INGEST_ACTIVITY = "adr.ingest"  # the activity of an ingested record's provenance entry
INGEST_AGENT = "decisis"
MAX_DECISION_CHARS = 4000
MAX_TEXT_CHARS = 30000
_STATUS = {AdrStatus.SUPERSEDED: NodeStatus.SUPERSEDED, AdrStatus.REJECTED: NodeStatus.REJECTED}


@dataclass
class IngestReport:
    """What one ingest did; ``problems`` are files reported and skipped."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    links_added: int = 0
    links_removed: int = 0
    problems: list[ReadProblem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": len(self.unchanged),
            "links_added": self.links_added,
            "links_removed": self.links_removed,
            "problems": [{"path": str(p.path), "reason": p.reason} for p in self.problems],
        }


def record_metadata(record: AdrRecord) -> dict[str, Any]:
    """What a record node carries besides label and rationale (JSON data only)."""
    return {
        "kind": ADR_KIND,
        "key": record.key,
        "folder": record.folder,
        "number": record.number,
        "status": record.status.value,
        "status_text": record.status_text,
        "date": record.date.isoformat() if record.date else None,
        "path": str(record.path),
        "content_hash": record.content_hash,
        "format": record.format,
        "summary": record.summary,
        "text": record.body[:MAX_TEXT_CHARS],
        # only when there is one: a record without keeps the metadata it had (no re-write)
        **({AFFECTS_KEY: list(record.affects)} if record.affects else {}),
        **({DATE_SOURCE_KEY: record.date_source} if record.date_source else {}),
    }


def link_key(metadata: dict[str, Any]) -> tuple[str, str, str]:
    return (str(metadata.get("rule")), str(metadata.get("old")), str(metadata.get("new")))


def _valid_from(record: AdrRecord) -> dt.datetime | None:
    if record.date is None:
        return None
    return dt.datetime.combine(record.date, dt.time(), tzinfo=dt.UTC)


def _node_fields(record: AdrRecord) -> dict[str, Any]:
    return {
        "label": record.title,
        "status": _STATUS.get(record.status, NodeStatus.ACTIVE),
        "rationale": record.decision[:MAX_DECISION_CHARS] or record.summary,
        "metadata": record_metadata(record),
    }


def _record_drafts(
    records: Sequence[AdrRecord], known: dict[str, Node], at: dt.datetime, report: IngestReport
) -> tuple[list[EventDraft], dict[str, str]]:
    """Drafts adding new records and updating changed ones; and every key's node id."""
    out: list[EventDraft] = []
    ids = {key: node.id for key, node in known.items()}
    for record in records:
        fields = _node_fields(record)
        old = known.get(record.key)
        if old is not None and RETIRED_KEY in old.metadata:
            del fields["status"]  # a confirmed replacement retired it, not its file
        if old is None:
            valid_from = _valid_from(record) or at
            node = Node(
                id=new_id(),
                type=NodeType.DECISION,
                recorded_at=at,
                updated_at=at,
                valid_from=min(valid_from, at),
                **fields,
            )
            out.append(drafts.node_added(node, at))
            ids[record.key] = node.id
            report.added.append(record.key)
        elif old.metadata.get("content_hash") != record.content_hash or _read_anew(old, fields):
            changes = {k: v for k, v in fields.items() if getattr(old, k) != v}
            dated = _valid_from(record)
            if dated is not None and old.metadata.get("date") != fields["metadata"]["date"]:
                changes["valid_from"] = min(dated, at)  # a new date (git's, say) moves it too
            out.append(drafts.node_updated(old.id, changes, at))
            report.updated.append(record.key)
        else:
            report.unchanged.append(record.key)
    return out, ids


def _provenance_drafts(
    records: Sequence[AdrRecord], ids: dict[str, str], at: dt.datetime, report: IngestReport
) -> list[EventDraft]:
    """One provenance entry for each record this ingest adds or updates, naming its file
    (and git blob and commit); none for an unchanged one."""
    from decisis.adr.link.sources import record_sources  # git's, at ingest only

    outcomes = {key: "added" for key in report.added} | {key: "updated" for key in report.updated}
    written = [record for record in records if record.key in outcomes]
    sources = record_sources(written)
    out = []
    for record in written:
        source = sources[record.key]
        payload = provenance_payload(
            ids[record.key],
            INGEST_ACTIVITY,
            agent=INGEST_AGENT,
            agent_type=AgentType.SOFTWARE_AGENT,
            role="reader",
            source=source.path[:MAX_SOURCE_LENGTH],
            source_blob=source.blob,
            source_commit=source.commit,
            outcome=outcomes[record.key],
        )
        out.append(drafts.provenance_recorded(payload, at))
    return out


def _read_anew(old: Node, fields: dict[str, Any]) -> bool:
    """Whether an unchanged file now reads differently (a newer decisis summarises it
    better): its stored fields differ from the new reading in more than the path it was
    read from (the same folder ingested from elsewhere is the same records)."""
    metadata = {k: v for k, v in fields["metadata"].items() if k != "path"}
    stored = {k: old.metadata.get(k) for k in metadata}
    return stored != metadata or any(
        getattr(old, k) != v for k, v in fields.items() if k != "metadata"
    )


def _link_drafts(
    graph: Graph,
    proposals: Iterable[Proposal],
    ids: dict[str, str],
    scope: set[str],
    at: dt.datetime,
    report: IngestReport,
) -> list[EventDraft]:
    """Drafts adding new links and tombstoning unjudged ones no rule proposes any more."""
    links = adr_links(graph)  # read once: on a large store, each read is seconds
    existing = {link_key(e.metadata): e for e in links}
    trust = trust_from(links)  # rule_trust without reading the links again
    out: list[EventDraft] = []
    wanted = set()
    for p in proposals:  # at most one per (rule, old, new): ``propose_links``
        wanted.add((p.rule, p.old, p.new))
        found = existing.get((p.rule, p.old, p.new))
        if found is not None:
            if p.named and "named" not in found.metadata:
                # stored before links kept what they replaced: add it, once
                metadata = {**found.metadata, "named": list(p.named)}
                out.append(drafts.edge_updated(found.id, {"metadata": metadata}, at))
            continue
        edge = Edge(
            id=new_id(),
            type=EdgeType.SUPERSEDES,
            source=ids[p.new],
            target=ids[p.old],
            recorded_at=at,
            updated_at=at,
            valid_from=at,
            state=p.state,
            confidence=trust[p.rule].mean if p.rule in trust else None,
            rationale=p.evidence[:1000] or None,
            metadata={
                "rule": p.rule,
                "old": p.old,
                "new": p.new,
                "partial": p.partial,
                **({"named": list(p.named)} if p.named else {}),
                **({"for_named": True} if p.for_named and p.named else {}),
            },
        )
        out.append(drafts.edge_added(edge, at))
        report.links_added += 1
    running = {rule.name for rule in rules()}  # a rule turned off (a model) keeps its links
    for marker, edge in existing.items():
        unjudged = edge.state in (LinkState.STATED, LinkState.CANDIDATE)
        ran = marker[0] in running
        if marker not in wanted and unjudged and ran and {marker[1], marker[2]} <= scope:
            reason = "no rule proposes this link after re-reading the records"
            out.append(drafts.tombstoned(edge.id, "edge", reason, at))
            report.links_removed += 1
    return out


def is_rule_link(edge: Edge) -> bool:
    """Whether ``edge`` is a supersedes edge that a link rule proposed."""
    return edge.type is EdgeType.SUPERSEDES and edge.metadata.get("rule") is not None


def adr_links(graph: Graph) -> list[Edge]:
    """Every live supersedes edge that a link rule proposed."""
    return [e for e in graph.edges(types=[EdgeType.SUPERSEDES]) if is_rule_link(e)]


def is_record_node(node: Node) -> bool:
    """Whether ``node`` is an ingested record: a decision of kind ``adr`` with a key."""
    meta = node.metadata
    return (
        node.type is NodeType.DECISION
        and meta.get("kind") == ADR_KIND
        and isinstance(meta.get("key"), str)
    )


def record_nodes(graph: Graph) -> dict[str, Node]:
    """The graph's record nodes by key."""
    out = {}
    for node in graph.nodes(types=[NodeType.DECISION]):
        if is_record_node(node):
            out[node.metadata["key"]] = node
    return out


def ingest_records(graph: Graph, records: Sequence[AdrRecord]) -> IngestReport:
    """Add or update ``records`` and their proposed links, in one transaction.

    What to write is worked out from the graph as read; the write lands only if nobody
    wrote in between (``Store.append(after_seq=…)``), else the graph is read again
    (``written_once``). Two processes ingesting one folder at once add each record once."""
    if graph.as_of is not None:
        raise Conflict("a view of the graph at a past time is read-only")
    proposals = propose_links(records)
    scope = {r.key for r in records}

    def once() -> IngestReport:
        report = IngestReport()
        at = utc_now()
        head = graph.store.head(graph.name)[0]  # before the reads the drafts come from
        known = record_nodes(graph)
        changes, ids = _record_drafts(records, known, at, report)
        changes += _provenance_drafts(records, ids, at, report)
        changes += _link_drafts(graph, proposals, ids, scope, at, report)
        if changes:
            graph.store.append(graph.name, changes, after_seq=head)
        return report

    return written_once(once, graph)


def ingest(
    graph: Graph,
    *folders: str | os.PathLike[str],
    follow_symlinks: bool = False,
    git_dates: bool = False,
) -> IngestReport:
    """Read each folder (of ADRs, or of such folders) and ingest every record found.

    Files that cannot be read are reported in ``problems`` with their path and skipped;
    so are symbolic links inside the folders, unless ``follow_symlinks`` (see ``read_folder``).
    In a git work tree, each record also governs the tracked paths its text names (metadata
    ``affects``, after its ``affects:`` front matter); with ``git_dates``, a record with no
    date takes the date of the commit that first added it (``date_source: git``).
    """
    for folder in folders:
        if not isinstance(folder, str | os.PathLike):
            raise InvalidInput(
                "folders",
                f"{type(folder).__name__} {folder!r:.80} is not a path",
                "each folder as its own argument, a str or path: ingest(graph, 'a', 'b')",
            )
    # Imported here: the reader and its formats cost a seventh of a second, which a
    # question (reading records from the store through this module) need not pay.
    from decisis.adr.read.placed import place_records
    from decisis.adr.read.reader import read_folder

    records: list[AdrRecord] = []
    problems: list[ReadProblem] = []
    for folder in folders:
        result = read_folder(folder, follow_symlinks=follow_symlinks)
        records += place_records(result.records, Path(folder), git_dates=git_dates)
        problems += result.problems
    report = ingest_records(graph, records)
    report.problems = problems
    return report
