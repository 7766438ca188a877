"""``Graph.decisions_for``: the standing decisions on a path, nearest first, over every backend."""

from __future__ import annotations

import pytest

import decisis
from decisis.errors import InvalidInput
from decisis.model import utc_now
from tests.files.conftest import Repo


def _affects(*patterns: str) -> dict[str, object]:
    return {"metadata": {"affects": list(patterns)}}


def labels(graph: decisis.Graph, path: str) -> list[str]:
    [entry] = graph.decisions_for([path])
    return [item.node.label for item in entry.decisions]


def test_the_nearest_pattern_comes_first_and_others_stay_out(graph: decisis.Graph) -> None:
    graph.record_decision("Services in src", **_affects("src/**"))
    graph.record_decision("Auth module rules", **_affects("src/auth"))
    graph.record_decision("Login flow", **_affects("src/auth/login.py"))
    graph.record_decision("SQL style", **_affects("*.sql"))
    graph.record_decision("No paths at all")
    assert labels(graph, "src/auth/login.py") == [
        "Login flow",
        "Auth module rules",
        "Services in src",
    ]
    assert labels(graph, "src/billing/pay.py") == ["Services in src"]
    assert labels(graph, "db/001.sql") == ["SQL style"]
    assert labels(graph, "README.md") == []
    [entry] = graph.decisions_for(["./src//auth/login.py"])
    assert entry.path == "src/auth/login.py"
    assert entry.decisions[0].pattern == "src/auth/login.py"


def test_a_replaced_decision_gives_way_to_what_replaced_it(graph: decisis.Graph) -> None:
    jwt = graph.record_decision("Use JWT tokens", **_affects("src/auth/**"))
    sessions = graph.record_decision("Use server sessions")  # names no path itself
    graph.supersede(jwt.id, sessions.id, rationale="Sessions can be revoked")
    [entry] = graph.decisions_for(["src/auth/login.py"])
    [item] = entry.decisions
    assert item.node.id == sessions.id
    assert item.pattern == "src/auth/**" and item.named_by.id == jwt.id
    assert [n.id for n in item.replaced] == [jwt.id]
    data = entry.to_dict()
    assert data["decisions"][0]["replaced"] == [{"id": jwt.id, "label": "Use JWT tokens"}]


def test_a_chain_is_followed_to_the_end(graph: decisis.Graph) -> None:
    first = graph.record_decision("Jenkins", **_affects("ci/**"))
    second = graph.record_decision("Travis", **_affects("ci/travis.yml"))
    third = graph.record_decision("GitHub Actions", **_affects(".github/workflows"))
    graph.supersede(first.id, second.id)
    graph.supersede(second.id, third.id)
    [entry] = graph.decisions_for(["ci/travis.yml"])
    [item] = entry.decisions
    assert item.node.id == third.id
    assert item.pattern == "ci/travis.yml"  # the nearest of the patterns that led here
    assert {n.id for n in item.replaced} == {first.id, second.id}
    [entry] = graph.decisions_for([".github/workflows/ci.yml"])
    assert [n.id for n in entry.decisions[0].replaced] == [second.id]  # what it replaced itself


def test_rejected_retired_and_merely_proposed_replacements(graph: decisis.Graph) -> None:
    graph.add_node("decision", "Turned down", status="rejected", **_affects("src/**"))
    graph.add_node("decision", "Retired by hand", status="superseded", **_affects("src/**"))
    kept = graph.record_decision("Still stands", **_affects("src/**"))
    guess = graph.record_decision("A rule's weak guess")
    graph.supersede(kept.id, guess.id, state="candidate", confidence=0.2)
    assert labels(graph, "src/a.py") == ["Still stands"]
    graph.update(kept.id, valid_until=utc_now())  # it held until now only
    assert labels(graph, "src/a.py") == []


def test_a_view_of_the_past_answers_as_the_graph_stood(graph: decisis.Graph) -> None:
    old = graph.record_decision("Old rule", **_affects("src/**"))
    before = graph.events()
    moment = list(before)[-1].at
    new = graph.record_decision("New rule")
    graph.supersede(old.id, new.id)
    assert labels(graph, "src/x.py") == ["New rule"]
    assert labels(graph.at(moment), "src/x.py") == ["Old rule"]


def test_absolute_paths_are_read_from_their_work_tree(graph: decisis.Graph, repo: Repo) -> None:
    graph.record_decision("Auth rules", **_affects("src/auth/**"))
    file = repo.write("src/auth/login.py", "x = 1\n")
    [entry] = graph.decisions_for([str(file)])
    assert entry.path == "src/auth/login.py"
    assert [d.node.label for d in entry.decisions] == ["Auth rules"]


@pytest.mark.parametrize("bad", ["src/a.py", [], [""], ["x"] * 101, [3]])
def test_bad_paths_are_refused(graph: decisis.Graph, bad: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        graph.decisions_for(bad)  # type: ignore[arg-type]
    assert caught.value.field == "paths"


def test_a_folder_lists_the_decisions_on_what_is_inside_it(graph: decisis.Graph) -> None:
    graph.record_decision("Services in src", **_affects("src/**"))
    graph.record_decision("Login flow", **_affects("src/auth/login.py"))
    graph.record_decision("Auth tests", **_affects("src/**/test_*.py"))
    graph.record_decision("Docs pages", **_affects("docs/*.md"))
    graph.record_decision("SQL style", **_affects("*.sql"))  # a name: says nothing of a folder
    nearest_first = ["Login flow", "Auth tests", "Services in src"]  # by specificity
    assert labels(graph, "src/auth/") == nearest_first
    assert labels(graph, "src/") == nearest_first
    assert labels(graph, "docs/") == ["Docs pages"]
    assert labels(graph, "src/auth") == ["Services in src"]  # no "/": the path itself
    assert set(labels(graph, ".")) == {"Services in src", "Login flow", "Auth tests", "Docs pages"}
    [entry] = graph.decisions_for(["src/auth/"])
    assert entry.path == "src/auth/"
