"""W3C PROV-O export: a graph's records and their provenance as RDF, Turtle or JSON-LD.

Needs ``rdflib`` (the ``prov`` extra: ``pip install 'decisis[prov]'``). The mapping:

* every node, tombstoned ones too, is a ``prov:Entity`` (label, type, status,
  ``prov:generatedAtTime`` its ``recorded_at``, its confidence and rationale), attributed
  (``prov:wasAttributedTo``) to the node's ``agent`` when it has one;
* a believed supersession (``stated`` or ``confirmed``, not tombstoned) makes the new
  node ``prov:wasDerivedFrom`` the old one, and a full one (not ``partial``) also
  ``prov:wasRevisionOf`` it; a rule's unjudged or rejected proposal claims nothing;
* a causal edge (``leads_to``, ``chosen``, ``caused``, …) makes its target
  ``prov:wasInfluencedBy`` its source; every live edge is also ``decisis:<type>``;
* a tombstone is a ``prov:Activity`` (its reason the ``rdfs:comment``) that the node
  ``prov:wasInvalidatedBy``, at ``prov:invalidatedAtTime``;
* each provenance entry (``provenance.recorded``) is a ``prov:Activity`` (named by its
  ledger seq, labelled with its activity; started, ended, outcome, error, confidence)
  that its record ``prov:wasGeneratedBy``; its agent is a ``prov:Agent`` typed
  ``prov:Person``, ``prov:SoftwareAgent`` or ``prov:Organization`` by the entry's agent
  type, ``prov:wasAssociatedWith`` the activity through a ``prov:qualifiedAssociation``
  with ``prov:hadRole`` its role, and the record ``prov:wasAttributedTo`` it; its source
  document is a ``prov:Entity`` (with ``decisis:gitBlob`` and ``decisis:gitCommit``) the
  record ``prov:hadPrimarySource`` and the activity ``prov:used``;
* a run recorded before entries existed (a node whose ``metadata.provenance`` names an
  activity) is a ``prov:Activity`` too, from what that metadata says.

IRIs: a record is ``urn:decisis:<graph>:<id>`` (ids are unique among a graph's nodes and
edges), the others ``urn:decisis:<graph>:<what>:<name>`` with ``<what>`` one of
``agent``, ``activity`` and ``association`` (by the entry's ledger seq), ``run`` (by the
node id), ``tombstone`` (by its seq), ``role`` and ``source``;
graph and names are percent-encoded (a source keeps its slashes, and ends in ``@<blob>``
when its git blob is known). Terms of decisis's own are under
``https://decisis.dev/ns/prov#`` (prefix ``decisis``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from decisis.errors import InvalidInput, MissingExtra
from decisis.model import CAUSAL_EDGE_TYPES, EdgeType, Event, EventKind, LinkState, Node
from decisis.model.enums import AgentType
from decisis.model.provenance import Provenance
from decisis.model.times import format_time, parse_time
from decisis.stores.retire import retires

if TYPE_CHECKING:
    from rdflib import Graph as RdfGraph
    from rdflib.term import Node as RdfNode

    from decisis.graph import Graph

__all__ = ["DECISIS_NS", "PROV_FORMATS", "PROV_NS", "export_prov", "prov_graph"]

PROV_NS = "http://www.w3.org/ns/prov#"
DECISIS_NS = "https://decisis.dev/ns/prov#"
PROV_FORMATS = {"prov-turtle": "turtle", "prov-jsonld": "json-ld"}
_AGENT_CLASSES = {
    AgentType.PERSON: "Person",
    AgentType.SOFTWARE_AGENT: "SoftwareAgent",
    AgentType.ORGANIZATION: "Organization",
}
_BELIEVED = (LinkState.STATED, LinkState.CONFIRMED)


def _rdflib() -> Any:
    try:
        import rdflib
    except ImportError as exc:
        raise MissingExtra("PROV-O export", "prov") from exc
    return rdflib


def export_prov(graph: Graph, format: str) -> str:
    """The graph as PROV-O, in ``prov-turtle`` (Turtle) or ``prov-jsonld`` (JSON-LD)."""
    if format not in PROV_FORMATS:
        raise InvalidInput("format", f"unknown PROV-O format {format!r}", sorted(PROV_FORMATS))
    rdf = prov_graph(graph)
    if format == "prov-jsonld":
        context = {"prov": PROV_NS, "decisis": DECISIS_NS, "rdfs": str(_rdflib().RDFS)}
        context["xsd"] = str(_rdflib().XSD)
        text = rdf.serialize(format="json-ld", context=context, indent=2, auto_compact=True)
    else:
        text = rdf.serialize(format="turtle")
    return str(text) if text.endswith("\n") else f"{text}\n"


def prov_graph(graph: Graph) -> RdfGraph:
    """The graph's records, links, tombstones and provenance entries as an rdflib graph."""
    return _Builder(graph).build()


