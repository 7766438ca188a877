"""Signed checkpoints and Merkle proofs of a graph's ledger (formats: ``decisis.proof``).

A checkpoint signs what the store's Merkle tree says of the ledger now (its size, head
checksum and root); ``verify`` against one recomputes the root from the ledger as read
and names what differs; a proof reads O(log n) stored subtree hashes. Signing and
checking signatures need ``cryptography`` (``decisis[proofs]``); nothing else here does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from decisis import proof
from decisis.errors import Conflict, IntegrityError, InvalidInput, MissingExtra
from decisis.ledger import GENESIS
from decisis.model import Event, EventKind, format_time, parse_time
from decisis.stores import Store
from decisis.stores.merkle import Tree, consistency, event_leaf, inclusion, leaf_data, root_at
from decisis.stores.replay import Against

__all__ = [
    "against",
    "load_checkpoint",
    "make_checkpoint",
    "new_key",
    "prove_consistency",
    "prove_inclusion",
]

_FEATURE = "signed checkpoints and proofs"
KeySource = str | os.PathLike[str] | bytes


def _pem(key: KeySource, what: str) -> bytes:
    if isinstance(key, bytes):
        return key
    try:
        return Path(key).read_bytes()
    except OSError as exc:
        raise InvalidInput(
            "key", f"cannot read {what} {key}: {exc.strerror}", "a PEM key file"
        ) from None


def _load(key: KeySource, private: bool) -> Any:
    what = "private key" if private else "public key"
    pem = _pem(key, what)
    try:
        return proof.load_private_key(pem) if private else proof.load_public_key(pem)
    except ImportError:
        raise MissingExtra(_FEATURE, "proofs") from None
    except proof.ProofError as exc:
        allowed = "an Ed25519 key as `decisis key new` writes it" + ("" if private else " (.pub)")
        raise InvalidInput("key", f"{key!r}: {exc}", allowed) from None


def new_key(path: str | os.PathLike[str]) -> tuple[Path, Path, str]:
    """A new Ed25519 key: the private half to ``path`` (mode 0600), the public to
    ``path.pub``; refuses to overwrite either. Returns both paths and the key id."""
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise MissingExtra(_FEATURE, "proofs") from None
    private_path = Path(path)
    public_path = private_path.with_name(private_path.name + ".pub")
    for existing in (private_path, public_path):
        if existing.exists():
            raise Conflict(f"{existing} already exists: a key is never overwritten")
    key = ed25519.Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    _write_new(private_path, private_pem, 0o600)
    _write_new(public_path, public_pem, 0o644)
    return private_path, public_path, proof.key_id(key.public_key())


def _write_new(path: Path, data: bytes, mode: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise Conflict(f"{path} already exists: a key is never overwritten") from None
    except OSError as exc:
        raise InvalidInput("path", f"cannot write {path}: {exc.strerror}", "a new file") from None
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(path, mode)  # whatever the umask left


def load_checkpoint(source: str | os.PathLike[str] | dict[str, Any], field: str) -> dict[str, Any]:
    """A checkpoint from a JSON file (or as given); ``InvalidInput`` naming ``field``."""
    if isinstance(source, dict):
        document = source
    else:
        import json

        try:
            document = json.loads(Path(source).read_text(encoding="utf-8"))
        except OSError as exc:
            raise InvalidInput(
                field, f"cannot read {source}: {exc.strerror}", "a checkpoint file"
            ) from None
        except ValueError as exc:
            raise InvalidInput(field, f"{source} is not JSON: {exc}", "a checkpoint file") from None
    if not isinstance(document, dict) or document.get("format") != proof.CHECKPOINT_FORMAT:
        raise InvalidInput(
            field, "not a checkpoint", f'a JSON object with "format": {proof.CHECKPOINT_FORMAT!r}'
        )
    return document


def _fetch(store: Store, graph: str) -> Any:
    return lambda keys: store.tree_hashes(graph, keys)


def make_checkpoint(store: Store, graph: str, key: KeySource, now: datetime) -> dict[str, Any]:
    """Sign the graph's ledger as its tree holds it now, keep the checkpoint in the store and
    return it. The tree is caught up first; its last leaf must be the head's entry."""
    private_key = _load(key, private=True)
    store.catch_up_tree(graph)
    with store.write_lock(graph):
        seq, checksum = store.head(graph)
        if seq == 0:
            raise Conflict(f"graph {graph!r} has no entries yet: there is nothing to sign")
        size = store.tree_size(graph)
        last = next(iter(store.events(graph, after_seq=seq - 1)), None)
        stored = store.tree_hashes(graph, [(0, seq - 1)]).get((0, seq - 1))
        if size != seq or last is None or last.checksum != checksum or stored != event_leaf(last):
            raise IntegrityError(
                f"graph {graph!r}: its Merkle tree ({size} entries) does not end at the "
                f"ledger's head (seq {seq}); nothing was signed: run `decisis verify`",
                min(size, seq) + 1,
            )
        root = root_at(size, _fetch(store, graph))
        checkpoint: dict[str, Any] = proof.sign_checkpoint(
            private_key, graph=graph, size=size, head=checksum, root=root, time=format_time(now)
        )
        store.put_checkpoint(graph, checkpoint)
    return checkpoint


