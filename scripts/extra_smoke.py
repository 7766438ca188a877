"""CI: with only one extra installed, its door or feature starts and answers.

    .ci-extra/bin/python scripts/extra_smoke.py EXTRA [POSTGRES_URL]

EXTRA: web, mcp, postgres, duckdb, llm, proofs or prov.

Each check runs the installed ``decisis`` as a user would (a subprocess, real transports)
and exits non-zero, saying what failed, when the door does not answer. ``embeddings`` is
not checked alone: its sentence-transformers pulls a multi-GB torch build.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECISIS = [sys.executable, "-m", "decisis"]


def _run(*args: str) -> str:
    done = subprocess.run(
        [*DECISIS, *args], capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"decisis {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return done.stdout


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str, seconds: float = 60) -> bytes:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return bytes(answer.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def web(store: str) -> None:
    _run("--store", store, "add", "goal", "Ship the web door")
    port = _free_port()
    server = subprocess.Popen([*DECISIS, "--store", store, "serve", "--port", str(port)])
    try:
        goals = json.loads(_get(f"http://127.0.0.1:{port}/api/goals"))
        assert goals[0]["goal"]["label"] == "Ship the web door", goals
    finally:
        server.terminate()
        server.wait(30)


def mcp(store: str) -> None:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def main() -> None:
        args = ["-m", "decisis", "--store", store, "mcp"]
        params = StdioServerParameters(command=sys.executable, args=args)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            assert "record_decision" in tools, tools
            made = await session.call_tool("add_goal", {"label": "Ship the MCP door"})
            assert not made.is_error, made.content

    anyio.run(main)


def postgres(url: str) -> None:
    """In a schema of its own, dropped after: the server's other graphs are left alone."""
    import psycopg
    from psycopg import sql

    schema = f"decisis_extra_smoke_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        store = f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
        _run("--store", store, "add", "goal", "Ship the PostgreSQL store")
        assert "Ship the PostgreSQL store" in _run("--store", store, "goals")
        assert json.loads(_run("--store", store, "--json", "verify"))["ok"] is True
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def duckdb(store: str) -> None:
    _run("--store", store, "add", "goal", "Ship the DuckDB store")
    assert "Ship the DuckDB store" in _run("--store", store, "goals")
    assert json.loads(_run("--store", store, "--json", "verify"))["ok"] is True


def llm(store: str) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.got.fake_server import serve, sorting_script

    with serve(sorting_script) as server:
        out = _run(
            "--store", store, "--json", "think", "[3, 1, 2]", "--model", server.openai_url,
            "--task", "sort", "--no-stream",
        )  # fmt: skip
    assert json.loads(out)["result"]["content"] == "[1, 2, 3]", out


def proofs(store: str) -> None:
    """A key, a signed checkpoint, a proof checked by the standalone verifier."""
    with tempfile.TemporaryDirectory(prefix="decisis-proofs-") as tmp:
        key = str(Path(tmp) / "signer")
        _run("key", "new", key)
        node = json.loads(_run("--store", store, "--json", "add", "goal", "Sign it"))["id"]
        checkpoint = Path(tmp) / "checkpoint.json"
        _run("--store", store, "checkpoint", "--key", key, "--out", str(checkpoint))
        _run("--store", store, "verify", "--checkpoint", str(checkpoint), "--key", key + ".pub")
        proof = Path(tmp) / "proof.json"
        proof.write_text(_run("--store", store, "prove", node, "--checkpoint", str(checkpoint)))
        done = subprocess.run(
            [sys.executable, "-m", "decisis.proof", "verify", str(proof), "--key", key + ".pub"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            code = done.returncode
            raise SystemExit(f"python -m decisis.proof verify: exit {code}: {done.stderr}")


def prov(store: str) -> None:
    """The PROV-O export parses back with rdflib, the goal an entity in it."""
    import rdflib

    _run("--store", store, "add", "goal", "Ship the PROV-O export")
    turtle = _run("--store", store, "export", "--format", "prov-turtle")
    graph = rdflib.Graph().parse(data=turtle, format="turtle")
    query = (
        "PREFIX prov: <http://www.w3.org/ns/prov#> "
        "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
        "ASK { ?goal a prov:Entity ; rdfs:label 'Ship the PROV-O export' }"
    )
    assert graph.query(query).askAnswer, turtle


CHECKS: dict[str, Callable[[str], None]] = {
    "web": web,
    "mcp": mcp,
    "postgres": postgres,
    "duckdb": duckdb,
    "llm": llm,
    "proofs": proofs,
    "prov": prov,
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in CHECKS:
        print(f"usage: extra_smoke.py {{{'|'.join(CHECKS)}}} [POSTGRES_URL]", file=sys.stderr)
        return 2
    extra = argv[0]
    with tempfile.TemporaryDirectory(prefix="decisis-extra-") as tmp:
        if extra == "postgres":
            store = argv[1]
        elif extra == "duckdb":
            store = f"duckdb:///{Path(tmp) / 'smoke.duckdb'}"
        else:
            store = f"sqlite:///{Path(tmp) / 'smoke.db'}"
        CHECKS[extra](store)
    print(f"decisis[{extra}] alone: starts and answers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
