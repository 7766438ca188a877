"""A steady writer process for ``test_adr_writers``: ``python -m tests.adr.goal_writer URL
GRAPH STOP``. It appends goals until the file ``STOP`` exists, then prints how many it
wrote and the errors it met (one JSON line) and exits; ``ready`` once its first goal is in.
"""

from __future__ import annotations

import json
import os
import sys

import decisis
from decisis.errors import DecisisError


def main(url: str, graph_name: str, stop: str) -> None:
    written, errors = 0, []
    with decisis.open(url, graph=graph_name) as graph:
        graph.add_goal("steady writer starts")
        print("ready", flush=True)
        while not os.path.exists(stop):
            try:
                graph.add_goal(f"steady goal {written}")
                written += 1
            except DecisisError as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
    print(json.dumps({"written": written, "errors": errors}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
