"""Node rows brought to what the fold now makes of the ledger, when a fold rule changed.

The tables are the fold of the ledger. When decisis changes what an event does to a node
(schema migration "retirement follows the link's state": a candidate replacement no
longer retires the old node), a store written before holds rows the new fold would not
make, and ``verify`` would blame them. This migration replays each graph's ledger and
rewrites the nodes whose row differs only in what retirement sets: ``status``,
``valid_until``, ``updated_at`` and the fold's ``_retired`` metadata record. A row that
differs in anything else is left as it is, for ``verify`` to report; a ledger the fold
refuses is left to ``verify`` too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TypeVar

from decisis.errors import IntegrityError
from decisis.model import Event, Node
from decisis.stores.replay import replay
from decisis.stores.retire import RETIRED_KEY

__all__ = ["refold"]

C = TypeVar("C")
_PAGE = 5000


def refold(
    conn: C,
    graphs: Sequence[str],
    events_page: Callable[[C, str, int, datetime | None, int], list[Event]],
    stored_nodes: Callable[[C, str], list[Node]],
    write_node: Callable[[C, str, Node], None],
) -> int:
    """Rewrite, in every graph, the nodes the fold now retires differently; how many."""
    rewritten = 0
    for graph in graphs:
        try:
            state = replay(_events(conn, graph, events_page))
        except IntegrityError:
            continue
        for have in stored_nodes(conn, graph):
            want = state.nodes.get(have.id)
            if want is not None and want != have and _only_retirement(have, want):
                write_node(conn, graph, want)
                rewritten += 1
    return rewritten


def _events(
    conn: C, graph: str, events_page: Callable[[C, str, int, datetime | None, int], list[Event]]
) -> Iterator[Event]:
    after = 0
    while True:
        page = events_page(conn, graph, after, None, _PAGE)
        yield from page
        if len(page) < _PAGE:
            return
        after = page[-1].seq


def _only_retirement(have: Node, want: Node) -> bool:
    """Whether the two differ only in the fields retirement sets."""
    kept = {k: v for k, v in want.metadata.items() if k != RETIRED_KEY}
    had = {k: v for k, v in have.metadata.items() if k != RETIRED_KEY}
    if kept != had:
        return False
    as_wanted = have.evolve(
        status=want.status,
        valid_until=want.valid_until,
        updated_at=want.updated_at,
        metadata=want.metadata,
    )
    return as_wanted == want
