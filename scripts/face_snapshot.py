"""Snapshot everything decisis shows the outside: the CLI's --json output, the JSON API's
bodies and OpenAPI document, the decision tools' JSON Schemas and results; compare two.

A refactoring of the front doors must leave every byte of these alone. Take a snapshot
before, one after, and compare (ids and times come from one graph built once, so they
agree; a write's new ids and times are masked)::

    python scripts/face_snapshot.py build /tmp/face            # once: the graph to read
    python scripts/face_snapshot.py take /tmp/face before.json
    ... change the code ...
    python scripts/face_snapshot.py take /tmp/face after.json
    python scripts/face_snapshot.py compare before.json after.json
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

CORPUS = Path(__file__).resolve().parent.parent / "data" / "adr-corpus"
QUESTIONS = (
    "Which CI system builds our services now?",
    "Do we still keep our secrets in Vault?",
    "Which service mesh do we run?",
    "How do we deploy to production?",
    "?!",
)
PLAN = "1. Use JWT tokens for the API\n2. Log as JSON\n3. Deploy with the usual pipeline"
_ID = re.compile(r"\b0[0-9a-z]{25}\b")  # time-ordered ids, and the prefixes agents see
_SHORT = re.compile(r"\b0[0-9a-z]{12}\b")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
_SUM = re.compile(r"sha256:[0-9a-f]{64}")


def _mask(text: str) -> str:
    """A write's output with its new ids, times and checksums replaced by placeholders."""
    for pattern, name in ((_SUM, "<sum>"), (_ID, "<id>"), (_TIME, "<time>"), (_SHORT, "<sid>")):
        text = pattern.sub(name, text)
    return text


def build(folder: Path) -> None:
    """A graph with a goal tree, a supersession, an outcome, a stale dependent, affected
    paths, a tombstone and the ADR corpus ingested: something for every read."""
    import decisis
    from decisis.adr import ingest

    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "face.db"
    db.unlink(missing_ok=True)
    with decisis.open(f"sqlite:///{db}") as graph:
        goal = graph.add_goal("Ship the payments service", confidence=0.9)
        old = graph.record_decision(
            "Use JWT tokens",
            goal=goal.id,
            chosen=["JWT"],
            rejected=["API keys"],
            rationale="Stateless",
            metadata={"affects": ["src/auth/**"]},
        )
        new = graph.record_decision("Use server sessions", goal=goal.id, confidence=0.8)
        graph.record_outcome("Tokens could not be revoked", decision=old.id)
        signing = graph.record_decision("Sign tokens with RS256", goal=goal.id)
        graph.link(signing.id, old.id, "requires")
        graph.supersede(old.id, new.id, rationale="Sessions can be revoked")
        graph.record_decision("Log as JSON", metadata={"nested": {"list": [1, "two", None]}})
        gone = graph.record_decision("A mistake")
        graph.tombstone(gone.id, reason="recorded by mistake")
        ingest(graph, CORPUS)


def _copy(folder: Path, name: str) -> Path:
    target = folder / f"{name}.db"
    shutil.copyfile(folder / "face.db", target)
    return target


def _ids(db: Path) -> dict[str, str]:
    import decisis

    with decisis.open(f"sqlite:///{db}") as graph:
        nodes = {n.label: n.id for n in graph.nodes(limit=10_000)}
        old = nodes["Use JWT tokens"]
        edge = graph.edges(old)[0].id
        when = graph.get(nodes["Log as JSON"]).recorded_at.isoformat()
    return {
        "goal": nodes["Ship the payments service"],
        "old": old,
        "new": nodes["Use server sessions"],
        "outcome": nodes["Tokens could not be revoked"],
        "signing": nodes["Sign tokens with RS256"],
        "edge": edge,
        "when": when,
    }


def _cli(folder: Path, ids: dict[str, str]) -> dict[str, str]:
    from typer.testing import CliRunner

    from decisis.cli.app import app

    env = {"COLUMNS": "250", "NO_COLOR": "1", "DECISIS_STORE": None, "DECISIS_GRAPH": None}
    reads = [
        ["goals"],
        ["recent"],
        ["list", "--limit", "30"],
        ["show", ids["old"]],
        ["show", ids["edge"]],
        ["current", ids["old"]],
        ["why", ids["outcome"]],
        ["impact", ids["goal"]],
        ["ancestors", ids["outcome"]],
        ["descendants", ids["goal"]],
        ["path", ids["goal"], ids["outcome"]],
        ["search", "JWT"],
        ["search", "kubernetes"],
        ["precedents", "how do we authenticate users"],
        ["at", ids["when"]],
        ["at", ids["when"], "--nodes"],
        ["stale"],
        ["check", PLAN],
        ["verify"],
        ["log", "--limit", "20"],
        ["graphs"],
        ["learned"],
        ["provenance", ids["old"]],
        ["show", "nosuchid"],
        ["current", "0"],
    ]
    reads += [["ask", q] for q in QUESTIONS]
    writes = [
        ["add", "goal", "Another goal"],
        ["correct", QUESTIONS[0], "cloud-platform:040"],
        ["reaffirm", ids["signing"]],
    ]
    out: dict[str, str] = {}
    runner = CliRunner()
    for i, args in enumerate([*reads, *writes]):
        db = _copy(folder, f"cli{i}")
        result = runner.invoke(app, ["--store", f"sqlite:///{db}", "--json", *args], env=env)
        text = f"exit {result.exit_code}\n{result.stdout}"
        out["cli " + " ".join(args)] = _mask(text) if args in writes else text
    return out


