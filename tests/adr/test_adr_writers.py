"""Corrections and an ingest beside another process that never stops writing, on one real
SQLite file: each lands (``decisis.contention``), the other process loses no write, and the
ledger verifies. The writer is a real process running ``tests.adr.goal_writer``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import decisis
from decisis.adr import correct, ingest
from tests.adr.conftest import WriteFn

REPO = Path(__file__).resolve().parents[2]
RECORD = """# {title}

Date: 2024-0{month}-01

## Status

{status}

## Context

We need a message queue between the order and billing services.

## Decision

We will use {choice} as the message queue between the services.
"""
QUESTIONS = [
    ("Which message queue do the order and billing services use?", "team:0002"),
    ("What do we use as the message queue?", "team:0001"),
    ("Is RabbitMQ our message queue between the services?", "team:0002"),
]


def _head(graph: decisis.Graph) -> int:
    return graph.store.head(graph.name)[0]


def _until(done: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the writer did not write"
        time.sleep(0.01)


@pytest.mark.slow
def test_corrections_and_an_ingest_land_while_another_process_keeps_writing(
    tmp_path: Path, team: Path, write: WriteFn
) -> None:
    write(
        "0001-use-rabbitmq.md",
        RECORD.format(title="Use RabbitMQ", month=1, status="Accepted", choice="RabbitMQ"),
    )
    write(
        "0002-use-kafka.md",
        RECORD.format(title="Use Kafka", month=6, status="Accepted", choice="Kafka"),
    )
    more = tmp_path / "more"
    more.mkdir()
    (more / "0001-use-jaeger.md").write_text(
        RECORD.format(title="Use Jaeger", month=3, status="Accepted", choice="Jaeger"),
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'g.db'}"
    stop = tmp_path / "stop"
    with decisis.open(url) as graph:
        ingest(graph, team)
        writer = subprocess.Popen(
            [sys.executable, "-m", "tests.adr.goal_writer", url, graph.name, str(stop)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
            started = _head(graph)
            _until(lambda: _head(graph) >= started + 20)  # writing steadily by now
            landed = [correct(graph, question, key) for question, key in QUESTIONS]
            added = ingest(graph, more).added
            after = _head(graph)
            _until(lambda: _head(graph) >= after + 20)  # and still writing after them
        finally:
            stop.touch()
            out, _ = writer.communicate(timeout=120)
        assert writer.returncode == 0
        report = json.loads(out.strip().splitlines()[-1])
        assert report["errors"] == [] and report["written"] > 40
        assert added == ["more:0001"]
        seqs = [graph.history(c.node)[0].seq for c in landed]
        assert all(c.key == key for c, (_, key) in zip(landed, QUESTIONS, strict=True))
        steady = [
            e.seq
            for e in graph.events()
            if e.kind == "node.added" and e.payload["node"]["label"].startswith("steady goal")
        ]
        assert min(steady) < min(seqs) and max(steady) > max(seqs)  # it wrote throughout
        assert len(steady) == report["written"]  # every write of the writer is in the ledger
        assert graph.verify().ok
