"""The records' term weights kept in the store (``decisis.search.kept``), on every backend:
written by the first view, read back by the next (not worked out again), made again for a
record whose text changed, never in the ledger; the index built from them is the one a
plain build makes, and so are the answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decisis.adr.answer import ask, passages
from decisis.adr.answer.passages import PASSAGE_TERMS, passage_index
from decisis.adr.link import view as views
from decisis.adr.link.ingest import ingest
from decisis.adr.link.view import RECORD_TERMS, build_view
from decisis.graph import Graph
from decisis.search.kept import space_of
from decisis.search.terms import TermIndex
from decisis.stores import Store
from decisis.stores.replay import verify
from tests.stores.helpers import store

__all__ = ["store"]

QUESTION = "Which queue do the payment services use?"


def _forget() -> None:
    """Drop this process's views and passage indexes, as a new process starts."""
    views._CACHE.clear()
    passages._BUILT.clear()


@pytest.fixture(autouse=True)
def _new_process() -> None:
    _forget()


def _record(folder: Path, name: str, title: str, decision: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(
        f"# {title}\n\nDate: 2022-03-01\n\n## Status\n\nAccepted\n\n## Decision\n\n{decision}\n",
        encoding="utf-8",
    )


def _graph(store: Store, tmp_path: Path) -> Graph:
    team = tmp_path / "adrs" / "team"
    _record(team, "001-queues.md", "1. Use Simple Queue Service", "Payment services use SQS.")
    _record(team, "002-ledger.md", "2. Payments ledger", "The payments hub keeps one ledger.")
    _record(team, "003-index.md", "3. Index nightly", "The search index is rebuilt nightly.")
    graph = Graph(store, "adr")
    ingest(graph, tmp_path / "adrs")
    return graph


def _plain(index: TermIndex, *, spell_out_titles: bool) -> TermIndex:
    """``index`` built again from its documents' fields, with nothing kept."""
    docs = [(doc, dict(fields)) for doc, fields in zip(index.docs, index._fields, strict=True)]
    return TermIndex.build(docs, spell_out_titles=spell_out_titles)


def _same(a: TermIndex, b: TermIndex) -> None:
    assert a.docs == b.docs
    assert a.postings == b.postings
    assert a.lengths == b.lengths
    assert [list(v.items()) for v in a.vectors] == [list(v.items()) for v in b.vectors]
    assert a.aliases == b.aliases


def test_weights_are_kept_and_the_index_is_a_plain_builds(store: Store, tmp_path: Path) -> None:
    graph = _graph(store, tmp_path)
    head = store.head("adr")
    view = build_view(graph)
    sections = passage_index(view)
    kept = store.derived_spaces("adr")
    assert kept == {space_of(RECORD_TERMS): 3, space_of(PASSAGE_TERMS): 3}
    again = build_view(graph)  # a new process's view: weights read back, not worked out
    _same(again.index, view.index)
    _same(again.index, _plain(view.index, spell_out_titles=True))
    _same(passage_index(again), sections)
    _same(sections, _plain(sections, spell_out_titles=False))
    assert store.head("adr") == head  # derived data is not in the ledger
    assert verify(store, "adr").ok


def test_a_kept_body_is_what_the_next_view_reads(store: Store, tmp_path: Path) -> None:
    graph = _graph(store, tmp_path)
    build_view(graph)
    space = space_of(RECORD_TERMS)
    body = json.loads(store.get_derived("adr", space, ["team:002"])["team:002"])
    body[0].append("zzmarker")
    body[1].append(2.0)
    digest = {"team:002": _digest(store, space, "team:002")}
    store.put_derived("adr", space, {"team:002": (digest["team:002"], json.dumps(body))})
    assert "zzmarker" in build_view(graph).index.postings  # read from the store


def _digest(store: Store, space: str, item: str) -> str:
    """The digest a view keeps ``item`` under: the one that reads its body back."""
    from decisis.search.kept import digest_of

    view = build_view(Graph(store, "adr"))
    fields = dict(zip(view.index.docs, view.index._fields, strict=True))[item]
    digest = digest_of([x for kv in fields for x in kv])
    assert store.get_derived("adr", space, [item], digests={item: digest})
    return digest


def test_a_changed_record_is_weighed_again(store: Store, tmp_path: Path) -> None:
    graph = _graph(store, tmp_path)
    space = space_of(RECORD_TERMS)
    build_view(graph)
    before = store.get_derived("adr", space)
    _record(tmp_path / "adrs" / "team", "003-index.md", "3. Index hourly", "Rebuilt hourly.")
    ingest(graph, tmp_path / "adrs")
    view = build_view(graph)
    after = store.get_derived("adr", space)
    assert after["team:001"] == before["team:001"]
    assert after["team:003"] != before["team:003"]
    assert "hourli" in view.index.postings or "hourly" in view.index.postings
    _same(view.index, _plain(view.index, spell_out_titles=True))


def test_a_view_at_a_past_time_writes_nothing(store: Store, tmp_path: Path) -> None:
    graph = _graph(store, tmp_path)
    past = graph.at(graph.history(graph.nodes()[0].id)[-1].at)
    assert build_view(past).records
    assert past.store.derived_spaces("adr") == {}  # its replayed store: nothing written


def test_answers_are_the_same_with_weights_kept(store: Store, tmp_path: Path) -> None:
    graph = _graph(store, tmp_path)
    first = ask(graph, QUESTION)  # weights worked out and kept
    _forget()  # the store's weights, not this process's view
    second = ask(graph, QUESTION)
    assert first == second
    assert first.answer == "team:001"


@pytest.mark.parametrize("scheme", ["sqlite", "duckdb"])
def test_a_read_only_store_answers_without_keeping(tmp_path: Path, scheme: str) -> None:
    """A file that cannot be written still answers, the same, and keeps nothing."""
    from decisis import open as open_graph
    from tests.stores.read_only import read_only_copy

    source = tmp_path / f"g.{scheme}"
    with open_graph(f"{scheme}:///{source}", graph="adr") as graph:
        _graph(graph.store, tmp_path)
        expected = ask(Graph(graph.store, "adr"), QUESTION)
        graph.store.delete_derived("adr", space_of(RECORD_TERMS))
        graph.store.delete_derived("adr", space_of(PASSAGE_TERMS))
        kept_before = graph.store.derived_spaces("adr")
    _forget()
    with read_only_copy(source, tmp_path) as copy, open_graph(f"{scheme}:///{copy}") as ro:
        assert ask(Graph(ro.store, "adr"), QUESTION) == expected
        assert ro.store.derived_spaces("adr") == kept_before


def test_what_a_record_leaves_out_is_kept_and_read_back(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``excluded_terms`` of a question's candidates (a per-record feature) is kept under
    the record's title and text: a new process reads it instead of searching the text, a
    changed record is searched again, and the answers are the same."""
    from decisis.adr.answer import scope
    from decisis.search.text import terms as real_terms

    team = tmp_path / "adrs" / "team"
    _record(team, "001-queues.md", "1. Use queues", "Payments use SQS. Billing is out of scope.")
    _record(team, "002-ledger.md", "2. Payments ledger", "The payments hub keeps one ledger.")
    graph = Graph(store, "adr")
    ingest(graph, tmp_path / "adrs")
    question = "Which queue does billing use for payments?"
    head = store.head("adr")
    first = ask(graph, question)
    bodies = store.get_derived("adr", space_of(scope.EXCLUDED_TERMS))
    assert json.loads(bodies["team:001"]) == sorted(real_terms("Billing"))
    assert json.loads(bodies["team:002"]) == []
    assert store.head("adr") == head and verify(store, "adr").ok  # not in the ledger
    searched: list[str] = []
    real = scope.excluded_terms

    def counted(title: str, text: str) -> frozenset[str]:
        searched.append(title)
        return real(title, text)

    monkeypatch.setattr(scope, "excluded_terms", counted)
    _forget()
    assert ask(graph, question) == first
    assert searched == []  # read back from the store
    _record(team, "001-queues.md", "1. Use queues", "Payments use SQS. Refunds are out of scope.")
    ingest(graph, tmp_path / "adrs")
    _forget()
    ask(graph, question)
    assert searched == ["Use queues"]  # only the changed record is searched again
