"""The JSON API over real HTTP against ``decisis serve`` on a SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from decisis.agent import TOOLS
from tests.web.conftest import Site, tamper


@pytest.fixture
def api(site: Site) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=f"{site.url}/api", timeout=30) as client:
        yield client


def _error(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def test_reads_of_the_graph(site: Site, api: httpx.Client) -> None:
    recent = api.get("/recent", params={"limit": 10}).json()
    assert [n["label"] for n in recent][-2:] == ["Use server sessions", "Use JWT tokens"]
    (tree,) = api.get("/goals").json()
    assert tree["goal"]["id"] == site.goal
    assert {c["node"]["label"] for c in tree["children"]} >= {"Use JWT tokens"}
    shown = api.get(f"/nodes/{site.jwt}").json()
    assert shown["node"]["id"] == site.jwt and shown["node"]["status"] == "superseded"
    assert [e["source"] for e in shown["in"] if e["type"] == "supersedes"] == [site.sessions]
    assert shown["history"][0]["kind"] == "node.added"
    edge = api.get(f"/edges/{shown['in'][0]['id']}").json()
    assert edge["edge"]["target"] == site.jwt and edge["history"][0]["kind"] == "edge.added"
    standing = api.get(f"/current/{site.jwt}").json()
    assert standing["superseded"] and [n["id"] for n in standing["standing"]] == [site.sessions]
    stated = api.get(f"/current/{site.jwt}", params={"believe": 1.0}).json()
    assert stated["standing"] == standing["standing"]  # a stated replacement counts at any floor
    error = _error(api.get(f"/current/{site.jwt}", params={"believe": 1.5}), 422)
    assert error["field"] == "believe" and error["allowed"] == "less than or equal to 1"
    path = api.get("/path", params={"source": site.goal, "target": site.jwt}).json()
    assert [n["id"] for n in path] == [site.goal, site.jwt]
    assert site.jwt in {r["node"]["id"] for r in api.get(f"/impact/{site.goal}").json()}
    assert site.goal in {r["node"]["id"] for r in api.get(f"/why/{site.jwt}").json()}
    hits = api.get("/search", params={"q": "JWT"}).json()
    assert hits[0]["node"]["id"] == site.jwt
    found = api.get("/precedents", params={"q": "builds on a CI server", "k": 10}).json()
    assert {"team:001", "team:002"} <= {p["node"]["metadata"].get("key") for p in found}
    mine = api.get("/precedents", params={"q": "builds on a CI server", "records": False}).json()
    assert mine and all(p["node"]["metadata"].get("kind") != "adr" for p in mine)
    assert _error(api.get("/precedents", params={"q": "x", "k": 0}), 422)["field"] == "k"
    decisions = api.get("/nodes", params={"type": "decision", "status": "superseded"}).json()
    ids = {n["id"] for n in decisions}  # and the Jenkins record
    assert site.jwt in ids and site.sessions not in ids and len(ids) == 2
    before = api.get("/at", params={"time": "2001-01-01T00:00Z"}).json()
    assert before["goals"] == [] and before["recent"] == []


def test_ledger_pages_and_verification(site: Site, api: httpx.Client) -> None:
    first = api.get("/ledger", params={"limit": 3}).json()
    assert [e["seq"] for e in first] == [1, 2, 3]
    assert first[1]["prev_checksum"] == first[0]["checksum"]
    assert api.get("/ledger", params={"after": 3, "limit": 1}).json()[0]["seq"] == 4
    # a sequence number past what a store can hold has nothing after it (it was a 500)
    assert api.get("/ledger", params={"after": 2**78, "limit": 1}).json() == []
    ok = api.get("/verify")
    assert ok.status_code == 200 and ok.json()["ok"] is True
    tamper(site.db)
    broken = api.get("/verify")
    assert broken.status_code == 409
    assert broken.json()["ok"] is False and broken.json()["first_bad_seq"] == 1


def test_ask_correct_undo_and_learned(api: httpx.Client) -> None:
    question = "Do we build on a Jenkins server?"
    answer = api.post("/ask", json={"question": question}).json()
    assert answer["answer"] == "team:002" and answer["chain"] == ["team:001", "team:002"]
    assert answer["tokens"] > 0 and "text" in answer
    fixed = api.post("/corrections", json={"question": question, "key": "team:001"}).json()
    assert fixed["key"] == "team:001" and fixed["was"] == "team:002"
    assert api.post("/ask", json={"question": question}).json()["answer"] == "team:001"
    learned = api.get("/learned").json()
    assert learned["links"] and {"rules", "links"} <= learned.keys()
    undone = api.post("/corrections", json={"question": question, "undo": True}).json()
    assert undone["key"] == "team:001"
    assert api.post("/ask", json={"question": question}).json()["answer"] == "team:002"
    offside = api.post("/ask", json={"question": "What is the dress code for the party?"})
    assert offside.json()["answer"] is None


def test_decision_tools_over_http(api: httpx.Client) -> None:
    listed = api.get("/tools").json()
    assert {t["name"]: t["input_schema"] for t in listed} == {s.name: s.schema for s in TOOLS}
    made = api.post("/tools/record_decision", json={"label": "Deploy with Kubernetes"})
    assert made.status_code == 200, made.text
    assert api.get("/recent", params={"limit": 1}).json()[0]["label"] == "Deploy with Kubernetes"
    error = _error(api.post("/tools/record_decision", json={"label": 5}), 422)
    assert error["type"] == "InvalidArguments" and "label" in error["message"]
    error = _error(api.post("/tools/launch_rockets", json={}), 404)
    assert "record_decision" in error["allowed"]
    outcome = {"label": "It worked", "decision_id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}
    missing = api.post("/tools/record_outcome", json=outcome)
    assert _error(missing, 404)["type"] == "NotFound"


def test_bad_requests_say_what_was_wrong_and_change_nothing(site: Site, api: httpx.Client) -> None:
    events = len(api.get("/ledger", params={"limit": 1000}).json())
    error = _error(api.get("/nodes/01ZZZZZZZZZZ"), 404)
    assert error["type"] == "NotFound" and "01ZZZZZZZZZZ" in error["message"]
    error = _error(api.get("/nodes", params={"type": "banana"}), 422)
    assert error["field"] == "type" and "decision" in error["allowed"]
    # a value in any case, as the CLI and the Python API take it
    upper = api.get("/nodes", params={"type": " Decision", "status": "SUPERSEDED"}).json()
    lower = api.get("/nodes", params={"type": "decision", "status": "superseded"}).json()
    assert upper == lower and upper
    error = _error(api.post("/ask", json={"question": "   "}), 422)
    assert error["type"] == "InvalidInput" and error["field"] == "question"
    allowed = "text besides white space, without NUL characters"
    assert error["allowed"] == allowed  # not the pattern that said so
    for text in ("\x1e", "Jenkins?\x00"):  # white space to Python; no label can hold a NUL
        assert _error(api.post("/corrections", json={"question": text}), 422)["allowed"] == allowed
    error = _error(api.post("/ask", json={"qestion": "Jenkins?", "question": "Jenkins?"}), 422)
    assert error["field"] == "qestion"  # a misspelt field is named, not dropped
    error = _error(api.get("/nodes/not-an-id"), 422)
    assert error["field"] == "ref" and "unique prefix" in error["allowed"]
    # before the first time there is: the graph as it stood then (was a 500)
    before = api.get("/at", params={"time": "0001-01-01T00:00:00+01:00"}).json()
    assert before == {"as_of": "0001-01-01T00:00:00.000000Z", "goals": [], "recent": []}
    error = _error(api.post("/corrections", json={"question": "Jenkins?", "key": "team:999"}), 404)
    assert "team:999" in error["message"]
    error = _error(api.get("/at", params={"time": "last tuesday"}), 422)
    assert error["field"]
    # refused by FastAPI before any work, in the same shape as every other refusal
    error = _error(api.post("/ask", json={"question": "x" * 4001}), 422)
    assert error["type"] == "InvalidInput" and error["field"] == "question"
    assert "at most 4000 characters" in error["allowed"]
    error = _error(api.get("/recent", params={"limit": 0}), 422)
    assert error["field"] == "limit" and error["allowed"] == "greater than or equal to 1"
    error = _error(api.post("/ask", json={}), 422)
    assert (error["field"], error["message"]) == (
        "question",
        "question: is missing (allowed: a value)",
    )
    assert len(api.get("/ledger", params={"limit": 1000}).json()) == events


def test_openapi_document_lists_the_api(site: Site) -> None:
    with httpx.Client(timeout=30) as client:
        spec = client.get(f"{site.url}/openapi.json").json()
    assert {"/api/ask", "/api/verify", "/api/nodes/{ref}", "/api/tools/{name}"} <= set(
        spec["paths"]
    )
    assert not any(p in spec["paths"] for p in ("/", "/audit", "/ask"))  # pages are not API
    # every refusal is documented in the one shape the API answers with
    shown = spec["paths"]["/api/nodes/{ref}"]["get"]["responses"]
    assert {"404", "409", "422"} <= shown.keys()
    assert shown["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    assert "HTTPValidationError" not in spec.get("components", {}).get("schemas", {})
    # answers are typed: a generated client knows the fields, not just "an object"
    schemas = spec["components"]["schemas"]
    answered = spec["paths"]["/api/ask"]["post"]["responses"]["200"]["content"]
    assert answered["application/json"]["schema"]["$ref"].endswith("/AnswerOut")
    assert {"answer", "chain", "text", "tokens", "confidence"} <= set(
        schemas["AnswerOut"]["required"]
    )
    listed = spec["paths"]["/api/nodes"]["get"]["responses"]["200"]["content"]
    assert listed["application/json"]["schema"]["items"]["$ref"].endswith("/NodeOut")
    assert "decision" in str(schemas["NodeType"]["enum"])
    verified = spec["paths"]["/api/verify"]["get"]["responses"]
    assert all(
        verified[code]["content"]["application/json"]["schema"]["$ref"].endswith("/VerifyOut")
        for code in ("200", "409")
    )


def test_the_server_derives_what_answering_needs_before_it_listens(
    site: Site, tmp_path: Path
) -> None:
    """The first asker of a large store would otherwise wait while the records are indexed."""
    log = (tmp_path / "server.log").read_text(encoding="utf-8")
    assert "decisis: 2 records ready to answer from" in log, log


def test_the_decisions_on_paths(site: Site, api: httpx.Client) -> None:
    answer = api.get("/explain", params=[("path", "src/auth/login.py"), ("path", "x.md")])
    assert answer.status_code == 200, answer.text
    on_login, on_x = answer.json()
    assert on_login["path"] == "src/auth/login.py" and on_x == {"path": "x.md", "decisions": []}
    [item] = on_login["decisions"]
    assert item["id"] == site.sessions and item["pattern"] == "src/auth/**"
    assert item["named_by"] == site.jwt
    assert item["replaced"] == [{"id": site.jwt, "label": "Use JWT tokens"}]
    refused = api.get("/explain", params={"path": "x" * 5000})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "path"
    assert api.get("/explain").status_code == 422
