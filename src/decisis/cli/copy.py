"""``decisis copy SRC_URL DST_URL``: replay graphs' ledgers from one store into another.

Each graph is exported from the source and imported into the destination (its
chain is checked before anything is written, and the import lands whole or not
at all); then both are verified and their checksum chains compared. The
checksums hash the graph's name, so a graph copied under another name (``--to``)
has the same events with different checksums: then the events are compared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from decisis.cli.common import progress
from decisis.cli.state import get_state
from decisis.errors import Conflict, IntegrityError, InvalidInput

if TYPE_CHECKING:
    from decisis.graph import Store

__all__ = ["copy_graph", "register"]


def copy_graph(source: Store, destination: Store, name: str, to: str) -> dict[str, Any]:
    """Copy graph ``name`` of store ``source`` into graph ``to`` of ``destination``, verify
    both and compare them; return what was done. ``Conflict`` if ``to`` is not empty."""
    from decisis.graph import Graph

    src, dst = Graph(source, name), Graph(destination, to)
    seq, _ = destination.head(to)
    if seq:
        raise Conflict(
            f"graph {to!r} in the destination already has {seq} events; copy into a new one"
        )
    copied = dst.import_(src.export())
    for which, graph in (("source", src), ("destination", dst)):
        report = graph.verify()
        if not report.ok:
            raise IntegrityError(f"the {which} graph {graph.name!r} fails verify: {report}")
    theirs, ours = list(src.events()), list(dst.events())
    same_events = [(e.seq, e.kind, e.entity, e.payload, e.at) for e in theirs] == [
        (e.seq, e.kind, e.entity, e.payload, e.at) for e in ours
    ]
    same_checksums = [e.checksum for e in theirs] == [e.checksum for e in ours]
    if not same_events or (name == to and not same_checksums):
        raise IntegrityError(f"graph {to!r} in the destination differs from the source")
    return {
        "graph": name,
        "to": to,
        "events": copied,
        "head": destination.head(to)[1],
        "checksums_match": same_checksums,
    }


def copy(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="URL of the store to copy from.")],
    destination: Annotated[
        str, typer.Argument(help="URL of the store to copy into (created if new).")
    ],
    *,
    graph: Annotated[
        str | None,
        typer.Option("--graph", "-g", help="Copy only this graph (default: every graph)."),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option("--to", help="Name of the copy in the destination (default: the same)."),
    ] = None,
) -> None:
    """Replay graphs' ledgers from one store into another, then verify both and compare."""
    from decisis.graph import open_store

    src = open_store(source)
    try:
        dst = open_store(destination)
        try:
            names = [graph] if graph else src.graphs()
            if to is not None and len(names) != 1:
                raise InvalidInput("to", "renames one graph only", "--graph NAME with --to")
            done = []
            with progress("copying graphs") as tick:
                for name in names:
                    done.append(copy_graph(src, dst, name, to or name))
                    if tick is not None:
                        tick(len(done), len(names))
        finally:
            dst.close()
    finally:
        src.close()
    _report(get_state(ctx).json, done)


def _report(as_json: bool, done: list[dict[str, Any]]) -> None:
    if as_json:
        from decisis.cli.jsonout import emit

        emit(done)
        return
    from decisis.cli.render import print_message

    for item in done:
        same = "checksums match" if item["checksums_match"] else "same events, renamed"
        print_message(
            f"copied {item['events']} events of graph {item['graph']!r} to {item['to']!r}: "
            f"both verify, {same} (head {item['head']})"
        )
    if not done:
        print_message("no graphs to copy", style="dim")


def register(app: typer.Typer) -> None:
    """Add ``copy`` to ``app``."""
    app.command()(copy)
