"""Read-modify-writes that land while other processes keep writing (``written_once``).

An ADR ingest or a correction reads the graph, works out its change from what it read,
and appends it with ``after_seq`` set to the head it read: the store refuses the append
(``HeadMoved``, nothing written) when anyone wrote in between, and the work is done again
from what the graph holds then. That alone starves against a steady writer: a correction
takes 30 to 300 ms to work out, a writer appending a goal every few milliseconds moves the
head in every such window, and five tries with no wait failed 8 corrections of 8 (PostgreSQL
with 8 writers: 8 of 10).

So ``written_once`` does two things, in this order (``WritePolicy``):

1. **Optimistic tries with backoff**: a few tries, each after a wait drawn uniformly from
   zero to a cap that doubles from try to try ("full jitter", so writers that collided do
   not collide again in step), while a time budget lasts. This is all that an occasional
   collision (two corrections at once) needs, and it holds no lock while it works, so a
   slow piece of work (a model reranker's call, an ingest's reading of the records) never
   keeps other writers waiting.
2. **The graph's write lock**: if the head still moved, the work runs once more inside
   ``Store.write_lock`` (SQLite ``BEGIN IMMEDIATE``, PostgreSQL the graph's head row
   locked ``FOR UPDATE``, the memory and DuckDB stores their process lock). Other
   appends to the graph wait meanwhile (SQLite writers up to their busy timeout), so the
   head cannot move between the read and the append and the work lands, however steady
   the other writers are. It is the last resort, not the first, because it makes every
   other writer wait for the whole of the work, not just for its append.

Only if that also meets a moved head (a store whose lock does not cover every writer, such
as two DuckDB stores on one file in one process) does ``HeadMoved`` reach the caller, saying
how many tries over how long; nothing was written.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from decisis.errors import HeadMoved, InvalidInput

if TYPE_CHECKING:
    from decisis.stores import Store

__all__ = ["DEFAULT_WRITES", "NO_WAIT", "WritePolicy", "written_once"]

T = TypeVar("T")


class Writing(Protocol):
    """What ``written_once`` needs of a graph (a ``decisis.Graph`` is one): this module sits
    beneath ``decisis.graph``, which imports it."""

    @property
    def name(self) -> str: ...
    @property
    def store(self) -> Store: ...
    @property
    def writes(self) -> WritePolicy: ...


@dataclass(frozen=True, slots=True)
class WritePolicy:
    """How ``written_once`` gets a read-modify-write in while others write the graph.

    Chosen on ``bench/writers_corrections.py`` (8 steady writer processes on one SQLite
    file, corrections and ingests of ``data/adr-corpus`` beside them): with a steady
    writer the optimistic tries almost never land, so there are few of them and the lock
    follows soon; two corrections at once land on the first or second try.
    """

    tries: int = 3
    """Optimistic tries (each reads, works out and appends) before the lock."""
    first_wait: float = 0.02
    """Seconds: the cap of the wait after the first try; it doubles after each try."""
    max_wait: float = 0.5
    """Seconds: no wait between tries is capped higher than this."""
    budget: float = 10.0
    """Seconds the optimistic tries and their waits may take together: a slow piece of work
    (a large ingest) goes to the lock after fewer tries."""
    lock: bool = True
    """Whether the last try runs under the graph's write lock (``Store.write_lock``)."""

    def __post_init__(self) -> None:
        if isinstance(self.tries, bool) or not isinstance(self.tries, int) or self.tries < 1:
            raise InvalidInput("tries", f"{self.tries!r} is fewer than one", ">= 1")
        for name in ("first_wait", "max_wait", "budget"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise InvalidInput(name, f"{value!r} is not a number of seconds", ">= 0")

    def wait(self, tried: int) -> float:
        """Seconds to wait after the ``tried``-th failed try: full jitter, uniform in
        [0, min(max_wait, first_wait * 2 ** (tried - 1)))."""
        cap = min(self.max_wait, self.first_wait * 2.0 ** min(tried - 1, 60))
        return random.uniform(0.0, cap)  # spreading writers out, not a secret


DEFAULT_WRITES = WritePolicy()
# What ``written_once`` did before: five tries, no wait, no lock (``bench/`` baseline).
NO_WAIT = WritePolicy(tries=5, first_wait=0.0, max_wait=0.0, lock=False)


def written_once(
    work: Callable[[], T], graph: Writing | None = None, *, policy: WritePolicy | None = None
) -> T:
    """Run ``work`` until it lands: ``work`` reads the graph, then appends with ``after_seq``
    set to the head it read, and raises ``HeadMoved`` when another writer got there first.
    Its change is worked out from what the graph holds when it lands: an ingest or a
    correction in two processes at once adds a record once, moves a rule's trust twice.

    The optimistic tries with backoff, then one try under ``graph.store.write_lock``
    (when ``policy.lock`` and the graph are given); see the module docstring. ``policy``
    defaults to the graph's (``Graph(writes=…)``). ``HeadMoved`` when every try met a moved
    head; nothing was written then.
    """
    if policy is None:
        policy = graph.writes if graph is not None else DEFAULT_WRITES
    started = time.monotonic()
    tried = 0
    last: HeadMoved | None = None
    while tried < policy.tries:
        tried += 1
        try:
            return work()
        except HeadMoved as exc:
            last = exc
        if tried == policy.tries:
            break
        pause = policy.wait(tried)
        if time.monotonic() - started + pause >= policy.budget:
            break
        time.sleep(pause)
    if policy.lock and graph is not None:
        tried += 1
        try:
            with graph.store.write_lock(graph.name):
                return work()
        except HeadMoved as exc:
            last = exc
    assert last is not None
    raise HeadMoved(
        last.graph,
        last.expected,
        last.found,
        tries=tried,
        seconds=time.monotonic() - started,
    ) from last
