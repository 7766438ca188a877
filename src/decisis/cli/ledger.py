"""Commands about the ledger and the store: verify, log, graphs, export, import."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from decisis.cli.common import LimitOpt, short_ids
from decisis.cli.state import get_state
from decisis.errors import InvalidInput, MalformedImport

__all__ = ["EXIT_VERIFY_FAILED", "register"]

EXIT_VERIFY_FAILED = 1


def verify(
    ctx: typer.Context,
    *,
    quick: Annotated[
        bool,
        typer.Option("--quick", help="Check the database file with the cheaper quick_check."),
    ] = False,
    checkpoint: Annotated[
        Path | None,
        typer.Option("--checkpoint", help="Also check the ledger against this signed checkpoint."),
    ] = None,
    key: Annotated[
        Path | None,
        typer.Option("--key", help="The checkpoint signer's public key (PATH.pub)."),
    ] = None,
) -> None:
    """Re-read the ledger, check its hash chain and replay it against the tables; check the
    database file and the full-text index. With --checkpoint FILE --key KEY.pub, also the
    ledger against a signed checkpoint: entries dropped from the tail (even with the head
    moved), rewritten with recomputed hashes or reordered, and a forged checkpoint or one
    another key signed.

    Exits 0 when all is intact; otherwise 1, naming each problem (the first bad seq first).
    """
    state = get_state(ctx)
    report = state.graph.verify(quick=quick, checkpoint=checkpoint, key=key)
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import VerifyOut

        emit(VerifyOut.of(report).dump())
    else:
        from decisis.cli.render import print_verify

        print_verify(report)
    if not report.ok:
        raise typer.Exit(EXIT_VERIFY_FAILED)


def log(ctx: typer.Context, *, limit: LimitOpt = 20) -> None:
    """The most recent ledger events, oldest of them first."""
    state = get_state(ctx)
    graph = state.graph
    if limit < 1:
        raise InvalidInput("limit", f"{limit!r} is not a positive whole number", ">= 1")
    last_seq, _ = graph.store.head(graph.name)
    events = list(graph.events(after_seq=max(0, last_seq - limit)))
    if state.json:
        from decisis.cli.jsonout import emit
        from decisis.forms import EventOut

        emit(EventOut.all_of(events))
        return
    from decisis.cli.render import print_events

    print_events("ledger", events, short_ids(graph, [event.entity for event in events]))


def graphs(ctx: typer.Context) -> None:
    """The names of the graphs in the store."""
    state = get_state(ctx)
    names = state.graph.store.graphs()
    if state.json:
        from decisis.cli.jsonout import emit

        emit(names)
        return
    from decisis.cli.render import print_message

    for name in names:
        print_message(name, style="bold" if name == state.graph.name else "")
    if not names:
        print_message("no graphs yet", style="dim")


def export(
    ctx: typer.Context,
    *,
    format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="json (the whole ledger, re-importable), dot, mermaid, or W3C PROV-O as "
            "prov-turtle or prov-jsonld (needs decisis\\[prov]).",
        ),
    ] = "json",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", dir_okay=False, help="Write to this file, not stdout."),
    ] = None,
) -> None:
    """Write the graph as JSON (its ledger, for import), Graphviz DOT, a Mermaid flowchart,
    or its provenance as W3C PROV-O (Turtle or JSON-LD)."""
    state = get_state(ctx)
    text = state.graph.export(format)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(
            "output", f"cannot write {output}: {exc.strerror}", "a writable file"
        ) from None
    if state.json:
        from decisis.cli.jsonout import emit

        emit({"written": str(output), "format": format, "bytes": len(text.encode("utf-8"))})
        return
    from decisis.cli.render import print_message

    print_message(f"wrote {format} export of graph {state.graph.name!r} to {output}")


def import_(
    ctx: typer.Context,
    *,
    file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, readable=True, help="A JSON file from 'decisis export'."
        ),
    ],
) -> None:
    """Load a JSON export into the graph, all or nothing (its chain is checked first)."""
    state = get_state(ctx)
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise MalformedImport(
            "file", "is not UTF-8 text", "a JSON file from 'decisis export'"
        ) from None
    from decisis.cli.common import working

    with working(f"checking and importing {file.name}"):
        added = state.graph.import_(text)
    if state.json:
        from decisis.cli.jsonout import emit

        emit({"imported": added, "graph": state.graph.name})
        return
    from decisis.cli.render import print_message

    print_message(f"imported {added} events into graph {state.graph.name!r}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    for command in (verify, log, graphs, export):
        app.command()(command)
    app.command(name="import")(import_)
