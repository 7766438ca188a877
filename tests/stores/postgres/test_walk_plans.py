"""The traversal functions plan index lookups only, with or without table statistics.

A freshly loaded graph has no statistics until autovacuum analyzes it, and with
the default estimates a planner left free scans the whole graph's edges at every
level. ``auto_explain`` (it needs a superuser connection: the test fails, never skips,
when DECISIS_TEST_POSTGRES_URL names another role) reports the plan of
every statement the functions run; none may read a table other than through the
endpoint indexes of ``edges`` or the primary key of ``nodes``.
"""

from __future__ import annotations

import re
from datetime import timedelta

import psycopg

from decisis.model import EdgeType, utc_now
from decisis.stores.postgres import PostgresStore
from tests.stores.helpers import G, add_chain, add_edge

_SCAN = re.compile(
    r"((?:Parallel )?(?:Seq|Index Only|Index|Bitmap Heap) Scan)(?: using (\w+))? on (\w+)"
)
_ALLOWED = {"edges_by_source", "edges_by_target", "nodes_pkey"}
_FORBIDDEN = ("Hash Join", "Merge Join", "Hash Anti", "Hash Semi", "Seq Scan", "Bitmap")


def _plans(pg_url: str, calls: list[tuple[str, tuple[object, ...]]]) -> list[str]:
    """The auto_explain plans of every statement ``calls`` ran, nested ones included."""
    plans: list[str] = []
    with psycopg.connect(pg_url, autocommit=True) as conn:
        is_super = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        row = is_super.fetchone()
        assert row is not None and row[0], (
            "auto_explain needs a superuser: point DECISIS_TEST_POSTGRES_URL at one"
        )
        conn.add_notice_handler(lambda diag: plans.append(diag.message_primary or ""))
        for setting in (
            "LOAD 'auto_explain'",
            "SET auto_explain.log_min_duration = 0",
            "SET auto_explain.log_nested_statements = on",
            "SET auto_explain.log_level = notice",
            "SET client_min_messages = notice",
        ):
            conn.execute(setting)
        for query, params in calls:
            conn.execute(query, params)
    return [plan for plan in plans if "plan:" in plan]


def _check(plans: list[str]) -> None:
    walked = [plan for plan in plans if "FROM edges e" in plan]
    assert walked, "no plan of a traversal statement was reported"
    for plan in walked:
        for bad in _FORBIDDEN:
            assert bad not in plan, plan
        used = {index for _, index, table in _SCAN.findall(plan) if table in ("edges", "nodes")}
        assert used and used <= _ALLOWED, plan


def test_walks_use_the_indexes_before_and_after_analyze(
    pg_store: PostgresStore, pg_url: str
) -> None:
    chain = add_chain(pg_store, 40)
    for i in range(0, 36, 5):
        add_edge(pg_store, chain[i], chain[i + 3], EdgeType.INFLUENCED)
    add_chain(pg_store, 200, graph="other")
    first, last = chain[0].id, chain[-1].id
    later = utc_now() + timedelta(minutes=1)
    walk = "SELECT count(*) FROM decisis_traverse(%s, %s, %s, %s::text[], %s::timestamptz, 100)"
    path = "SELECT decisis_path(%s, %s, %s, %s::text[], %s::timestamptz, 100)"
    calls: list[tuple[str, tuple[object, ...]]] = []
    for types, as_of in ((None, None), (["leads_to"], later)):
        calls += [
            (walk, (G, first, True, types, as_of)),
            (walk, (G, last, False, types, as_of)),
            (path, (G, first, last, types, as_of)),
        ]
    calls *= 4  # past PL/pgSQL's first custom plans, into the cached generic ones
    _check(_plans(pg_url, calls))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ANALYZE nodes")
        conn.execute("ANALYZE edges")
    _check(_plans(pg_url, calls))
