"""The default embedder: a static token table distilled from all-MiniLM-L6-v2, run with numpy.

A transformer gives the best vectors but needs torch and a model download; neither is
allowed on a fresh, offline machine. A static model keeps one vector per vocabulary
token, made by running each token through the transformer once
(``scripts/distill_embedder.py``); a text's vector is then the mean of its tokens'
rows. That is a lookup and a sum: about a millisecond per question, no torch, no
network, and an 8 MB table shipped in the package (``decisis/data/static-minilm``, with
its Apache-2.0 licence and NOTICE).

Files of a model folder:

- ``vocab.txt``: one WordPiece token a line; the line number is the row;
- ``vectors.npz``: ``vectors`` (int8, rows x dim) and ``scales`` (float32, one a row;
  the row's value is ``vectors[i] * scales[i]``, with the SIF weight folded in);
- ``config.json``: ``format`` (``decisis-static/1``), ``name``, ``fingerprint``, ``dim``,
  ``rows``, ``unk_token`` and how it was made.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from decisis.errors import InvalidInput
from decisis.search.embed_wordpiece import WordPieceTokenizer

__all__ = ["FORMAT", "StaticEmbedder", "is_common_word", "load_static_embedder"]

FORMAT = "decisis-static/1"


class StaticEmbedder:
    """Looks tokens up in a table and returns the normalised mean of their rows."""

    def __init__(
        self,
        name: str,
        vectors: NDArray[Any],
        scales: NDArray[np.float32],
        tokenizer: WordPieceTokenizer,
    ):
        if vectors.ndim != 2 or scales.shape != (vectors.shape[0],):
            raise InvalidInput("vectors", "expected rows x dim with one scale per row")
        self._name = name
        self._vectors = vectors
        self._scales = scales.astype(np.float32, copy=False)
        self._tokenizer = tokenizer

    @property
    def name(self) -> str:
        """``static-minilm:<fingerprint>``: changes whenever the table does."""
        return self._name

    @property
    def dim(self) -> int:
        """Vector length (256 for the shipped table)."""
        return int(self._vectors.shape[1])

    def token_ids(self, text: str) -> NDArray[np.int64]:
        """The table rows a text uses; unknown pieces are left out rather than averaged in."""
        unk = self._tokenizer.unk_id
        return np.fromiter((i for i in self._tokenizer.ids(text) if i != unk), dtype=np.int64)

    def is_whole_piece(self, word: str, *, within: int | None = None) -> bool:
        """Whether ``word`` is one piece of the vocabulary, not cut into several (and, with
        ``within``, one of its first ``within`` rows)."""
        ids = self._tokenizer.ids(word)
        return (
            len(ids) == 1
            and ids[0] != self._tokenizer.unk_id
            and (within is None or ids[0] < within)
        )

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One unit row per text: the scale-weighted sum of its tokens' rows, normalised."""
        if isinstance(texts, str):
            raise InvalidInput("texts", "expected a sequence of strings, got one string")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            ids = self.token_ids(text)
            if ids.size:
                out[row] = self._scales[ids] @ self._vectors[ids].astype(np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    @classmethod
    def from_folder(cls, folder: Traversable) -> StaticEmbedder:
        """Load a model folder written by ``scripts/distill_embedder.py``."""
        try:
            config = json.loads(folder.joinpath("config.json").read_text(encoding="utf-8"))
            vocab = folder.joinpath("vocab.txt").read_text(encoding="utf-8").splitlines()
            table = folder.joinpath("vectors.npz")
            mapped = mapped_npz(table) if isinstance(table, Path) else None
            if mapped is not None:
                vectors, scales = mapped["vectors"], mapped["scales"]
            else:
                with table.open("rb") as fh, np.load(fh, allow_pickle=False) as arrays:
                    vectors, scales = arrays["vectors"], arrays["scales"]
        except (OSError, KeyError, ValueError) as exc:
            raise InvalidInput(
                "embedder", f"{folder} is not a readable static model: {exc}"
            ) from exc
        if config.get("format") != FORMAT:
            raise InvalidInput("embedder", f"{folder}: format {config.get('format')!r}", FORMAT)
        if vectors.shape != (len(vocab), config["dim"]):
            raise InvalidInput(
                "embedder", f"{folder}: table {vectors.shape} does not fit {len(vocab)} tokens"
            )
        unk = config.get("unk_token", "[UNK]")
        if unk not in vocab:
            raise InvalidInput("embedder", f"{folder}: unknown-token {unk!r} is not in vocab.txt")
        tokenizer = WordPieceTokenizer.from_lines(vocab, unk_token=unk)
        name = f"{config['name']}:{config['fingerprint']}"
        return cls(name, vectors, scales, tokenizer)


def mapped_npz(path: Path) -> dict[str, NDArray[Any]] | None:
    """The arrays of an uncompressed ``.npz`` (as ``np.savez`` writes it) as read-only views
    of the file mapped into memory, or ``None`` for any other file (``np.load`` reads it).

    Reading the 7.5 MB table through ``np.load`` copies it and checks its CRC, about a
    tenth of the CPU a cold ``decisis ask`` spends answering; mapped, a question reads only
    the rows of its own tokens. The bytes are the same, so the arrays are equal."""
    import io
    import mmap
    import struct
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
        with path.open("rb") as fh:
            whole = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, zipfile.BadZipFile):
        return None
    out: dict[str, NDArray[Any]] = {}
    for member in members:
        at = member.header_offset
        if (
            member.compress_type != zipfile.ZIP_STORED
            or member.flag_bits & 0x1  # encrypted
            or not member.filename.endswith(".npy")
            or whole[at : at + 4] != b"PK\x03\x04"
        ):
            return None
        name_length, extra_length = struct.unpack("<HH", whole[at + 26 : at + 30])
        start = at + 30 + name_length + extra_length
        head = io.BytesIO(whole[start : start + min(member.file_size, 1 << 16)])
        try:
            version = np.lib.format.read_magic(head)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(head)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(head)
        except ValueError:
            return None
        count = int(np.prod(shape))
        if dtype.hasobject or head.tell() + count * dtype.itemsize != member.file_size:
            return None
        flat = np.frombuffer(whole, dtype=dtype, count=count, offset=start + head.tell())
        out[member.filename[: -len(".npy")]] = flat.reshape(shape, order="F" if fortran else "C")
    return out


@functools.cache
def _packaged() -> StaticEmbedder:
    """The shipped table, loaded once per process (about 8 MB, a few milliseconds)."""
    return StaticEmbedder.from_folder(files("decisis").joinpath("data", "static-minilm"))


def load_static_embedder(path: str | os.PathLike[str] | None = None) -> StaticEmbedder:
    """The shipped model (cached), or the model folder at ``path``."""
    if path is None:
        return _packaged()
    return StaticEmbedder.from_folder(Path(path))


def is_common_word(word: str, *, among: int | None = None) -> bool:
    """Whether ``word`` is an everyday English word: one piece of the shipped model's
    WordPiece vocabulary (BERT uncased keeps the words common in English text whole, and
    cuts names and terms of art into pieces: "password" is one piece, "stdout" three).
    With ``among``, only one of its first ``among`` rows: the vocabulary lists whole words
    roughly by how often English text uses them ("policy" is row 2,350, "concourse"
    27,578). ``False`` when the shipped model cannot be read."""
    try:
        return _packaged().is_whole_piece(word, within=among)
    except InvalidInput:
        return False
