"""A writer process for the many-writers test (``python -m tests.stores.postgres.writer``).

Arguments URL NAME N: it opens any store by URL and appends ``N`` batches, each a
decision, the option it chose and the ``chosen`` edge between them, so a lost,
doubled or half-landed batch shows up in the counts.
"""

from __future__ import annotations

import sys

from decisis.model import EdgeType, NodeType
from decisis.stores import Store, open_store
from tests.stores.helpers import G, edge_added, make_edge, make_node, node_added


def write_round(store: Store, writer: str, index: int) -> None:
    decision = make_node(f"{writer} decision {index}", NodeType.DECISION)
    option = make_node(f"{writer} option {index}", NodeType.OPTION)
    edge = make_edge(decision, option, EdgeType.CHOSEN)
    store.append(G, [node_added(decision), node_added(option), edge_added(edge)])


def main(url: str, writer: str, rounds: int) -> None:
    store = open_store(url)
    try:
        for index in range(rounds):
            write_round(store, writer, index)
    finally:
        store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
