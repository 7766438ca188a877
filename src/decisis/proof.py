"""Merkle proofs and signed checkpoints over a decisis ledger: a documented contract.

This module stands alone: it imports only the standard library, and ``cryptography``
(the ``decisis[proofs]`` extra) where a signature is made or checked. Copy this one
file next to a proof and its public key and ``python -m decisis.proof verify`` (or
``python proof.py verify``) checks them without decisis installed.

The tree (RFC 6962 §2.1, hashes as RFC 9162 §2.1.1)
    The leaves are the graph's ledger entries in ``seq`` order: leaf ``i`` (0-based) is
    the entry with ``seq = i + 1``. A leaf's data is the entry's *canonical bytes* as
    ``decisis.ledger`` defines them (the sorted, compact JSON of ``at``, ``entity``,
    ``graph``, ``kind``, ``payload``, ``seq``): the very bytes the hash chain hashes.
    That choice makes a leaf readable by itself (a proof carries the entry a person can
    read), binds it to its graph and position (both are in the bytes: a leaf cannot be
    moved or replayed elsewhere), and binds the whole chain: the checksums are a function
    of these bytes from ``GENESIS``, so equal leaves mean an equal chain, and a history
    rewritten with every checksum recomputed still changes the leaves it touched and so
    the root a checkpoint signed.

        leaf_hash(d)     = SHA-256(0x00 || d)
        node_hash(l, r)  = SHA-256(0x01 || l || r)
        MTH([])          = SHA-256("")
        MTH([d])         = leaf_hash(d)
        MTH(D[0:n])      = node_hash(MTH(D[0:k]), MTH(D[k:n])),  k the largest power of 2 < n

    Inclusion paths are RFC 6962 §2.1.1 ``PATH(m, D[n])``, consistency proofs §2.1.2
    ``PROOF(m, D[n])``; they are checked as RFC 9162 §2.1.3.2 and §2.1.4.2 say.

Checkpoint (JSON object)
    ``{"format": "decisis-checkpoint/1", "graph": NAME, "size": N, "head": CHECKSUM,
    "root": HEX, "time": "YYYY-MM-DDTHH:MM:SS.ffffffZ", "key_id": KEY_ID,
    "signature": BASE64}``: the graph's first ``size`` ledger entries have Merkle root
    ``root`` (64 lowercase hex digits) and the entry ``seq = size`` has chain checksum
    ``head`` (``decisis.ledger``; ``GENESIS`` for size 0). ``key_id`` is ``"ed25519:"`` and
    the first 16 hex digits of SHA-256 of the raw 32-byte public key. ``signature`` is the
    Ed25519 signature (RFC 8032), base64, of the checkpoint's *signed form*: every field
    but ``signature`` as JSON with sorted keys, ``separators=(",", ":")``, UTF-8 without
    ASCII escaping.

Proof (JSON object), one of
    ``{"format": "decisis-proof/1", "type": "inclusion", "checkpoint": CHECKPOINT,
    "node": ID, "tombstoned": null | {"seq": N, "at": TIME, "reason": TEXT | null},
    "entries": [{"index": I, "event": CANONICAL_JSON_TEXT, "path": [HEX, ...]}, ...],
    "not_covered": [SEQ, ...]}``: each entry's canonical text is leaf ``index`` of the tree
    the checkpoint signed (``not_covered``: the node's entries after the checkpoint, which
    it cannot prove).
    ``{"format": "decisis-proof/1", "type": "consistency", "old": CHECKPOINT,
    "new": CHECKPOINT, "path": [HEX, ...]}``: the tree ``old`` signed is the first
    ``old.size`` leaves of the tree ``new`` signed (nothing before it was changed,
    dropped or reordered).

Keys: the private key is PKCS #8 PEM without encryption (file mode 0600), the public key
SubjectPublicKeyInfo PEM, as ``cryptography`` writes them.

    python -m decisis.proof verify proof.json --key KEY.pub

exits 0 when the proof and every checkpoint signature in it hold, 1 naming what failed,
2 for a file that cannot be read or a missing ``cryptography``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "CHECKPOINT_FORMAT",
    "EMPTY_ROOT",
    "PROOF_FORMAT",
    "ProofError",
    "check_checkpoint",
    "check_proof",
    "checkpoint_root",
    "consistency_ranges",
    "inclusion_ranges",
    "key_id",
    "leaf_hash",
    "load_private_key",
    "load_public_key",
    "node_hash",
    "root_of",
    "sign_checkpoint",
    "signed_form",
    "split",
    "subtrees",
    "verify_consistency",
    "verify_inclusion",
]

CHECKPOINT_FORMAT = "decisis-checkpoint/1"
PROOF_FORMAT = "decisis-proof/1"
EMPTY_ROOT = hashlib.sha256(b"").digest()
_CHECKPOINT_FIELDS = ("format", "graph", "size", "head", "root", "time", "key_id", "signature")
NEEDS = "signatures need the 'cryptography' package: pip install 'decisis[proofs]'"


class ProofError(Exception):
    """A proof, checkpoint or key that does not hold; the message names what failed."""


# -- hashing ------------------------------------------------------------------------


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n`` >= 2): where MTH splits."""
    return 1 << ((n - 1).bit_length() - 1)


