"""``decisis mcp`` as a real subprocess, driven by the official SDK client over both transports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import CallToolResult, TextContent, TextResourceContents

import decisis
from decisis.adr.link.ingest import ingest
from decisis.agent import TOOLS
from tests.agent.conftest import write_adrs
from tests.servers import running

Session = ClientSession


@pytest.fixture
def store(tmp_path: Path) -> str:
    """A SQLite store with the two team ADRs ingested (team:002 supersedes team:001)."""
    url = f"sqlite:///{tmp_path / 'mcp.db'}"
    with decisis.open(url) as g:
        ingest(g, write_adrs(tmp_path))
    return url


@pytest.fixture
def http_server(store: str, tmp_path: Path) -> Iterator[str]:
    with running(["--store", store, "mcp", "--http"], tmp_path / "server.log") as port:
        yield f"http://127.0.0.1:{port}/mcp"


@asynccontextmanager
async def stdio_session(store: str, log: Path) -> AsyncIterator[Session]:
    args = ["-m", "decisis", "--store", store, "mcp"]
    # the SDK hands the server a bare environment: keep the sources under test on its path
    path = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
    params = StdioServerParameters(command=sys.executable, args=args, env=path)
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


TOKEN = "a-token-for-the-mcp-test"


@pytest.fixture
def guarded_server(store: str, tmp_path: Path) -> Iterator[str]:
    args = ["--store", store, "mcp", "--http", "--token", TOKEN]
    with running(args, tmp_path / "server.log") as port:
        yield f"http://127.0.0.1:{port}/mcp"


@asynccontextmanager
async def http_session(url: str, token: str | None = None) -> AsyncIterator[Session]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with (
        create_mcp_http_client(headers=headers) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    [block] = result.content
    assert isinstance(block, TextContent)
    parsed = json.loads(block.text)
    assert parsed == result.structured_content
    assert isinstance(parsed, dict)
    return parsed


def error(result: CallToolResult) -> dict[str, Any]:
    assert result.is_error
    [block] = result.content
    assert isinstance(block, TextContent)
    err = json.loads(block.text)["error"]
    assert isinstance(err, dict)
    return err


async def exercise(session: Session) -> None:
    """List the tools, call every one, read the context, and send bad arguments."""
    listed = {t.name: t for t in (await session.list_tools()).tools}
    assert listed.keys() == {spec.name for spec in TOOLS}
    for spec in TOOLS:
        assert listed[spec.name].input_schema == spec.schema
        assert listed[spec.name].description == spec.description

    goal = data(await session.call_tool("add_goal", {"label": "Ship CI"}))["goal"]["id"]
    made = await session.call_tool(
        "record_decision", {"label": "Use Jenkins", "goal_id": goal, "rejected": ["Travis"]}
    )
    dec = data(made)["decision"]["id"]
    data(await session.call_tool("record_outcome", {"label": "Builds slow", "decision_id": dec}))
    why = data(await session.call_tool("query_decisions", {"kind": "why", "id": dec}))
    assert [n["label"] for n in why["nodes"]] == ["Ship CI"]
    swap = {"old_id": dec, "new_label": "Use GitHub Actions for CI"}
    assert (
        data(await session.call_tool("supersede_decision", swap))["standing"]["status"] == "active"
    )
    question = "Do we build on a Jenkins server?"
    asked = data(await session.call_tool("current_decision", {"question": question}))
    assert asked["answer"] == "team:002"
    hits = data(await session.call_tool("find_decisions", {"search": "GitHub Actions"}))["hits"]
    assert hits
    similar = {"situation": "which service runs our builds?", "k": 3}
    found = data(await session.call_tool("find_precedents", similar))["precedents"]
    assert found and all(p["found_by"] for p in found)
    ruled = {"label": "Pipelines live in ci/", "affects": ["ci/**"], "rationale": "One place"}
    ruled_id = data(await session.call_tool("record_decision", ruled))["decision"]["id"]
    on_files = {"paths": ["ci/build.yml", "README.md"]}
    governed = data(await session.call_tool("decisions_for", on_files))["paths"]
    assert [p["path"] for p in governed] == ["ci/build.yml", "README.md"]
    [rule] = governed[0]["decisions"]
    assert rule["id"] == ruled_id and rule["pattern"] == "ci/**" and not governed[1]["decisions"]
    bad_path = error(await session.call_tool("record_decision", {"label": "x", "affects": [".."]}))
    assert bad_path["field"] == "affects" and "leaves the repository" in bad_path["message"]
    fix = {"question": "Where do builds run?", "correct_decision_id": "team:002"}
    assert data(await session.call_tool("correct_decision", fix))["answer"] == "team:002"

    [content] = (await session.read_resource("decisis://context")).contents
    assert isinstance(content, TextResourceContents)
    assert "Ship CI" in content.text and "Use GitHub Actions for CI" in content.text

    bad = error(await session.call_tool("record_decision", {"label": "x", "chosen": "one"}))
    assert "chosen" in bad["message"] and "chosen (array)" in bad["allowed"]
    missing = error(await session.call_tool("query_decisions", {"kind": "ancestors"}))
    assert "needs id" in missing["message"]
    unknown = error(await session.call_tool("record_outcome", {"label": "x", "decision_id": "zz"}))
    assert unknown["type"] == "NotFound"
    nosuch = error(await session.call_tool("drop_tables", {}))
    assert "add_goal" in nosuch["allowed"]


def test_stdio_transport(store: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with stdio_session(store, tmp_path / "stdio.log") as session:
            await exercise(session)

    anyio.run(main)


def test_streamable_http_transport(http_server: str) -> None:
    async def main() -> None:
        async with http_session(http_server) as session:
            await exercise(session)

    anyio.run(main)


def test_a_token_guards_the_http_transport(guarded_server: str, store: str) -> None:
    hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    for headers in ({}, {"Authorization": "Bearer not-the-token-at-all"}):
        refused = httpx.post(guarded_server, json=hello, headers=headers)
        assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert refused.json()["error"]["type"] == "Unauthorized"
    call = {"name": "add_goal", "arguments": {"label": "Sneaked in"}}
    add = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
    assert httpx.post(guarded_server, json=add).status_code == 401
    with decisis.open(store) as graph:
        assert not graph.active_goals()  # the refused call changed nothing

    async def main() -> None:
        async with http_session(guarded_server, TOKEN) as session:
            await exercise(session)

    anyio.run(main)


def test_a_store_that_cannot_open_serves_disabled_tools(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")

    async def main() -> None:
        url = f"sqlite:///{blocker}/sub/d.db"
        async with stdio_session(url, tmp_path / "stdio.log") as session:
            assert len((await session.list_tools()).tools) == len(TOOLS)
            err = error(await session.call_tool("add_goal", {"label": "x"}))
            assert err["type"] == "ToolsDisabled" and "did not open" in err["message"]

    anyio.run(main)
    assert "disabled" in (tmp_path / "stdio.log").read_text()


_HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
_STREAMS = {"Accept": "application/json, text/event-stream"}


def test_http_answers_only_the_host_names_it_is_given(store: str, tmp_path: Path) -> None:
    """DNS rebinding: a page on another site that points its own name at this machine still
    names it in ``Host``; ``--allow-host`` adds a name, as for ``decisis serve``."""
    args = ["--store", store, "mcp", "--http", "--allow-host", "decisions.internal"]
    with running(args, tmp_path / "server.log") as port:
        url = f"http://127.0.0.1:{port}/mcp"
        refused = httpx.post(url, json=_HELLO, headers=_STREAMS | {"Host": "evil.example"})
        assert refused.status_code == 421
        body = refused.json()["error"]
        assert body["field"] == "host" and "--allow-host evil.example" in body["allowed"]
        named = {"Host": f"decisions.internal:{port}"}
        assert httpx.post(url, json=_HELLO, headers=_STREAMS | named).status_code == 200
        assert httpx.post(url, json=_HELLO, headers=_STREAMS).status_code == 200  # 127.0.0.1
        forged = _STREAMS | {"Origin": "http://evil.example"}
        assert httpx.post(url, json=_HELLO, headers=forged).status_code == 403


def test_a_bad_allow_host_name_is_refused_before_serving(store: str, tmp_path: Path) -> None:
    import subprocess

    command = ["--store", store, "mcp", "--http", "--allow-host", "bad name/"]
    result = subprocess.run(
        [sys.executable, "-m", "decisis", *command],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and "bad name/" in result.stderr


def test_the_server_starts_without_the_answer_engine() -> None:
    """The import budget of #26: a server a client starts per session is ready without what
    only a tool call needs (the answer engine, the link rules, numpy load on the first ask)."""
    code = (
        "import sys; import decisis.mcp_server.server; "
        "heavy = ['numpy', 'decisis.adr.answer.engine', 'decisis.adr.link.rules']; "
        "print([m for m in heavy if m in sys.modules])"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECISIS_")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert result.stdout.strip() == "[]"