def against(store: Store, graph: str, checkpoint: dict[str, Any], key: KeySource) -> Against:
    """The ``replay.verify`` check of the ledger as read against a signed checkpoint."""
    public_key = _load(key, private=False)

    def check(events: Sequence[Event]) -> tuple[str, list[tuple[int | None, str]]]:
        size = checkpoint.get("size")
        what = f"signed checkpoint of {size} entries ({checkpoint.get('time')})"
        try:
            proof.check_checkpoint(checkpoint, public_key)
        except proof.ProofError as exc:
            return what, [(None, str(exc))]
        assert isinstance(size, int)
        if checkpoint["graph"] != graph:
            return what, [
                (None, f"the checkpoint is of graph {checkpoint['graph']!r}, not {graph!r}")
            ]
        return what, _compare(store, graph, checkpoint, size, events)

    return check


def _compare(
    store: Store, graph: str, checkpoint: dict[str, Any], size: int, events: Sequence[Event]
) -> list[tuple[int | None, str]]:
    if len(events) < size:
        head, _ = store.head(graph)
        return [
            (
                len(events) + 1,
                f"entries were dropped from the tail: the checkpoint signed {size} entries, "
                f"the ledger holds {len(events)} (its head says seq {head})",
            )
        ]
    tree = Tree()
    tree.add(event_leaf(e) for e in events[:size])
    problems: list[tuple[int | None, str]] = []
    if tree.root() != proof.checkpoint_root(checkpoint):
        problems.append(_first_rewritten(store, graph, checkpoint, tree, size))
    last = events[size - 1].checksum if size else GENESIS
    if last != checkpoint["head"]:
        problems.append(
            (
                size,
                f"seq {size}: its checksum is not the head the checkpoint signed "
                f"({checkpoint['head']})",
            )
        )
    return problems


def _first_rewritten(
    store: Store, graph: str, checkpoint: dict[str, Any], tree: Tree, size: int
) -> tuple[int | None, str]:
    """Name the first entry that differs from what the checkpoint signed, found by walking
    down the store's own tree when it still has the checkpoint's root."""
    general = (
        f"the first {size} entries do not have the Merkle root the checkpoint signed: "
        "entries were rewritten, reordered or replaced (checksums recomputed or not)"
    )
    fetch = _fetch(store, graph)
    try:
        kept = root_at(size, fetch) if store.tree_size(graph) >= size else None
    except IntegrityError:
        kept = None
    if kept != proof.checkpoint_root(checkpoint):
        return None, general + "; the store's own Merkle tree was rewritten too"
    for top, first in proof.subtrees(0, size):
        if fetch([(top, first)]).get((top, first)) == tree.nodes[(top, first)]:
            continue
        level, index = top, first
        while level > 0:
            level, index = level - 1, index * 2
            if fetch([(level, index)]).get((level, index)) == tree.nodes[(level, index)]:
                index += 1
        return index + 1, f"seq {index + 1}: {general}; seq {index + 1} is the first that differs"
    return None, general


