"""Pieces the command modules share: argument types, id shortening, small parsers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from decisis.errors import InvalidInput
from decisis.model import EdgeType, NodeStatus, NodeType
from decisis.model.ids import is_id

if TYPE_CHECKING:
    from decisis.graph import Graph

__all__ = [
    "DepthOpt",
    "EdgeTypesOpt",
    "IdArg",
    "LimitOpt",
    "TokenOpt",
    "choices",
    "parse_json_object",
    "short_ids",
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
