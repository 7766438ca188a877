"""The W3C PROV-O export: both formats parse back with rdflib into the same RDF graph, and
SPARQL over it finds what the graph says: revisions, derivations, invalidations, agents of
their type, roles, sources and runs; a proposal nobody believes claims nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
import rdflib
from rdflib.compare import isomorphic

import decisis
from decisis.agent import Recorder
from decisis.errors import InvalidInput
from decisis.stores import Store

REPO = Path(__file__).resolve().parents[2]
PREFIXES = """
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX decisis: <https://decisis.dev/ns/prov#>
"""


def _story(store: Store) -> tuple[decisis.Graph, dict[str, str]]:
    graph = decisis.Graph(store, "prov story", agent="planner")
    goal = graph.add_goal("Store the ledger")
    old = graph.record_decision("Use MySQL", goal=goal.id)
    new = graph.record_decision("Use PostgreSQL", goal=goal.id)
    graph.supersede(old.id, new.id, rationale="better JSON")
    part = graph.record_decision("Use SQLite for tests", goal=goal.id)
    graph.supersede(old.id, part.id, metadata={"partial": True})
    guess = graph.record_decision("Use DuckDB", goal=goal.id)
    graph.supersede(new.id, guess.id, state="candidate", confidence=0.3)
    gone = graph.add_goal("Recorded twice")
    graph.tombstone(gone.id, "a duplicate")
    graph.record_provenance(
        new.id,
        "review",
        agent="alice",
        agent_type="person",
        role="reviewer",
        source="docs/adr/0002.md",
        source_blob="a" * 40,
        source_commit="b" * 40,
        confidence=0.9,
        outcome="approved",
    )
    graph.record_provenance(goal.id, "charter", agent="Platform team", agent_type="organization")
    with Recorder(graph).run(agent="planner-bot", role="plan"):
        pass
    legacy = graph.add_node(
        "decision",
        "An old run",
        metadata={"provenance": {"activity": "run:fetch", "agent": "fetcher",
                                 "started_at": "2026-01-01T00:00:00Z",
                                 "ended_at": "2026-01-01T00:01:00Z", "outcome": "succeeded"}},
    )  # fmt: skip
    ids = {"goal": goal.id, "old": old.id, "new": new.id, "part": part.id, "guess": guess.id}
    return graph, ids | {"gone": gone.id, "legacy": legacy.id}


def _read(text: str, rdf_format: str) -> rdflib.Graph:
    """The triples of ``text``. rdflib 7.6's JSON-LD reader builds a ConjunctiveGraph
    inside, which rdflib itself deprecates: that one warning is let through."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "ConjunctiveGraph is deprecated", DeprecationWarning)
        return rdflib.Graph().parse(data=text, format=rdf_format)


def _parsed(graph: decisis.Graph, format: str) -> rdflib.Graph:
    rdf_format = {"prov-turtle": "turtle", "prov-jsonld": "json-ld"}[format]
    return _read(graph.export(format), rdf_format)


def _iri(graph: decisis.Graph, record_id: str) -> rdflib.URIRef:
    return rdflib.URIRef(f"urn:decisis:prov%20story:{record_id}")


def _ask(rdf: rdflib.Graph, query: str, **bindings: Any) -> bool:
    return bool(rdf.query(PREFIXES + query, initBindings=bindings).askAnswer)


def _select(rdf: rdflib.Graph, query: str, **bindings: Any) -> set[tuple[str, ...]]:
    return {
        tuple(str(v) for v in row) for row in rdf.query(PREFIXES + query, initBindings=bindings)
    }  # type: ignore[union-attr]


@pytest.mark.parametrize("format", ["prov-turtle", "prov-jsonld"])
def test_the_export_answers_sparql(store: Store, format: str) -> None:
    graph, ids = _story(store)
    rdf = _parsed(graph, format)
    new, old, part, guess = (_iri(graph, ids[k]) for k in ("new", "old", "part", "guess"))
    revision = "ASK { ?new prov:wasRevisionOf ?old . ?new prov:wasDerivedFrom ?old }"
    assert _ask(rdf, revision, new=new, old=old)
    # the superseded record is found as what the new one revises
    found = _select(rdf, "SELECT ?old WHERE { ?new prov:wasRevisionOf ?old }", new=new)
    assert found == {(str(old),)}
    # a partial replacement derives, it does not revise; a candidate claims neither
    assert _ask(rdf, "ASK { ?p prov:wasDerivedFrom ?old }", p=part, old=old)
    assert not _ask(rdf, "ASK { ?p prov:wasRevisionOf ?old }", p=part, old=old)
    assert not _ask(rdf, "ASK { ?g prov:wasDerivedFrom ?x }", g=guess)
    # every node, the tombstoned one too, is an entity
    entities = _select(rdf, "SELECT ?e WHERE { ?e a prov:Entity ; decisis:id ?id }")
    assert len(entities) == len(graph.nodes(include_tombstoned=True))
    gone = _iri(graph, ids["gone"])
    invalidated = """SELECT ?why WHERE {
        ?gone prov:wasInvalidatedBy ?t ; prov:invalidatedAtTime ?at .
        ?t a prov:Activity ; rdfs:comment ?why }"""
    assert _select(rdf, invalidated, gone=gone) == {("a duplicate",)}


