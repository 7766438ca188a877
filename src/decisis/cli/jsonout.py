"""The JSON the CLI prints with ``--json``: one document per call, in the forms of
``decisis.forms`` (re-exported here for the commands)."""

from __future__ import annotations

from decisis.forms import (
    error_dict,
    event_dict,
    goal_tree_dict,
    hit_dict,
    nodes_list,
    reached_dict,
    standing_dict,
    verify_dict,
)

__all__ = [
    "dumps",
    "emit",
    "error_dict",
    "event_dict",
    "goal_tree_dict",
    "hit_dict",
    "nodes_list",
    "reached_dict",
    "standing_dict",
    "verify_dict",
]


def dumps(data: object) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=2)


def emit(data: object) -> None:
    """Print one JSON document on stdout."""
    import typer

    typer.echo(dumps(data))
