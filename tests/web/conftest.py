"""Fixtures for the web tests: ``decisis serve`` as a real subprocess over a SQLite file with a
small decision graph and two ADRs, and a real headless Chromium for the pages."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import decisis
from decisis.adr.link.ingest import ingest
from tests.agent.conftest import write_adrs
from tests.servers import running


@dataclass(frozen=True)
class Site:
    """A running server and what its store holds."""

    url: str  # http://127.0.0.1:PORT
    db: Path
    goal: str
    jwt: str  # superseded by sessions
    sessions: str
    hostile: str  # a decision whose label and metadata are markup, its label a bidi override
    token: str | None = None  # every request must carry it, when set


def tamper(db: Path) -> None:
    """Change the first ledger event behind the store's back, as an intruder would."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE ledger SET at = '2001-01-01T00:00:00.000000Z' WHERE seq = 1")


def _build(db: Path, folder: Path) -> dict[str, str]:
    with decisis.open(f"sqlite:///{db}") as g:
        goal = g.add_goal("Ship the payments service")
        jwt = g.record_decision(
            "Use JWT tokens",
            goal=goal.id,
            rationale="Stateless",
            metadata={"affects": ["src/auth/**"], "commits": ["0" * 40]},
        )
        sessions = g.record_decision("Use server sessions", goal=goal.id)
        g.supersede(jwt.id, sessions.id, rationale="Sessions can be revoked")
        hostile = g.record_decision(
            "<script>window.pwned = 1</script> Use <b>bold</b> names \u202edetacilper",
            metadata={"note": "<img src=x onerror='window.pwned = 2'>"},
        )
        ingest(g, write_adrs(folder))
    return {"goal": goal.id, "jwt": jwt.id, "sessions": sessions.id, "hostile": hostile.id}


TOKEN = "correct-horse-battery-staple"


def serve(tmp_path: Path, token: str | None, options: Sequence[str] = ()) -> Iterator[Site]:
    """``decisis serve [OPTIONS]`` over a new SQLite file in ``tmp_path``, until the caller is
    done."""
    db = tmp_path / "web.db"
    ids = _build(db, tmp_path / "adrs")
    args = ["--store", f"sqlite:///{db}", "serve", *options]
    args += ["--token", token] if token else []
    with running(args, tmp_path / "server.log") as port:
        yield Site(f"http://127.0.0.1:{port}", db, **ids, token=token)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from serve(tmp_path, None)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Site]:
    """The same site, served with a token."""
    yield from serve(tmp_path, TOKEN)


def chromium_path() -> str:
    """The system Chromium the page tests drive; they fail, never skip, without one."""
    found = os.environ.get("DECISIS_TEST_CHROMIUM") or shutil.which("chromium")
    assert found, (
        "no Chromium for the page tests: install Debian's chromium (.ci/run does) "
        "or set DECISIS_TEST_CHROMIUM to a Chromium binary"
    )
    return found


# Every name under .example reaches this machine in the browser, as a name an attacker
# controls can (DNS rebinding), and as another site: attacker.example's pages are cross-site.
RESOLVE = "--host-resolver-rules=MAP *.example 127.0.0.1"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One Chromium for a module's page tests, closed after them: Playwright's sync API runs
    an event loop on this thread while it lives, which later asyncio tests must not meet."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium_path(), args=[RESOLVE])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page of its own browser context (no cookies shared with other tests)."""
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()