def _api(folder: Path, ids: dict[str, str]) -> dict[str, str]:
    from fastapi.testclient import TestClient

    import decisis
    from decisis.web import create_app

    gets = [
        "/api/nodes",
        "/api/nodes?type=Decision&newest_first=true&limit=7",
        f"/api/nodes/{ids['old']}",
        f"/api/nodes/{ids['old']}/neighbourhood",
        f"/api/edges/{ids['edge']}",
        "/api/goals",
        "/api/recent",
        f"/api/current/{ids['old']}",
        f"/api/why/{ids['outcome']}",
        f"/api/impact/{ids['goal']}",
        f"/api/path?source={ids['goal']}&target={ids['outcome']}",
        "/api/explain?path=src/auth/login.py&path=README.md",
        "/api/search?q=JWT",
        "/api/precedents?q=how+do+we+authenticate+users",
        f"/api/at?time={quote(ids['when'])}",
        "/api/ledger?after=3&limit=5",
        "/api/verify",
        "/api/learned",
        "/api/tools",
        "/api/nodes/nosuchid",
        "/api/nodes?limit=0",
    ]
    posts: list[tuple[str, Any]] = [("/api/ask", {"question": q}) for q in QUESTIONS]
    posts += [
        ("/api/ask", {"qestion": "x"}),
        ("/api/corrections", {"question": QUESTIONS[0], "key": "cloud-platform:040"}),
        ("/api/tools/query_decisions", {"kind": "current", "id": ids["old"]}),
        ("/api/tools/add_goal", {"label": ""}),
        ("/api/tools/no_tool", {}),
    ]
    out: dict[str, str] = {}
    with decisis.open(f"sqlite:///{_copy(folder, 'api')}") as graph:
        client = TestClient(create_app(graph), base_url="http://127.0.0.1")
        out["openapi"] = json.dumps(client.get("/openapi.json").json(), indent=1)
        for url in gets:
            response = client.get(url)
            out[f"GET {url}"] = f"{response.status_code}\n{response.text}"
        for url, body in posts:
            response = client.post(url, json=body)
            out[f"POST {url} {json.dumps(body)}"] = _mask(
                f"{response.status_code}\n{response.text}"
            )
    return out


def _tools(folder: Path, ids: dict[str, str]) -> dict[str, str]:
    import decisis
    from decisis.agent import TOOLS, Toolbox, anthropic_tools, openai_tools, responses_tools

    out = {f"schema {spec.name}": json.dumps(spec.schema, indent=1) for spec in TOOLS}
    out["openai_tools"] = json.dumps(openai_tools(), indent=1)
    out["responses_tools"] = json.dumps(responses_tools(), indent=1)
    out["anthropic_tools"] = json.dumps(anthropic_tools(), indent=1)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("query_decisions", {"kind": "active_goals"}),
        ("query_decisions", {"kind": "recent"}),
        ("query_decisions", {"kind": "current", "id": ids["old"]}),
        ("query_decisions", {"kind": "why", "id": ids["outcome"]}),
        ("current_decision", {"question": QUESTIONS[0]}),
        ("current_decision", {"question": "Use JWT tokens?"}),
        ("decisions_for", {"paths": ["src/auth/login.py"]}),
        ("find_decisions", {"search": "JWT"}),
        ("find_precedents", {"situation": "how do we authenticate users"}),
        ("stale_dependents", {}),
        ("check_plan", {"plan": PLAN}),
        ("query_decisions", {"kind": "path"}),
        ("add_goal", {"label": "x", "colour": "red"}),
        ("record_decision", {"label": "Use Redis", "goal_id": ids["goal"], "chosen": ["R"]}),
        ("supersede_decision", {"old_id": ids["new"], "new_label": "Use passkeys"}),
        ("correct_decision", {"question": QUESTIONS[1], "correct_decision_id": None}),
    ]
    with decisis.open(f"sqlite:///{_copy(folder, 'tools')}") as graph:
        box = Toolbox(graph)
        for name, args in calls:
            result = box.call(name, args)
            out[f"tool {name} {json.dumps(args)}"] = _mask(f"{result.is_error}\n{result.text}")
    out["tool disabled"] = Toolbox(None).call("add_goal", {"label": "x"}).text
    return out


def take(folder: Path, target: Path) -> None:
    ids = _ids(folder / "face.db")
    parts: list[Callable[[Path, dict[str, str]], dict[str, str]]] = [_cli, _api, _tools]
    snapshot: dict[str, str] = {}
    for part in parts:
        snapshot.update(part(folder, ids))
    target.write_text(json.dumps(snapshot, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{len(snapshot)} outputs written to {target}")


def compare(before: Path, after: Path) -> int:
    old = json.loads(before.read_text("utf-8"))
    new = json.loads(after.read_text("utf-8"))
    differ = [k for k in sorted(old.keys() | new.keys()) if old.get(k) != new.get(k)]
    for key in differ:
        print(f"DIFFERS: {key}")
    print(f"{len(old)} outputs before, {len(new)} after, {len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["build"] and len(argv) == 2:
        build(Path(argv[1]))
        return 0
    if argv[:1] == ["take"] and len(argv) == 3:
        take(Path(argv[1]), Path(argv[2]))
        return 0
    if argv[:1] == ["compare"] and len(argv) == 3:
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