@pytest.mark.parametrize("format", ["prov-turtle", "prov-jsonld"])
def test_agents_roles_and_sources_of_the_entries(store: Store, format: str) -> None:
    graph, ids = _story(store)
    rdf = _parsed(graph, format)
    new = _iri(graph, ids["new"])
    person = """SELECT ?name ?role WHERE {
        ?new prov:wasGeneratedBy ?act ; prov:wasAttributedTo ?agent .
        ?agent a prov:Person , prov:Agent ; rdfs:label ?name .
        ?act a prov:Activity ; prov:wasAssociatedWith ?agent ;
             prov:qualifiedAssociation [
                 prov:agent ?agent ; prov:hadRole [ rdfs:label ?role ] ] }"""
    assert _select(rdf, person, new=new) == {("alice", "reviewer")}
    source = """SELECT ?where ?blob ?commit ?c WHERE {
        ?new prov:hadPrimarySource ?doc . ?doc a prov:Entity ; decisis:location ?where ;
        decisis:gitBlob ?blob ; decisis:gitCommit ?commit .
        ?act prov:used ?doc ; decisis:confidence ?c ; decisis:outcome "approved" }"""
    assert _select(rdf, source, new=new) == {("docs/adr/0002.md", "a" * 40, "b" * 40, "0.9")}
    organization = "SELECT ?n WHERE { ?a a prov:Organization ; rdfs:label ?n }"
    assert _select(rdf, organization) == {("Platform team",)}
    software = """SELECT ?n ?label WHERE { ?run prov:wasGeneratedBy ?act .
        ?act rdfs:label ?label ; prov:startedAtTime ?s ; prov:endedAtTime ?e ;
             prov:wasAssociatedWith ?a . ?a a prov:SoftwareAgent ; rdfs:label ?n }"""
    assert _select(rdf, software) == {("planner-bot", "run:plan")}
    # the graph's agent recorded the nodes: attributed, of no type it did not say
    assert _ask(rdf, "ASK { ?g prov:wasAttributedTo [ rdfs:label 'planner' ] }")
    assert not _ask(rdf, "ASK { ?a rdfs:label 'planner' ; a prov:Person }")
    legacy = _iri(graph, ids["legacy"])
    old_run = """SELECT ?label ?n WHERE { ?legacy prov:wasGeneratedBy ?act .
        ?act a prov:Activity ; rdfs:label ?label ; prov:startedAtTime ?s ;
             prov:wasAssociatedWith [ rdfs:label ?n ] }"""
    assert _select(rdf, old_run, legacy=legacy) == {("run:fetch", "fetcher")}


def test_both_formats_are_the_same_rdf_graph_and_the_same_each_time(store: Store) -> None:
    graph, _ = _story(store)
    turtle, jsonld = _parsed(graph, "prov-turtle"), _parsed(graph, "prov-jsonld")
    assert len(turtle) > 50 and isomorphic(turtle, jsonld)
    assert graph.export("prov-turtle") == graph.export("prov-turtle")
    with pytest.raises(InvalidInput, match="prov-jsonld"):
        graph.export("prov-xml")


def test_the_cli_writes_it_and_without_rdflib_names_the_extra(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with decisis.open(url) as graph:
        node = graph.add_goal("Ship")
        graph.record_provenance(node.id, "plan", agent="bob", agent_type="person")
    env = {**os.environ, "NO_COLOR": "1"}
    run = [sys.executable, "-m", "decisis", "--store", url]
    out = tmp_path / "prov.jsonld"
    done = subprocess.run(
        [*run, "--json", "export", "-f", "prov-jsonld", "-o", str(out)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "prov-jsonld"
    rdf = _read(out.read_text(encoding="utf-8"), "json-ld")
    assert _ask(rdf, "ASK { ?a a prov:Person ; rdfs:label 'bob' }")
    hidden = (
        "import sys, runpy; sys.modules['rdflib'] = None; "
        "sys.argv = ['decisis', '--store', sys.argv[1], 'export', '-f', 'prov-turtle']; "
        "runpy.run_module('decisis', run_name='__main__')"
    )
    bare = subprocess.run(
        [sys.executable, "-c", hidden, url], capture_output=True, text=True, env=env, check=False
    )
    assert bare.returncode == 2, bare.stderr
    assert "decisis[prov]" in bare.stderr and bare.stdout == ""