class _Builder:
    """One export: the RDF graph being built, and the IRIs of the graph's things."""

    def __init__(self, graph: Graph) -> None:
        rdflib = _rdflib()
        self.rdflib = rdflib
        self.graph = graph
        self.prov = rdflib.Namespace(PROV_NS)
        self.ns = rdflib.Namespace(DECISIS_NS)
        self.rdf: RdfGraph = rdflib.Graph()
        self.rdf.bind("prov", self.prov)
        self.rdf.bind("decisis", self.ns)
        self.base = f"urn:decisis:{quote(graph.name, safe='')}:"

    # -- names ----------------------------------------------------------------------
    def iri(self, *parts: str, safe: str = "") -> Any:
        return self.rdflib.URIRef(self.base + ":".join(quote(p, safe=safe) for p in parts))

    def text(self, value: str) -> Any:
        return self.rdflib.Literal(value)

    def when(self, value: datetime) -> Any:
        return self.rdflib.Literal(format_time(value), datatype=self.rdflib.XSD.dateTime)

    def number(self, value: float) -> Any:
        return self.rdflib.Literal(float(value), datatype=self.rdflib.XSD.double)

    def add(self, subject: RdfNode, predicate: RdfNode, value: RdfNode) -> None:
        self.rdf.add((subject, predicate, value))

    # -- the export -------------------------------------------------------------------
    def build(self) -> RdfGraph:
        nodes = self.graph.nodes(include_tombstoned=True)
        for node in nodes:
            self._node(node)
        for edge in self.graph.edges():
            self._edge(edge.type, edge.source, edge.target, retires(edge), edge.state)
        described: set[str] = set()
        for event in self.graph.events():
            if event.kind is EventKind.PROVENANCE:
                entry = Provenance.from_payload(event.payload, event.at, event.seq)
                self._entry(entry)
                described.add(entry.entity)
            elif event.kind is EventKind.TOMBSTONED and event.payload.get("target") == "node":
                self._tombstone(event)
        self._runs_from_metadata(n for n in nodes if n.id not in described)
        return self.rdf

    def _node(self, node: Node) -> None:
        rdfs, entity = self.rdflib.RDFS, self.iri(node.id)
        self.add(entity, self.rdflib.RDF.type, self.prov.Entity)
        self.add(entity, rdfs.label, self.text(node.label))
        self.add(entity, self.ns.nodeType, self.text(node.type.value))
        self.add(entity, self.ns.status, self.text(node.status.value))
        self.add(entity, self.ns.id, self.text(node.id))
        self.add(entity, self.prov.generatedAtTime, self.when(node.recorded_at))
        if node.confidence is not None:
            self.add(entity, self.ns.confidence, self.number(node.confidence))
        if node.rationale:
            self.add(entity, rdfs.comment, self.text(node.rationale))
        if node.agent:
            self.add(entity, self.prov.wasAttributedTo, self._agent(node.agent, None))

    def _edge(
        self, type_: EdgeType, source: str, target: str, revision: bool, state: LinkState
    ) -> None:
        start, end = self.iri(source), self.iri(target)
        if type_ is EdgeType.SUPERSEDES:
            if state not in _BELIEVED:
                return  # a rule's proposal nobody judged, or a rejected one: no claim
            self.add(start, self.prov.wasDerivedFrom, end)
            if revision:
                self.add(start, self.prov.wasRevisionOf, end)
        elif type_ in CAUSAL_EDGE_TYPES:
            self.add(end, self.prov.wasInfluencedBy, start)
        self.add(start, self.ns[type_.value], end)

    def _agent(self, name: str, kind: AgentType | None) -> Any:
        agent = self.iri("agent", name)
        self.add(agent, self.rdflib.RDF.type, self.prov.Agent)
        self.add(agent, self.rdflib.RDFS.label, self.text(name))
        if kind is not None:
            self.add(agent, self.rdflib.RDF.type, self.prov[_AGENT_CLASSES[kind]])
        return agent

    def _tombstone(self, event: Event) -> None:
        activity, entity = self.iri("tombstone", str(event.seq)), self.iri(event.entity)
        self.add(activity, self.rdflib.RDF.type, self.prov.Activity)
        self.add(activity, self.rdflib.RDFS.label, self.text("tombstone"))
        self.add(activity, self.prov.endedAtTime, self.when(event.at))
        reason = event.payload.get("reason")
        if isinstance(reason, str):
            self.add(activity, self.rdflib.RDFS.comment, self.text(reason))
        self.add(entity, self.prov.wasInvalidatedBy, activity)
        self.add(entity, self.prov.invalidatedAtTime, self.when(event.at))

    def _entry(self, entry: Provenance) -> None:
        activity, entity = self.iri("activity", str(entry.seq)), self.iri(entry.entity)
        self.add(entity, self.rdflib.RDF.type, self.prov.Entity)
        self._activity(activity, entry.activity, entry.started_at, entry.ended_at)
        self.add(activity, self.ns.recordedAt, self.when(entry.recorded_at))
        for term, value in (("outcome", entry.outcome), ("error", entry.error)):
            if value is not None:
                self.add(activity, self.ns[term], self.text(value))
        if entry.confidence is not None:
            self.add(activity, self.ns.confidence, self.number(entry.confidence))
        self.add(entity, self.prov.wasGeneratedBy, activity)
        if entry.agent is not None:
            agent = self._agent(entry.agent, entry.agent_type)
            self._associate(activity, agent, entry.role, str(entry.seq))
            self.add(entity, self.prov.wasAttributedTo, agent)
        elif entry.role is not None:
            self.add(activity, self.ns.role, self.text(entry.role))
        if entry.source is not None:
            source = self._source(entry.source, entry.source_blob, entry.source_commit)
            self.add(entity, self.prov.hadPrimarySource, source)
            self.add(activity, self.prov.used, source)

    def _activity(
        self, activity: RdfNode, name: str, started: datetime | None, ended: datetime | None
    ) -> None:
        self.add(activity, self.rdflib.RDF.type, self.prov.Activity)
        self.add(activity, self.rdflib.RDFS.label, self.text(name))
        self.add(activity, self.ns.activity, self.text(name))
        if started is not None:
            self.add(activity, self.prov.startedAtTime, self.when(started))
        if ended is not None:
            self.add(activity, self.prov.endedAtTime, self.when(ended))

    def _associate(self, activity: RdfNode, agent: RdfNode, role: str | None, seq: str) -> None:
        self.add(activity, self.prov.wasAssociatedWith, agent)
        association = self.iri("association", seq)  # named, not blank: the same file each time
        self.add(activity, self.prov.qualifiedAssociation, association)
        self.add(association, self.rdflib.RDF.type, self.prov.Association)
        self.add(association, self.prov.agent, agent)
        if role is not None:
            role_iri = self.iri("role", role)
            self.add(role_iri, self.rdflib.RDF.type, self.prov.Role)
            self.add(role_iri, self.rdflib.RDFS.label, self.text(role))
            self.add(association, self.prov.hadRole, role_iri)

    def _source(self, path: str, blob: str | None, commit: str | None) -> Any:
        """The document read: one entity per path and content (its blob, when known)."""
        source = self.iri("source", f"{path}@{blob}" if blob else path, safe="/@")
        self.add(source, self.rdflib.RDF.type, self.prov.Entity)
        self.add(source, self.rdflib.RDFS.label, self.text(path))
        self.add(source, self.ns.location, self.text(path))
        if blob is not None:
            self.add(source, self.ns.gitBlob, self.text(blob))
        if commit is not None:
            self.add(source, self.ns.gitCommit, self.text(commit))
        return source

    def _runs_from_metadata(self, nodes: Iterable[Node]) -> None:
        """Runs recorded before provenance entries: their node's ``metadata.provenance``."""
        for node in nodes:
            said = node.metadata.get("provenance")
            if not isinstance(said, dict) or not isinstance(said.get("activity"), str):
                continue
            activity = self.iri("run", node.id)
            self._activity(
                activity,
                said["activity"],
                _time(said.get("started_at")),
                _time(said.get("ended_at")),
            )
            if isinstance(said.get("outcome"), str):
                self.add(activity, self.ns.outcome, self.text(said["outcome"]))
            self.add(self.iri(node.id), self.prov.wasGeneratedBy, activity)
            if isinstance(said.get("agent"), str) and said["agent"].strip():
                self.add(activity, self.prov.wasAssociatedWith, self._agent(said["agent"], None))


def _time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_time(value, "time")
    except InvalidInput:
        return None
