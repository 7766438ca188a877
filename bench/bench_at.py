"""``Graph.at(t)`` from the version index beside the snapshot path and the full replay, on
SQLite files.

A synthetic history (decisions added, linked, renamed, superseded and tombstoned, one
entry a second) of 10,000 and 100,000 entries is written to a SQLite file; for moments in
its last tenth, ``Graph.at(t)`` (the version index of ``stores.past_index``: the moment
resolved to an entry, records read when asked) is timed alone and with one read (the
decision that stands for a node, a supersession walk), beside the snapshot path (the
nearest kept snapshot read and decoded, as a new process would: what ``at`` did before)
and the full replay (``replay.snapshot`` of every entry up to ``t``), in interleaved
rounds; each view is checked equal to the replay first. Also printed: the first ``at(t)``
(which makes the index), listing every node of a view (which reads the whole index) and
the index's size.

    .venv/bin/python bench/bench_at.py [--quick] [--sizes N,...] [--rounds N] [--keep DIR]

Target (issue #26): ``at(t)`` at 100,000 entries <= 30 ms for a time in the last 10%.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_core_common import interleave, machine_line, ms, print_table, stats

import decisis
from decisis.model import Edge, EdgeType, EventDraft, Node, NodeStatus, NodeType, new_id
from decisis.model import events as drafts
from decisis.stores import past_index
from decisis.stores.fold_snapshots import INDEX_SPACE, STATE_SPACE, forget_decoded
from decisis.stores.past import EVERY
from decisis.stores.past_view import view_at
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
    for space in (INDEX_SPACE, STATE_SPACE, past_index.SPACE):  # start with none kept
        store.delete_derived("g", space)
    started = time.perf_counter_ns()
    graph.at(moments[0]).close()  # makes the version index (one fold of every entry)
    first_ns = time.perf_counter_ns() - started
    for moment in moments:  # the property, once per moment, on the bench's own data
        full = snapshot(store.events("g", until=moment), "g")
        with graph.at(moment) as view:
            assert view.store.nodes("g", include_tombstoned=True) == full.nodes(
                "g", include_tombstoned=True
            )
            assert view.store.edges("g", include_tombstoned=True) == full.edges(
                "g", include_tombstoned=True
            )
        full.close()
    late = snapshot(store.events("g", until=moments[-1]), "g")
    probes = [n.id for n in late.nodes("g", limit=400)[::4]]  # early records, most renamed
    late.close()
    turn = iter(range(10**9))

    def index_at() -> None:  # nothing kept in the process: each view reads the store
        graph.at(moments[next(turn) % len(moments)]).close()

    def index_reads() -> None:  # a view, one node and what stands for it (a supersession walk)
        i = next(turn)
        with graph.at(moments[i % len(moments)]) as view:
            view.current(probes[i % len(probes)])

    def from_snapshot() -> None:  # the kept snapshot read and decoded, as a new process would
        forget_decoded()
        view_at(store, "g", moments[next(turn) % len(moments)], index=False).close()

    def full_replay() -> None:
        snapshot(store.events("g", until=moments[next(turn) % len(moments)]), "g").close()

    times = interleave(
        {"at": index_at, "reads": index_reads, "snap": from_snapshot, "full": full_replay},
        rounds=rounds,
        per_round={"at": 16, "reads": 16, "snap": 1, "full": 1},
        warmup=1,
    )
    at, reads = stats(times["at"]), stats(times["reads"])
    snap, full = stats(times["snap"]), stats(times["full"])
    started = time.perf_counter_ns()
    with graph.at(moments[-1]) as view:
        listed = view.store.nodes("g")
    list_ns = time.perf_counter_ns() - started
    kept = store.get_derived("g", past_index.SPACE)
    size = sum(len(body.encode()) for body in kept.values())
    graph.close()
    verdict = ", ".join(
        f"{name} {'met' if s.median <= TARGET_NS else 'missed'}" for name, s in (("at", at),)
    )
    return [
        f"{n:,}",
        f"{len(listed):,}",
        f"{ms(at.median)} (p95 {ms(at.p95)})",
        f"{ms(reads.median)} (p95 {ms(reads.p95)})",
        f"{ms(snap.median)}",
        f"{ms(full.median)}",
        f"{at.ratio(full):.0f}x / {at.ratio(snap):.0f}x",
        ms(first_ns),
        ms(list_ns),
        f"{len(kept):,} / {size / 1e6:.1f}",
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
            "live nodes",
            "at(t) ms",
            "at(t) + current(id) ms",
            "snapshot path ms",
            "full replay ms",
            "full / snapshot over at(t)",
            "first at(t) ms (makes index)",
            "view nodes() ms",
            "index items / MB",
            "<= 30 ms",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
