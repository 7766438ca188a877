"""An append is two round trips, and the fold it runs on the records it reads agrees with
the reference on batches whose drafts depend on each other and on what is stored."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decisis.errors import CycleError, DecisisError, NotFound
from decisis.model import EdgeType, EventDraft, LinkState, new_id
from decisis.model import events as drafts
from decisis.stores import Store
from decisis.stores.memory import MemoryStore
from decisis.stores.postgres import PostgresStore, writes
from decisis.stores.replay import verify
from tests.stores.helpers import (
    at,
    edge_added,
    edge_updated,
    event_key,
    make_edge,
    make_node,
    node_added,
    node_updated,
    superseded,
    tombstoned,
)

Conn = psycopg.Connection[tuple[Any, ...]]


@contextmanager
def traced(conn: Conn) -> Iterator[list[str]]:
    """The direction (``F`` client, ``B`` server) of each protocol message sent inside."""
    directions: list[str] = []
    with tempfile.TemporaryFile("w+") as log:
        conn.pgconn.trace(log.fileno())
        conn.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            yield directions
        finally:
            conn.pgconn.untrace()  # flushes the log
            log.seek(0)
            directions += [line.split("\t", 1)[0] for line in log if line.strip()]


def round_trips(conn: Conn, work: Callable[[], object]) -> int:
    """How many times the client waited for the server: each switch from sending to reading."""
    with traced(conn) as directions:
        work()
    return sum(1 for pair in pairwise(directions) if pair == ("F", "B"))


def _decision_batch(goal: str) -> list[EventDraft]:
    decision = make_node("Use PostgreSQL")
    return [node_added(decision), edge_added(make_edge(goal, decision))]


@pytest.mark.parametrize("size", [1, 500])
def test_an_append_is_two_round_trips_whatever_its_size(pg_url: str, size: int) -> None:
    PostgresStore(pg_url).close()  # migrate
    with psycopg.connect(pg_url, autocommit=True) as conn:
        goal = make_node("Ship the ledger")
        first = round_trips(conn, lambda: writes.append_committed(conn, "g", [node_added(goal)]))
        batch = [draft for _ in range(size) for draft in _decision_batch(goal.id)]
        later = round_trips(conn, lambda: writes.append_committed(conn, "g", batch))
    assert (first, later) == (2, 2)  # the first creates the graph's head row on the way


def test_a_refused_batch_costs_one_more_round_trip_and_leaves_nothing(pg_url: str) -> None:
    with PostgresStore(pg_url) as store:
        goal = make_node("Ship the ledger")
        store.append("g", [node_added(goal)])
    with psycopg.connect(pg_url, autocommit=True) as conn:
        refused = [*_decision_batch(goal.id), edge_added(make_edge(goal, new_id()))]

        def append() -> None:
            with pytest.raises(NotFound, match="in graph 'g'"):
                writes.append_committed(conn, "g", refused)

        assert round_trips(conn, append) == 3
        assert conn.info.transaction_status is psycopg.pq.TransactionStatus.IDLE
    with PostgresStore(pg_url) as store:
        assert store.head("g")[0] == 1 and len(store.nodes("g")) == 1


def test_a_cycle_through_the_batch_and_the_stored_graph_is_refused(pg_store: Store) -> None:
    a, b, c = (make_node(label) for label in "abc")
    pg_store.append("g", [node_added(a), node_added(b), node_added(c), superseded(c, b)])
    # a -> b is new in the batch, b -> c is stored: superseding a by c would close a cycle.
    link = make_edge(a, b, EdgeType.SUPERSEDES)
    with pytest.raises(CycleError):
        pg_store.append("g", [edge_added(link), superseded(a, c)])
    assert pg_store.head("g")[0] == 4


def test_tombstone_marks_stored_and_batch_entries_as_read_back(pg_store: Store) -> None:
    node = make_node("recorded by mistake")
    pg_store.append("g", [node_added(node)])
    batch = [node_updated(node, label="renamed"), tombstoned(node, reason="wrong graph")]
    returned = pg_store.append("g", batch)
    stored = list(pg_store.events("g"))
    assert [event_key(e) for e in returned] == [event_key(e) for e in stored[1:]]
    assert [e.invalidated_reason for e in stored] == ["wrong graph", "wrong graph", None]


@pytest.mark.parametrize("rule", ["same-question", "règle\u200bcachée", 'quote " in it'])
def test_a_rule_moves_its_stored_and_new_links_as_the_reference_does(
    pg_store: Store, rule: str
) -> None:
    a, b, c, d = (make_node(label) for label in "abcd")
    judged: dict[str, Any] = {
        "state": LinkState.CANDIDATE,
        "confidence": 0.5,
        "metadata": {"rule": rule},
    }
    stored = make_edge(b, a, EdgeType.SUPERSEDES, **judged)
    other = make_edge(c, a, EdgeType.SUPERSEDES, **(judged | {"metadata": {"rule": "other"}}))
    new = make_edge(d, c, EdgeType.SUPERSEDES, **judged)  # the batch names no stored link
    history = [
        [*map(node_added, (a, b, c, d)), edge_added(stored), edge_added(other)],
        [edge_added(new), drafts.rule_trusted(rule, 3, 1, 0.75, at(1))],
    ]
    reference = MemoryStore()
    for batch in history:
        assert _outcome(pg_store, "g", batch) == _outcome(reference, "g", batch)
    assert _shown(pg_store, "g") == _shown(reference, "g")
    moved = {e.id: e.confidence for e in pg_store.edges("g")}
    assert moved == {stored.id: 0.75, other.id: 0.5, new.id: 0.75}


# -- random batches against the reference --------------------------------------------------
RULES = ("same-question", "title-match")
OPS = (
    "node",
    "edge",
    "candidate",
    "supersede",
    "tombstone node",
    "tombstone edge",
    "update node",
    "update edge",
    "trust",
)
GHOST = 97  # picks from here on name an id never seen
pick = st.integers(min_value=0, max_value=99)
ops = st.lists(st.tuples(st.sampled_from(OPS), pick, pick, pick), min_size=1, max_size=6)


class Batches:
    """Builds batches from drawn operations; the ids it hands out include ones made earlier
    in the same batch, so drafts depend on each other as well as on what is stored."""

    def __init__(self) -> None:
        self.nodes: list[str] = []
        self.edges: list[str] = []
        self.minute = 0

    def seed(self) -> list[EventDraft]:
        """Four nodes and two unjudged links of each rule, so batches have records to touch."""
        batch = [self.draft("node", 0, 0, 0) for _ in range(4)]
        return batch + [self.draft("candidate", i, i + 1, i) for i in range(4)]

    def _pick(self, pool: list[str], index: int) -> str:
        return new_id() if index >= GHOST or not pool else pool[index % len(pool)]

    def draft(self, op: str, i: int, j: int, k: int) -> EventDraft:
        self.minute += 1
        when, rule = at(self.minute), RULES[k % 2]
        node, other = self._pick(self.nodes, i), self._pick(self.nodes, j)
        if op == "node":
            made = make_node(f"node {self.minute}", when=when)
            self.nodes.append(made.id)
            return node_added(made)
        if op in ("edge", "candidate") and node != other:
            kind = EdgeType.LEADS_TO if op == "edge" else EdgeType.SUPERSEDES
            extra: dict[str, Any] = {
                "state": LinkState.CANDIDATE,
                "confidence": 0.5,
                "metadata": {"rule": rule},
            }
            edge = make_edge(node, other, kind, when=when, **(extra if op == "candidate" else {}))
            self.edges.append(edge.id)
            return edge_added(edge)
        if op == "supersede" and node != other:
            state = LinkState.CANDIDATE if k % 2 else LinkState.STATED
            link = make_edge(
                other, node, EdgeType.SUPERSEDES, when=when, state=state, metadata={"rule": rule}
            )
            self.edges.append(link.id)
            return drafts.superseded(node, other, link, when)
        if op == "tombstone edge":
            return tombstoned(self._pick(self.edges, i), "edge", reason=f"r{k}")
        if op == "update edge":
            changes: list[dict[str, Any]] = [
                {"state": "confirmed"},
                {"confidence": 0.25},
                {"metadata": {"rule": rule}},
            ]
            return edge_updated(self._pick(self.edges, i), when, **changes[k % 3])
        if op == "trust":
            successes, failures = 1 + j % 4, 1 + k % 3
            mean = round(successes / (successes + failures), 6)
            return drafts.rule_trusted(rule, successes, failures, mean, when)
        if op == "update node":
            return node_updated(node, when, label=f"renamed {k}")
        return tombstoned(node, "node", reason=f"r{k}")


def _outcome(store: Store, graph: str, batch: list[EventDraft]) -> Any:
    """The entries an append returned, whole (a tombstone later in the batch marks the
    entries before it in both stores), or the class of its refusal."""
    try:
        return [event_key(event) for event in store.append(graph, batch)]
    except DecisisError as exc:
        return type(exc)


def _shown(store: Store, graph: str) -> tuple[Any, ...]:
    return (
        store.nodes(graph, include_tombstoned=True),
        store.edges(graph, include_tombstoned=True),
        [event_key(event) for event in store.events(graph)],
        store.head(graph),
    )


def test_random_batches_agree_with_the_reference(pg_store: Store) -> None:
    reference = MemoryStore()
    graphs = iter(range(10**6))

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.lists(ops, min_size=1, max_size=8))
    def run(batches: list[list[tuple[str, int, int, int]]]) -> None:
        graph, maker = f"g{next(graphs)}", Batches()
        for batch in [maker.seed(), *([maker.draft(*op) for op in drawn] for drawn in batches)]:
            expected = _outcome(reference, graph, batch)
            assert _outcome(pg_store, graph, batch) == expected
        assert _shown(pg_store, graph) == _shown(reference, graph)
        assert verify(pg_store, graph).ok

    run()


# -- plans -----------------------------------------------------------------------------------
_KEYED = re.compile(r"Index Cond: \(\(graph = [^)]*\) AND \((id|source|entity|seq) = ")


def test_appends_look_records_up_by_key_as_a_graph_grows_unanalyzed(pg_url: str) -> None:
    """A bulk-loaded graph has no statistics until autovacuum analyzes it, and a statement
    prepared while the tables were nearly empty keeps its plan as they grow. Every lookup an
    append makes must still go through a whole key (the rule's links excepted: no index
    holds the rule, so they are read from the graph's supersedes edges, as before)."""
    PostgresStore(pg_url).close()  # migrate
    plans: list[str] = []
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.add_notice_handler(lambda diag: plans.append(diag.message_primary or ""))
        for setting in (
            "LOAD 'auto_explain'",
            "SET auto_explain.log_min_duration = 0",
            "SET auto_explain.log_nested_statements = on",
            "SET auto_explain.log_level = notice",
            "SET client_min_messages = notice",
        ):
            conn.execute(setting)
        goal = make_node("goal")
        writes.append_committed(conn, "g", [node_added(goal)])
        for _ in range(12):  # prepared from the 6th, generic plans from the 11th
            writes.append_committed(conn, "g", _decision_batch(goal.id))
        nodes = [make_node(f"n{i}") for i in range(1500)]
        links = [make_edge(a, b) for a, b in pairwise(nodes)]
        grown = [node_added(n) for n in nodes] + [edge_added(e) for e in links]
        writes.append_committed(conn, "g", grown)
        plans.clear()
        a, b, c = nodes[:3]
        for batch in (
            _decision_batch(a.id),
            [superseded(a, b), superseded(b, c)],
            [node_updated(c, label="renamed"), tombstoned(links[5], "edge")],
            [edge_updated(links[7], state="confirmed")],
            [drafts.rule_trusted("same-question", 2, 1, 0.666667, at(1))],
            _decision_batch(c.id),
        ):
            writes.append_committed(conn, "g", batch)
    plans = [plan for plan in plans if "plan:" in plan]
    assert len(plans) >= 5 * 6  # the lock, the head's entry, the two reads, the write, more
    for plan in plans:
        assert "Seq Scan on" not in plan and "Hash Join" not in plan, plan
        if "strpos(" in plan:  # the rule's links
            continue
        lines = plan.splitlines()
        for before, line in zip(["", *lines], lines, strict=False):
            if "Index Cond:" in line and "heads_pkey" not in before:  # heads: keyed by graph
                assert _KEYED.search(line) or "(graph = " not in line, plan
