"""A writer process for the concurrency and crash tests: ``python -m tests.stores.sqlite.writer``.

Each round appends one batch: a decision, ``OPTIONS`` options, and the edges that
join them, so a batch cut in half by a crash would show as a decision with too few
options. It prints ``ready`` once the store is open, so the parent can time a kill.
"""

from __future__ import annotations

import sys

from decisis.model import EdgeType, NodeType
from decisis.stores.sqlite import SQLiteStore
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added

OPTIONS = 4


def write_round(store: SQLiteStore, writer: str, index: int) -> None:
    decision = make_node(
        f"{writer} decision {index}", NodeType.DECISION, metadata={"options": OPTIONS}
    )
    batch = [node_added(decision)]
    for k in range(OPTIONS):
        option = make_node(f"{writer} option {index}.{k}", NodeType.OPTION)
        batch += [node_added(option), edge_added(make_edge(decision, option, EdgeType.CHOSEN))]
    store.append(G, batch)


def main(path: str, writer: str, rounds: int) -> None:
    with SQLiteStore(path) as store:
        print("ready", flush=True)
        index = 0
        while rounds < 0 or index < rounds:
            write_round(store, writer, index)
            index += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