def root_of(leaves: Sequence[bytes]) -> bytes:
    """MTH over leaf *hashes* (already ``leaf_hash``-ed), computed directly (the reference)."""
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = split(len(leaves))
    return node_hash(root_of(leaves[:k]), root_of(leaves[k:]))


def subtrees(start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` as complete aligned subtrees ``(level, index)``, left to right, when
    ``start`` is aligned as every range of RFC 6962's recursion is: the tree over the range
    is then the right-to-left fold of their hashes with ``node_hash``."""
    found: list[tuple[int, int]] = []
    while start < end:
        level = (end - start).bit_length() - 1
        while start % (1 << level):
            level -= 1
        found.append((level, start >> level))
        start += 1 << level
    return found


def inclusion_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The leaf ranges whose MTHs make ``PATH(m, D[0:n])`` (RFC 6962 §2.1.1), leaf first."""
    if not 0 <= m < n:
        raise ProofError(f"leaf {m} is not in a tree of {n} leaves")
    ranges: list[tuple[int, int]] = []
    lo, hi = 0, n
    while hi - lo > 1:
        k = split(hi - lo)
        if m - lo < k:
            ranges.append((lo + k, hi))
            hi = lo + k
        else:
            ranges.append((lo, lo + k))
            lo += k
    return ranges[::-1]


def consistency_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The leaf ranges whose MTHs make ``PROOF(m, D[0:n])`` (RFC 6962 §2.1.2); empty for
    ``m`` 0 or ``m == n``."""
    if not 0 <= m <= n:
        raise ProofError(f"a tree of {m} leaves cannot be a prefix of one of {n}")
    if m in (0, n):
        return []
    ranges: list[tuple[int, int]] = []
    lo, hi, whole = 0, n, True
    while m != hi - lo:
        k = split(hi - lo)
        if m <= k:
            ranges.append((lo + k, hi))
            hi = lo + k
        else:
            ranges.append((lo, lo + k))
            lo, m, whole = lo + k, m - k, False
    if not whole:
        ranges.append((lo, hi))
    return ranges[::-1]


def verify_inclusion(
    index: int, size: int, leaf: bytes, path: Sequence[bytes], root: bytes
) -> bool:
    """RFC 9162 §2.1.3.2: does ``leaf`` (a leaf hash) sit at ``index`` of the tree of ``size``
    leaves whose root is ``root``, by ``path``?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, path: Sequence[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2: is the tree of ``first`` leaves (root ``first_root``) the prefix
    of the tree of ``second`` leaves (``second_root``), by ``path``? Equal sizes need an
    empty path and equal roots; size 0 is the prefix of every tree."""
    if not 0 <= first <= second:
        return False
    if first == 0:
        return not path and first_root == EMPTY_ROOT
    if first == second:
        return not path and first_root == second_root
    if not path:
        return False
    nodes = list(path)
    if first & (first - 1) == 0:  # an exact power of two: its root is the first node
        nodes.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = nodes[0]
    for c in nodes[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0


# -- keys and checkpoints -------------------------------------------------------------


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError as exc:
        raise ImportError(NEEDS) from exc
    return serialization, ed25519


def load_private_key(pem: bytes) -> Any:
    """An Ed25519 private key from PKCS #8 PEM; ``ProofError`` for anything else."""
    serialization, ed25519 = _crypto()
    try:
        key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as exc:
        raise ProofError(f"not an unencrypted PEM private key: {exc}") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise ProofError("the private key is not an Ed25519 key")
    return key


def load_public_key(pem: bytes) -> Any:
    """An Ed25519 public key from SubjectPublicKeyInfo PEM; ``ProofError`` for anything else."""
    serialization, ed25519 = _crypto()
    try:
        key = serialization.load_pem_public_key(pem)
    except (ValueError, TypeError) as exc:
        raise ProofError(f"not a PEM public key: {exc}") from None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise ProofError("the public key is not an Ed25519 key")
    return key


def key_id(public_key: Any) -> str:
    serialization, _ = _crypto()
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]


def signed_form(checkpoint: dict[str, Any]) -> bytes:
    """The bytes a checkpoint's signature covers: every field but ``signature``, canonical."""
    body = {name: value for name, value in checkpoint.items() if name != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign_checkpoint(
    private_key: Any, *, graph: str, size: int, head: str, root: bytes, time: str
) -> dict[str, Any]:
    """A checkpoint of these values, signed with ``private_key``."""
    checkpoint: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "graph": graph,
        "size": size,
        "head": head,
        "root": root.hex(),
        "time": time,
        "key_id": key_id(private_key.public_key()),
    }
    signature = private_key.sign(signed_form(checkpoint))
    checkpoint["signature"] = base64.b64encode(signature).decode("ascii")
    return checkpoint


def _hex_hash(value: object, what: str) -> bytes:
    if not isinstance(value, str) or len(value) != 64:
        raise ProofError(f"{what}: {value!r} is not 64 hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ProofError(f"{what}: {value!r} is not 64 hex digits") from None


def checkpoint_root(checkpoint: dict[str, Any]) -> bytes:
    return _hex_hash(checkpoint.get("root"), "checkpoint root")


def check_checkpoint(checkpoint: object, public_key: Any, what: str = "checkpoint") -> None:
    """``ProofError`` naming what is wrong unless ``checkpoint`` is well formed and signed
    by ``public_key``: another key's checkpoint is named as such, a bad signature as forged
    or altered."""
    if not isinstance(checkpoint, dict):
        raise ProofError(f"{what}: not a JSON object")
    missing = [name for name in _CHECKPOINT_FIELDS if name not in checkpoint]
    if missing:
        raise ProofError(f"{what}: missing {', '.join(missing)}")
    if checkpoint["format"] != CHECKPOINT_FORMAT:
        raise ProofError(f"{what}: format {checkpoint['format']!r}, not {CHECKPOINT_FORMAT!r}")
    size = checkpoint["size"]
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise ProofError(f"{what}: size {size!r} is not a whole number >= 0")
    checkpoint_root(checkpoint)
    expected = key_id(public_key)
    if checkpoint["key_id"] != expected:
        raise ProofError(
            f"{what}: signed by another key ({checkpoint['key_id']}), not this one ({expected})"
        )
    try:
        signature = base64.b64decode(str(checkpoint["signature"]), validate=True)
    except ValueError:
        raise ProofError(f"{what}: the signature is not base64") from None
    from cryptography.exceptions import InvalidSignature

    try:
        public_key.verify(signature, signed_form(checkpoint))
    except InvalidSignature:
        raise ProofError(
            f"{what}: the signature does not verify with key {expected}: "
            "the checkpoint was forged or altered"
        ) from None


# -- proofs ---------------------------------------------------------------------------


def _path(value: object, what: str) -> list[bytes]:
    if not isinstance(value, list):
        raise ProofError(f"{what}: the path is not a list")
    return [_hex_hash(item, f"{what}: path[{i}]") for i, item in enumerate(value)]


def _check_entry(entry: object, number: int, checkpoint: dict[str, Any]) -> str:
    what = f"entry {number}"
    if not isinstance(entry, dict) or not isinstance(entry.get("event"), str):
        raise ProofError(f"{what}: needs 'index', 'event' (canonical JSON text) and 'path'")
    index = entry.get("index")
    if isinstance(index, bool) or not isinstance(index, int):
        raise ProofError(f"{what}: index {index!r} is not a whole number")
    text: str = entry["event"]
    try:
        event = json.loads(text)
    except ValueError:
        raise ProofError(f"{what}: the event is not JSON") from None
    if not isinstance(event, dict) or event.get("seq") != index + 1:
        raise ProofError(f"{what}: the event's seq is not index + 1 ({index + 1})")
    if event.get("graph") != checkpoint["graph"]:
        raise ProofError(
            f"{what}: the event is of graph {event.get('graph')!r}, not the checkpoint's"
        )
    leaf = leaf_hash(text.encode("utf-8"))
    path = _path(entry.get("path"), what)
    if not verify_inclusion(index, checkpoint["size"], leaf, path, checkpoint_root(checkpoint)):
        raise ProofError(
            f"{what} (seq {index + 1}): not included in the tree of {checkpoint['size']} "
            "entries the checkpoint signed (the event or its path was altered)"
        )
    return f"seq {index + 1} {event.get('kind')} {event.get('entity')}"


def check_proof(proof: object, public_key: Any) -> list[str]:
    """Check a proof document and its checkpoint signatures; the lines of what it proved,
    or ``ProofError`` naming what failed."""
    if not isinstance(proof, dict) or proof.get("format") != PROOF_FORMAT:
        raise ProofError(f'not a proof: needs "format": {PROOF_FORMAT!r}')
    kind = proof.get("type")
    if kind == "inclusion":
        return _check_inclusion(proof, public_key)
    if kind == "consistency":
        return _check_consistency(proof, public_key)
    raise ProofError(f"unknown proof type {kind!r} (allowed: consistency, inclusion)")


def _check_inclusion(proof: dict[str, Any], public_key: Any) -> list[str]:
    checkpoint = proof.get("checkpoint")
    check_checkpoint(checkpoint, public_key)
    assert isinstance(checkpoint, dict)
    entries = proof.get("entries")
    if not isinstance(entries, list) or not entries:
        raise ProofError("an inclusion proof needs at least one entry")
    lines = [f"checkpoint: graph {checkpoint['graph']!r}, {checkpoint['size']} entries, signed"]
    lines += [f"included: {_check_entry(e, n, checkpoint)}" for n, e in enumerate(entries, 1)]
    tombstone = proof.get("tombstoned")
    if isinstance(tombstone, dict):
        lines.append(
            f"node {proof.get('node')} is tombstoned (seq {tombstone.get('seq')}, "
            f"reason: {tombstone.get('reason')})"
        )
    later = proof.get("not_covered") or []
    if later:
        lines.append(f"not covered by this checkpoint (later): seq {', '.join(map(str, later))}")
    return lines


def _check_consistency(proof: dict[str, Any], public_key: Any) -> list[str]:
    old, new = proof.get("old"), proof.get("new")
    check_checkpoint(old, public_key, "old checkpoint")
    check_checkpoint(new, public_key, "new checkpoint")
    assert isinstance(old, dict) and isinstance(new, dict)
    if old["graph"] != new["graph"]:
        raise ProofError(f"the checkpoints are of graphs {old['graph']!r} and {new['graph']!r}")
    if old["size"] > new["size"]:
        raise ProofError(
            f"the old checkpoint ({old['size']} entries) is larger than the new "
            f"({new['size']}): entries were dropped in between"
        )
    if old["size"] == new["size"] and old["head"] != new["head"]:
        raise ProofError(f"both checkpoints sign {old['size']} entries but different heads")
    path = _path(proof.get("path"), "consistency proof")
    if not verify_consistency(
        old["size"], new["size"], checkpoint_root(old), checkpoint_root(new), path
    ):
        raise ProofError(
            f"the tree of {old['size']} entries is not a prefix of the tree of {new['size']}: "
            "entries up to the old checkpoint were changed, dropped or reordered "
            "(or the proof was altered)"
        )
    return [
        f"consistent: graph {new['graph']!r}, {old['size']} entries ({old['time']}) are the "
        f"first of {new['size']} ({new['time']}), both signed"
    ]


# -- the verifier's command line ----------------------------------------------------------


def _fail(message: str, code: int) -> int:
    print(f"FAILED: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    import argparse  # only the command line needs it: decisis's stores import this module

    parser = argparse.ArgumentParser(
        prog="python -m decisis.proof", description="Check a decisis proof and its signatures."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check an inclusion or consistency proof")
    verify.add_argument("proof", help="the proof JSON file ('-' for stdin)")
    verify.add_argument("--key", required=True, help="the signer's public key (PEM)")
    args = parser.parse_args(argv)
    try:
        pem = Path(args.key).read_bytes()
        text = sys.stdin.read() if args.proof == "-" else Path(args.proof).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {exc}", 2)
    try:
        try:
            proof = json.loads(text)
        except ValueError as exc:
            return _fail(f"{args.proof} is not JSON: {exc}", 2)
        lines = check_proof(proof, load_public_key(pem))
    except ImportError as exc:
        return _fail(str(exc), 2)
    except ProofError as exc:
        return _fail(str(exc), 1)
    for line in lines:
        print(line)
    print("ok: the proof holds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
