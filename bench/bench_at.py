"""``Graph.at(t)`` from kept snapshots beside the full replay it replaced, on SQLite files.

A synthetic history (decisions added, linked, renamed, superseded and tombstoned, one
entry a second) of 10,000 and 100,000 entries is written to a SQLite file; for moments in
its last tenth, ``Graph.at(t)`` (the nearest kept snapshot and the entries after it) is
timed as a new process would run it (the kept snapshot read and decoded) and again in
the same process (which copies the state it decoded last), beside the full replay
(``replay.snapshot`` of every entry up to ``t``: what ``Graph.at`` did before), in
interleaved rounds; each view is checked equal to the replay first. Also printed: the
first ``at(t)`` (which replays all and keeps the snapshot), what keeping one costs, its
size, and ``json.loads`` of its body alone (a floor for any view that builds every record).

    .venv/bin/python bench/bench_at.py [--quick] [--sizes N,...] [--rounds N] [--keep DIR]

Target (issue #26): ``at(t)`` at 100,000 entries <= 30 ms for a time in the last 10%.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats

import decisis
from decisis.model import Edge, EdgeType, EventDraft, Node, NodeStatus, NodeType, new_id
from decisis.model import events as drafts
from decisis.stores.fold_snapshots import INDEX_SPACE, STATE_SPACE, encode, forget_decoded, keep
from decisis.stores.past import EVERY, state_at
from decisis.stores.replay import snapshot

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TARGET_NS = 30_000_000
LATE = (0.925, 0.95, 0.975, 0.995)  # moments in the last tenth, as shares of the history


def history(n: int, seed: int = 1) -> list[EventDraft]:
    """``n`` drafts, one a second: 40% decisions added, 30% links, 15% renames, 7%
    supersessions, 8% tombstones."""
    rng = random.Random(seed)
    live: list[str] = []
    out: list[EventDraft] = []
    for seq in range(n):
        when = T0 + timedelta(seconds=seq)
        r = rng.random()
        if len(live) < 2 or r < 0.4:
            node = Node(
                id=new_id(),
                type=NodeType.DECISION,
                label=f"decision {seq} about the cache layer {rng.randrange(1000)}",
                status=NodeStatus.ACTIVE,
                recorded_at=when,
                updated_at=when,
                valid_from=when,
                rationale="because " * rng.randrange(1, 8),
                metadata={"k": seq},
            )
            live.append(node.id)
            out.append(drafts.node_added(node, when))
        elif r < 0.7:
            a, b = rng.sample(live, 2)
            edge = Edge(new_id(), EdgeType.LEADS_TO, a, b, when, when, when)
            out.append(drafts.edge_added(edge, when))
        elif r < 0.85:
            out.append(drafts.node_updated(rng.choice(live), {"label": f"renamed {seq}"}, when))
        elif r < 0.92:
            old, new = rng.sample(live, 2)
            edge = Edge(new_id(), EdgeType.SUPERSEDES, new, old, when, when, when)
            out.append(drafts.superseded(old, new, edge, when))
            live.remove(old)
        else:
            gone = live.pop(rng.randrange(len(live)))
            out.append(drafts.tombstoned(gone, "node", "recorded by mistake", when))
    return out


def built(folder: Path, n: int) -> str:
    """The URL of a SQLite file holding ``n`` entries (reused when ``folder`` has it)."""
    path = folder / f"at-{n}.db"
    url = f"sqlite:///{path}"
    if not path.exists():
        started = time.perf_counter()
        with decisis.open(url, "g") as graph:
            every = history(n)
            for start in range(0, n, 2_000):
                graph.store.append("g", every[start : start + 2_000])
        print(f"built {n} entries in {time.perf_counter() - started:.1f} s")
    return url


def run(url: str, n: int, rounds: int) -> list[object]:
    graph = decisis.open(url, "g")
    moments = [T0 + timedelta(seconds=int(n * share)) for share in LATE]
    store = graph.store
    for space in (INDEX_SPACE, STATE_SPACE):  # start with none: the first at(t) keeps them
        store.delete_derived("g", space)
    started = time.perf_counter_ns()
    first = graph.at(moments[0])
    first_ns = time.perf_counter_ns() - started
    for moment in moments[1:]:  # each keeps the snapshot its moment needs, once
        graph.at(moment).close()
    for moment in moments:  # the property, once per moment, on the bench's own data
        full = snapshot(store.events("g", until=moment), "g")
        with graph.at(moment) as view:
            assert view.store.nodes("g", include_tombstoned=True) == full.nodes(
                "g", include_tombstoned=True
            )
            assert view.store.edges("g", include_tombstoned=True) == full.edges(
                "g", include_tombstoned=True
            )
    first.close()
    turn = iter(range(10**9))

    def from_snapshot() -> None:  # as a new process would: the kept body read and decoded
        forget_decoded()
        graph.at(moments[next(turn) % len(moments)]).close()

    def again() -> None:  # the state this process decoded last, copied
        graph.at(moments[next(turn) % len(moments)]).close()

    def full_replay() -> None:
        moment = moments[next(turn) % len(moments)]
        snapshot(store.events("g", until=moment), "g").close()

    times = interleave(
        {"at": from_snapshot, "again": again, "full": full_replay},
        rounds=rounds,
        per_round={"at": 4, "again": 8, "full": 1},
        warmup=1,
    )
    at, again_, full = stats(times["at"]), stats(times["again"]), stats(times["full"])
    state, head = state_at(store, "g", moments[-1])
    started = time.perf_counter_ns()
    body = encode(state)
    encode_ns = time.perf_counter_ns() - started
    started = time.perf_counter_ns()
    json.loads(body)
    loads_ns = time.perf_counter_ns() - started
    started = time.perf_counter_ns()
    keep(decisis.open(url, "bench").store, "bench", head[0], head[1], moments[-1], state)
    keep_ns = time.perf_counter_ns() - started
    graph.close()
    verdict = ", ".join(
        f"{name} {'met' if s.median <= TARGET_NS else 'missed'}"
        for name, s in (("new", at), ("again", again_))
    )
    return [
        f"{n:,}",
        f"{len(state.nodes):,} / {len(state.edges):,}",
        f"{ms(at.median)} (p95 {ms(at.p95)})",
        f"{ms(again_.median)} (p95 {ms(again_.p95)})",
        f"{ms(full.median)}",
        f"{at.ratio(full):.0f}x / {again_.ratio(full):.0f}x",
        ms(first_ns),
        f"{ms(keep_ns)} (encode {ms(encode_ns)})",
        f"{len(body.encode()) / 1e6:.1f}",
        ms(loads_ns),
        verdict,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one small size, few rounds")
    parser.add_argument("--sizes", default=None, help="entries per history, comma separated")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="keep and reuse the files here")
    args = parser.parse_args()
    sizes = [int(s) for s in (args.sizes or ("3000" if args.quick else "10000,100000")).split(",")]
    rounds = args.rounds or (2 if args.quick else 5)
    print(machine_line())
    print(f"snapshots every {EVERY} entries; moments at {', '.join(map(str, LATE))} of history")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for n in sizes:
            rows.append(run(built(folder, n), n, rounds))
    print_table(
        [
            "entries",
            "nodes / edges",
            "at(t) ms, new process",
            "at(t) ms, again",
            "full replay ms",
            "ratio new / again",
            "first at(t) ms",
            "keep one ms",
            "snapshot MB",
            "json.loads body ms",
            "<= 30 ms",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
