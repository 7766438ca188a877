"""Pieces the command modules share: argument types, id shortening, small parsers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from decisis.errors import InvalidInput
from decisis.model import EdgeType, NodeStatus, NodeType
from decisis.model.ids import is_id

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = [
    "AllowHostOpt",
    "DepthOpt",
    "EdgeTypesOpt",
    "IdArg",
    "LimitOpt",
    "TokenOpt",
    "choices",
    "parse_json_object",
    "progress",
    "short_ids",
    "working",
]


def choices(enum: Iterable[Any]) -> str:
    """The values of an enum, for help texts."""
    return ", ".join(member.value for member in enum)


NODE_TYPES = choices(NodeType)
EDGE_TYPES = choices(EdgeType)
STATUSES = choices(NodeStatus)

IdArg = Annotated[str, typer.Argument(metavar="ID", help="Node id, or any unique prefix of one.")]
LimitOpt = Annotated[int, typer.Option("--limit", "-n", help="How many to show, at most.")]
DepthOpt = Annotated[int, typer.Option("--depth", help="How many hops to walk, at most.")]
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="DECISIS_TOKEN",
        show_envvar=True,
        help="A secret every HTTP request must carry (Authorization: Bearer). Needed to bind "
        "an address other machines can reach. Prefer the variable: others can read a "
        "command line.",
    ),
]
AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="NAME",
        help="Also answer requests naming this host (the Host header), at any port; "
        "repeat for more. 127.0.0.1, localhost and [::1] always are, and the --host "
        "address when a token guards it; any other name is refused, so that a page on "
        "another site cannot point its own name at this server (DNS rebinding).",
    ),
]
EdgeTypesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--edge-type",
        "-e",
        help=f"Walk only edges of this type: {EDGE_TYPES}.",
    ),
]


def short_ids(graph: Graph, ids: Iterable[str]) -> dict[str, str]:
    """Each id's shortest unique prefix in ``graph`` (what is not an id is left out)."""
    return graph.short_ids(sorted({i for i in ids if is_id(i)}))


def parse_json_object(text: str | None, field: str) -> dict[str, Any] | None:
    """Parse a ``--metadata`` style option; the model checks it is a JSON object."""
    if text is None:
        return None
    import json

    from decisis.model.validation import loads_json

    try:
        value = loads_json(text, field, "a JSON object")
    except json.JSONDecodeError as exc:
        raise InvalidInput(field, f"is not JSON ({exc.msg})", "a JSON object") from None
    if not isinstance(value, dict):
        raise InvalidInput(
            field, f"expected an object, got {type(value).__name__}", "a JSON object"
        )
    return value


@contextmanager
def progress(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr when it is a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield tick


@contextmanager
def working(label: str) -> Iterator[None]:
    """A Rich spinner on stderr saying what is under way, when stderr is a terminal: for the
    steps that are one call (an ingest, an import), which a bar cannot count."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(label):
        yield