def _tombstone(history: Sequence[Event], node_id: str) -> dict[str, Any] | None:
    for event in reversed(history):
        if event.kind is EventKind.TOMBSTONED and event.payload.get("id") == node_id:
            at = parse_time(event.payload["at"], "at")
            return {"seq": event.seq, "at": format_time(at), "reason": event.payload.get("reason")}
    return None


def _check_matches(store: Store, graph: str, checkpoint: dict[str, Any], field: str) -> int:
    """The checkpoint's size, once its graph and root agree with the store's tree."""
    if checkpoint.get("graph") != graph:
        raise InvalidInput(field, f"the checkpoint is of graph {checkpoint.get('graph')!r}", graph)
    size = checkpoint.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise InvalidInput(field, f"size {size!r} is not a whole number", ">= 0")
    held = store.tree_size(graph)
    if held < size:  # a store from before the tree, or a ledger cut since
        held = store.catch_up_tree(graph)
    if held < size:
        raise IntegrityError(
            f"the checkpoint signed {size} entries but the store's tree holds fewer: "
            "entries were dropped; run `decisis verify --checkpoint`",
            size,
        )
    if root_at(size, _fetch(store, graph)) != proof.checkpoint_root(checkpoint):
        raise IntegrityError(
            f"the store's first {size} entries do not have the root this checkpoint signed: "
            "the checkpoint is not of this store, or its history was rewritten since; "
            "run `decisis verify --checkpoint`"
        )
    return size


def prove_inclusion(
    store: Store, graph: str, node_id: str, history: Sequence[Event], checkpoint: dict[str, Any]
) -> dict[str, Any]:
    """An inclusion proof of the node's entries (``history``) under ``checkpoint``. A
    tombstoned node's entries are proved all the same, its tombstone named: the ledger
    keeps them, and a proof that hid them would not be one."""
    size = _check_matches(store, graph, checkpoint, "checkpoint")
    covered = [e for e in history if e.seq <= size]
    if not covered:
        raise Conflict(
            f"node {node_id}'s entries all come after this checkpoint ({size} entries): "
            "sign a newer one with `decisis checkpoint`"
        )
    fetch = _fetch(store, graph)
    kept = fetch([(0, e.seq - 1) for e in covered])
    for e in covered:
        if kept.get((0, e.seq - 1)) != event_leaf(e):
            raise IntegrityError(
                f"seq {e.seq}: the ledger's entry is not the one the Merkle tree holds: the "
                "ledger was rewritten; run `decisis verify --checkpoint`",
                e.seq,
            )
    entries = [
        {
            "index": e.seq - 1,
            "event": leaf_data(e).decode("utf-8"),
            "path": [h.hex() for h in inclusion(e.seq - 1, size, fetch)],
        }
        for e in covered
    ]
    return {
        "format": proof.PROOF_FORMAT,
        "type": "inclusion",
        "checkpoint": checkpoint,
        "node": node_id,
        "tombstoned": _tombstone(history, node_id),
        "entries": entries,
        "not_covered": [e.seq for e in history if e.seq > size],
    }


def prove_consistency(
    store: Store, graph: str, old: dict[str, Any], new: dict[str, Any]
) -> dict[str, Any]:
    """A consistency proof that ``old``'s tree is the first part of ``new``'s."""
    old_size = _check_matches(store, graph, old, "from")
    new_size = _check_matches(store, graph, new, "to")
    if old_size > new_size:
        raise InvalidInput(
            "from",
            f"the --from checkpoint ({old_size} entries) is newer than --to ({new_size})",
            "the older checkpoint as --from",
        )
    path = consistency(old_size, new_size, _fetch(store, graph))
    return {
        "format": proof.PROOF_FORMAT,
        "type": "consistency",
        "old": old,
        "new": new,
        "path": [h.hex() for h in path],
    }
