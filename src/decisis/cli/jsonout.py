"""The JSON the CLI prints with ``--json``: one document per call, in the forms of
``decisis.forms``."""

from __future__ import annotations

__all__ = ["dumps", "emit"]


def dumps(data: object) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=2)


def emit(data: object) -> None:
    """Print one JSON document on stdout."""
    import typer

    typer.echo(dumps(data))
