"""``decisis serve``: the web front door (JSON API and pages) over the store."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from decisis.cli.common import AllowHostOpt, TokenOpt
from decisis.cli.state import get_state

__all__ = ["register", "serve"]


def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option("--host", help="Address to bind (local only by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8080,
    token: TokenOpt = None,
    allow_host: AllowHostOpt = None,
) -> None:
    """Serve the web pages and the JSON API (OpenAPI at /docs) until stopped.

    Needs the web extra: pip install 'decisis\\[web]'.
    """
    from decisis.adr import prepare
    from decisis.binding import allowed_hosts, check_bind, is_loopback
    from decisis.web import serve as run

    token = check_bind(host, token)  # before the store is opened: nothing to undo
    names = allowed_hosts(host, token, allow_host or ())
    state = get_state(ctx)
    graph = state.graph
    started = time.perf_counter()
    records = prepare(graph)  # ``run`` would, without saying why the wait
    if records:
        took = time.perf_counter() - started
        typer.echo(f"decisis: {records:,} records ready to answer from ({took:.1f} s)", err=True)
    guarded = " (token required)" if token else ""
    typer.echo(f"decisis: serving {state.store_url()} at http://{host}:{port}/{guarded}", err=True)
    if names:
        typer.echo(f"decisis: also answering to {', '.join(sorted(names))}", err=True)
    elif not is_loopback(host):
        typer.echo(
            "decisis: answering to loopback names only: add --allow-host NAME for each name "
            "people reach this server by",
            err=True,
        )
    run(graph, host=host, port=port, token=token, allow_hosts=names, log_level="warning")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(serve)
