"""``decisis copy``: SQLite -> PostgreSQL -> SQLite keeps every event and checksum."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from decisis.cli.app import app
from decisis.stores import open_store
from decisis.stores.replay import verify
from tests.stores.helpers import (
    G,
    add_chain,
    add_node,
    event_key,
    node_updated,
    superseded,
    tombstoned,
)

ENV = {"COLUMNS": "250", "NO_COLOR": "1", "DECISIS_STORE": None, "DECISIS_GRAPH": None}


def _copy(*args: str) -> Any:
    result = CliRunner().invoke(app, ["--json", "copy", *args], env=ENV)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _ledger(url: str, graph: str = G) -> list[Any]:
    store = open_store(url)
    try:
        assert verify(store, graph).ok
        return [event_key(e) for e in store.events(graph)]
    finally:
        store.close()


def test_sqlite_to_postgres_and_back_keeps_every_checksum(tmp_path: Path, pg_url: str) -> None:
    first, last = f"sqlite:///{tmp_path}/first.db", f"sqlite:///{tmp_path}/last.db"
    store = open_store(first)
    try:
        old, new = add_chain(store, 2)
        store.append(G, [node_updated(old, label="renamed"), superseded(old, new)])
        gone = add_node(store, label="a mistake")
        store.append(G, [tombstoned(gone)])
        add_node(store, "other", label="another graph")
    finally:
        store.close()
    there = _copy(first, pg_url)
    assert [(d["graph"], d["checksums_match"]) for d in there] == [(G, True), ("other", True)]
    back = _copy(pg_url, last, "--graph", G)
    assert [d["graph"] for d in back] == [G]
    assert _ledger(first) == _ledger(pg_url) == _ledger(last)
    assert back[0]["head"] == there[0]["head"]


def test_a_renamed_copy_has_the_same_events_and_new_checksums(tmp_path: Path) -> None:
    source, target = f"sqlite:///{tmp_path}/a.db", f"sqlite:///{tmp_path}/b.db"
    store = open_store(source)
    try:
        add_chain(store, 3)
    finally:
        store.close()
    (done,) = _copy(source, target, "--graph", G, "--to", "renamed")
    assert done["to"] == "renamed" and done["events"] == 5 and not done["checksums_match"]
    copied = _ledger(target, "renamed")
    assert [row[2:6] for row in copied] == [row[2:6] for row in _ledger(source)]


def test_copying_into_a_graph_that_has_events_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/a.db"
    store = open_store(url)
    try:
        add_node(store)
    finally:
        store.close()
    result = CliRunner().invoke(app, ["copy", url, url], env=ENV)
    assert result.exit_code == 2
    assert "already has 1 events" in result.stderr
