"""Commands about provenance anyone can check: key new, checkpoint, prove (``decisis.proof``).

``verify --checkpoint FILE --key KEY.pub`` (in ``decisis.cli.ledger``) checks the ledger
against a checkpoint; ``python -m decisis.proof verify`` checks a proof without decisis.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from decisis.cli.state import get_state
from decisis.errors import InvalidInput

__all__ = ["register"]

key_app = typer.Typer(name="key", help="Signing keys for checkpoints.", no_args_is_help=True)


@key_app.command(name="new")
def key_new(
    ctx: typer.Context,
    path: Annotated[
        Path, typer.Argument(help="Where to write the private key (PATH.pub: public).")
    ],
) -> None:
    """Write a new Ed25519 signing key to PATH (mode 0600) and its public half to PATH.pub.

    Never overwrites a file. Needs the proofs extra: pip install 'decisis\\[proofs]'.
    """
    from decisis.graph import new_key

    private, public, key_id = new_key(path)
    if get_state(ctx).json:
        from decisis.cli.jsonout import emit

        emit({"private": private, "public": public, "key_id": key_id})
        return
    from decisis.cli.render import print_message

    print_message(f"wrote {private} (private, keep it) and {public} (public); key {key_id}")


def _write(document: dict[str, Any], out: Path | None) -> str:
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if out is not None:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(
                "out", f"cannot write {out}: {exc.strerror}", "a writable file"
            ) from None
    return text


def checkpoint(
    ctx: typer.Context,
    *,
    key: Annotated[Path, typer.Option("--key", help="The private key (from `decisis key new`).")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", dir_okay=False, help="Also write the checkpoint to this file."),
    ] = None,
    git: Annotated[
        bool,
        typer.Option(
            "--git",
            help="Also commit it on refs/decisis/checkpoints of the store's git repository.",
        ),
    ] = False,
) -> None:
    """Sign the graph's ledger size, head checksum and Merkle root now; keep the checkpoint
    in the store and print it as JSON (and write it to --out; with --git, commit it on
    refs/decisis/checkpoints of the git repository the store sits in).

    Needs the proofs extra: pip install 'decisis\\[proofs]'.
    """
    document = get_state(ctx).graph.checkpoint(key, git=git)
    typer.echo(_write(document, out), nl=False)
    if git:
        typer.echo("witnessed: committed on refs/decisis/checkpoints", err=True)


def prove(
    ctx: typer.Context,
    ref: Annotated[
        str | None, typer.Argument(help="The node whose ledger entries to prove (id or prefix).")
    ] = None,
    *,
    checkpoint: Annotated[
        Path | None, typer.Option("--checkpoint", help="The checkpoint to prove the node under.")
    ] = None,
    old: Annotated[
        Path | None, typer.Option("--from", help="The older checkpoint (consistency proof).")
    ] = None,
    new: Annotated[
        Path | None, typer.Option("--to", help="The newer checkpoint (consistency proof).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", dir_okay=False, help="Write to this file too.")
    ] = None,
) -> None:
    """Print a Merkle proof as JSON: ID --checkpoint FILE proves a node's ledger entries are
    in the ledger the checkpoint signed (a tombstoned node's too, its tombstone named);
    --from OLD --to NEW proves the ledger NEW signed extends the one OLD signed.

    Check it anywhere with `python -m decisis.proof verify proof.json --key KEY.pub`.
    """
    graph = get_state(ctx).graph
    if ref is not None:
        if checkpoint is None or old is not None or new is not None:
            raise InvalidInput(
                "checkpoint",
                "an inclusion proof needs --checkpoint and no --from/--to",
                "ID --checkpoint FILE, or --from OLD --to NEW",
            )
        document = graph.prove(ref, checkpoint)
    elif old is not None and new is not None and checkpoint is None:
        document = graph.prove_consistency(old, new)
    else:
        raise InvalidInput(
            "from", "say what to prove", "ID --checkpoint FILE, or --from OLD --to NEW"
        )
    typer.echo(_write(document, out), nl=False)
    if document.get("tombstoned"):
        stone = document["tombstoned"]
        typer.echo(
            f"note: node {document['node']} is tombstoned (seq {stone['seq']}, reason: "
            f"{stone['reason']}); its entries are proved all the same",
            err=True,
        )


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    for command in (checkpoint, prove):
        app.command()(command)
    app.add_typer(key_app)
