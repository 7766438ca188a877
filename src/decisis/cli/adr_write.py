"""``decisis adr new|list|link``: write a team's records as adr-tools does, and list them.

Each command parses, calls one function of :mod:`decisis.adr.write`, and, when a store is
open (``--store``, ``DECISIS_STORE`` or a ``.decisis/`` found upward), ingests the folder so
that ``decisis ask`` sees what was just written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from decisis.cli.render import visible
from decisis.cli.state import State, find_store, get_state

if TYPE_CHECKING:
    from decisis.adr import IngestReport

__all__ = ["adr_app"]


adr_app = typer.Typer(
    name="adr",
    no_args_is_help=True,
    help="Write a team's ADR files as adr-tools does: adr new (the next numbered record,"
    " --supersedes N), adr list (numbers, titles, statuses, what replaced each), adr link"
    " (a status line between two records).",
)

Dir = Annotated[
    Path | None,
    typer.Option(
        "--dir",
        help="The ADR folder. Default: the path in an .adr-dir file here or above, else doc/adr.",
    ),
]


def _store_open(state: State) -> bool:
    return bool(state.store) or find_store(Path.cwd()) is not None


def _ingest(state: State, folder: Path) -> IngestReport | None:
    """Ingest ``folder`` into the open store, if one is open."""
    if not _store_open(state):
        return None
    from decisis.adr import ingest

    return ingest(state.graph, folder)


def _done(state: State, data: dict[str, Any], report: IngestReport | None, said: str) -> None:
    if state.json:
        data["ingested"] = report.to_dict() if report is not None else None
        typer.echo(json.dumps(data, indent=2))
        return
    typer.echo(visible(said))
    if report is not None:
        typer.echo(
            f"ingested: {len(report.added)} added, {len(report.updated)} updated,"
            f" {report.links_added} links proposed"
        )


@adr_app.command("new")
def new(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="The decision's title, e.g. 'Use PostgreSQL'.")],
    supersedes: Annotated[
        int | None,
        typer.Option(
            "--supersedes", "-s", help="Number of the record this one replaces; its status says so."
        ),
    ] = None,
    folder: Dir = None,
    fmt: Annotated[
        str, typer.Option("--format", help="Template to write: nygard (adr-tools) or madr.")
    ] = "nygard",
) -> None:
    """Write the next numbered ADR from a template (today's date, status Accepted)."""
    from decisis.adr import new_record

    state = get_state(ctx)
    written = new_record(title, folder=folder, fmt=fmt, supersedes=supersedes)
    report = _ingest(state, written.folder)
    changed = "".join(f"; status of {p.name} set to superseded" for p in written.changed)
    _done(state, written.to_dict(), report, f"wrote {written.created}{changed}")


@adr_app.command("list")
def list_(ctx: typer.Context, folder: Dir = None) -> None:
    """Each record of the folder: number, title, status, and what replaced it."""
    from decisis.adr import folder_to_read, list_records

    state = get_state(ctx)
    listed = list_records(folder_to_read(folder))
    if state.json:
        typer.echo(json.dumps([entry.to_dict() for entry in listed], indent=2))
        return
    for entry in listed:
        r = entry.record
        by = f"  replaced by {', '.join(entry.replaced_by)}" if entry.replaced_by else ""
        number = "-" if r.number is None else str(r.number)
        typer.echo(visible(f"{number:>5}  {r.status.value:<10}  {r.title}{by}"))


@adr_app.command("link")
def link(
    ctx: typer.Context,
    source: Annotated[int, typer.Argument(help="Number of the record that gets the line.")],
    words: Annotated[str, typer.Argument(metavar="LINK", help="The link's words, e.g. Amends.")],
    target: Annotated[int, typer.Argument(help="Number of the record it names.")],
    reverse: Annotated[
        str | None,
        typer.Option("--reverse", help="Line added to TARGET naming SOURCE, e.g. 'Amended by'."),
    ] = None,
    folder: Dir = None,
) -> None:
    """Add 'LINK \\[target](file)' to SOURCE's status (and the reverse line to TARGET's)."""
    from decisis.adr import link_records

    state = get_state(ctx)
    written = link_records(source, words, target, reverse=reverse, folder=folder)
    report = _ingest(state, written.folder)
    _done(state, written.to_dict(), report, "linked: " + ", ".join(p.name for p in written.changed))
